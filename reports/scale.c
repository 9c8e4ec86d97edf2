/* reports/scale.c - the scale figures: for every run and variant the peak requests in flight and
 * the allocator-held memory after the spikes (both from the run's summary, whose attribution is
 * attribution.c's), and per variant the least-squares line through those points. */
#include "scale.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "json_file.h"
#include "passes.h"
#include "runfolder_reader.h"
#include "scale_page.h"
#include "terminal_text.h"
#include "colours.h"
#include "summary_json.h"

#define KB_PER_MB 1024.0
#define INFLIGHT_UNIT 1000.0 /* the slope is in MB per this many requests in flight */

enum { EXIT_BAD_INPUT = 2 };

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The most requests in flight at any spike's peak. */
static double peak_inflight(const json_t *variant)
{
	double peak = NAN;
	size_t i;
	const json_t *sp;
	json_array_foreach(json_object_get(variant, "spikes"), i, sp)
	{
		double x = summary_number(sp, "peak_inflight");
		if (isnan(peak) || x > peak)
			peak = x;
	}
	return peak;
}

/* What the run is: where, its status, the spike rate and, when recorded, the world and the knee
 * the calibration found. */
static json_t *run_entry(const char *dir, const json_t *run)
{
	const json_t *world = summary_lookup(run, "parameters.hierarchy.world");
	if (!json_is_string(world))
		world = summary_lookup(run, "parameters.options.world");
	const json_t *status = json_object_get(run, "status");
	return json_pack(
	    "{s:s, s:o, s:o, s:o, s:o}", "dir", dir, "status",
	    json_is_string(status) ? json_copy((json_t *)status) : json_null(), "spike_rate_qps",
	    number_or_null(summary_number(run, "parameters.spike_rate_qps")), "world",
	    json_is_string(world) && *json_string_value(world) ? json_copy((json_t *)world)
	                                                       : json_null(),
	    "calibrated_knee_qps",
	    number_or_null(summary_number(run, "calibration.capacity_of_slowest_qps")));
}

/* The line through a variant's points, in MB over thousands of requests in flight. */
static void set_fit(json_t *v)
{
	const json_t *points = json_object_get(v, "points");
	size_t n = json_array_size(points), i;
	double *x = calloc(n ? n : 1, sizeof(*x)), *y = calloc(n ? n : 1, sizeof(*y));
	const json_t *p;
	json_array_foreach(points, i, p)
	{
		x[i] = summary_number(p, "peak_inflight") / INFLIGHT_UNIT;
		y[i] = summary_number(p, "held_mb");
	}
	struct line_fit f = fit_line(x, y, n);
	json_object_set_new(v, "slope_mb_per_1000_inflight", number_or_null(f.slope));
	json_object_set_new(v, "intercept_mb", number_or_null(f.intercept));
	json_object_set_new(v, "r2", number_or_null(f.r2));
	free(x);
	free(y);
}

json_t *scale_new(void)
{
	return json_pack(
	    "{s:i, s:s, s:s, s:[], s:[], s:{}}", "format", 1, "x",
	    "peak requests in flight: the most at any spike's peak "
	    "(summary spikes[].peak_inflight)",
	    "y",
	    "allocator-held MB after the spikes: allocator heap minus live bytes at the "
	    "end of the last recovery (summary spikes.last.end_held_kb)",
	    "runs", "variant_order", "variants");
}

void scale_add_run(json_t *scale, const char *dir, const json_t *run, const json_t *summary)
{
	json_t *runs = json_object_get(scale, "runs"),
	       *order = json_object_get(scale, "variant_order");
	json_t *variants = json_object_get(scale, "variants");
	int index = (int)json_array_size(runs);
	json_array_append_new(runs, run_entry(dir, run));
	size_t i;
	const json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const char *vname = json_string_value(name);
		const json_t *sv =
		    json_object_get(json_object_get(summary, "variants"), vname ? vname : "");
		if (!sv)
			continue;
		json_t *v = json_object_get(variants, vname);
		if (!v) {
			/* The colour of the variant's allocator, as on its run's own page. */
			v = json_pack("{s:[],s:s}", "points", "colour", colours_of(summary, vname));
			json_object_set_new(variants, vname, v);
			json_array_append_new(order, json_string(vname));
		}
		double x = peak_inflight(sv);
		double held = summary_number(sv, "spikes.last.end_held_kb") / KB_PER_MB;
		if (!isfinite(x) || !isfinite(held))
			continue;
		json_array_append_new(json_object_get(v, "points"),
		                      json_pack("{s:i, s:f, s:f}", "run", index, "peak_inflight", x,
		                                "held_mb", held));
	}
}

void scale_fit(json_t *scale)
{
	const char *name;
	json_t *v;
	json_object_foreach(json_object_get(scale, "variants"), name, v) set_fit(v);
}

int scale_command(int argc, char **argv)
{
	const char *out = "scale.html";
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	size_t n = 0;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--out") == 0 || strcmp(argv[i], "-o") == 0 ||
		    strcmp(argv[i], "--output") == 0) {
			if (i + 1 >= argc) {
				fprintf(
				    stderr,
				    "allocspike-report scale: a value is missing after \"%s\"\n",
				    argv[i]);
				free(dirs);
				return EXIT_BAD_INPUT;
			}
			out = argv[++i];
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "allocspike-report scale: unexpected argument \"%s\"\n",
			        argv[i]);
			free(dirs);
			return EXIT_BAD_INPUT;
		} else {
			dirs[n++] = argv[i];
		}
	}
	if (n < 2) {
		fprintf(stderr,
		        "allocspike-report scale: needs two run folders or more (a line needs "
		        "two points)\nusage: allocspike-report scale RUN_DIR RUN_DIR... [--out "
		        "FILE]\n");
		free(dirs);
		return EXIT_BAD_INPUT;
	}
	/* One run at a time: its points are taken and its timeline freed before the next is read.
	 */
	json_t *scale = scale_new();
	int rc = EXIT_BAD_INPUT;
	char err[1024];
	size_t loaded = 0;
	for (; loaded < n; loaded++) {
		struct runfolder rf;
		if (!runfolder_read(dirs[loaded], &rf, err, sizeof(err))) {
			fputs("allocspike-report scale: ", stderr);
			terminal_text_fputs(err, stderr);
			fputc('\n', stderr);
			break;
		}
		json_t *summary = passes_run(&rf);
		scale_add_run(scale, dirs[loaded], rf.run, summary);
		json_decref(summary);
		runfolder_free(&rf);
	}
	if (loaded == n) {
		scale_fit(scale);
		char *page = scale_page(scale);
		char json_path[4096];
		file_path_beside(out, ".json", json_path, sizeof(json_path)); /* scale.json */
		if (!json_file_write_atomic(json_path, scale, err, sizeof(err)) ||
		    !text_file_write_atomic(out, page, err, sizeof(err))) {
			fputs("allocspike-report scale: ", stderr);
			terminal_text_fputs(err, stderr);
			fputc('\n', stderr);
		} else {
			terminal_text_fputs(out, stdout);
			putchar('\n');
			rc = 0;
		}
		free(page);
	}
	json_decref(scale);
	free(dirs);
	return rc;
}
