/* reports/analysis_calibration.c - what the calibration's ramps decide (allocspike-report
 * calibration): each variant's capacity over every pass so far, whether to ramp again, and the
 * spike height (scenarios/lib/calibrate.sh runs the passes, the run controller's calibration-step
 * decides with this; docs/cli.md "--spike-rate auto"). */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "summary_json.h"

/* The higher of a figure in this pass and the passes before; 0 when neither has it. */
static json_t *best_of(const json_t *now, const json_t *before, const char *key)
{
	double best = fmax(summary_number(now, key), summary_number(before, key));
	return json_integer(isnan(best) ? 0 : (json_int_t)best);
}

/* Pass K's folder under the run: calibration, then calibration/extend-K. */
static void pass_folder(char *buf, size_t size, int k)
{
	if (k == 0)
		snprintf(buf, size, "calibration");
	else
		snprintf(buf, size, "calibration/extend-%d", k);
}

/* One pass's knees merged into `all` (variant -> its latest knee object, with the best capacity and
 * peak of every pass and the folder they came from): a pass that ramps higher keeps the best seen;
 * "still answering at the top" is the latest pass's. */
static void merge_pass(json_t *all, const json_t *knees, const char *folder)
{
	size_t i;
	const json_t *v;
	json_array_foreach(json_object_get(knees, "variants"), i, v)
	{
		const char *name = json_string_value(json_object_get(v, "variant"));
		if (!name)
			continue;
		const json_t *prev = json_object_get(all, name);
		json_t *now = json_deep_copy(v);
		json_object_set_new(now, "capacity_qps", best_of(v, prev, "capacity_qps"));
		json_object_set_new(now, "peak_answered_qps",
		                    best_of(v, prev, "peak_answered_qps"));
		json_object_set_new(now, "folder", json_string(folder));
		json_object_set_new(all, name, now);
	}
}

json_t *analysis_calibration(const char *run, double multiple, int extensions, char *err,
                             size_t err_size)
{
	json_t *all = json_object();
	int passes = 0;
	for (int k = 0; k <= extensions; k++) {
		char folder[64], dir[4096];
		pass_folder(folder, sizeof(folder), k);
		snprintf(dir, sizeof(dir), "%s/%s/timeline.csv", run, folder);
		struct stat st;
		if (stat(dir, &st) != 0) /* the passes so far: a folder with its timeline */
			break;
		snprintf(dir, sizeof(dir), "%s/%s", run, folder);
		struct runfolder rf;
		if (!runfolder_read_timeline(dir, &rf, err, err_size)) {
			json_decref(all);
			return NULL;
		}
		json_t *knees = analysis_knee(&rf);
		runfolder_free(&rf);
		merge_pass(all, knees, folder);
		json_decref(knees);
		passes++;
	}
	/* The slowest variant sets the spikes (the first of equals, in the order the ramps name
	 * them). */
	const char *slowest = NULL, *name;
	json_t *v, *still = json_array(), *fallbacks = json_array();
	json_object_foreach(all, name, v)
	{
		if (!slowest || summary_number(v, "capacity_qps") <
		                    summary_number(json_object_get(all, slowest), "capacity_qps"))
			slowest = name;
		if (json_is_true(json_object_get(v, "still_answering_at_top")))
			json_array_append_new(still, json_string(name));
		/* the knee was not found, the highest answered rate stands in for it */
		if (json_is_true(json_object_get(v, "fallback")) &&
		    summary_number(v, "capacity_qps") > 0)
			json_array_append_new(fallbacks, json_string(name));
	}
	if (!slowest) {
		snprintf(err, err_size,
		         "calibration: no variant was sampled (see %s/calibration/logs/)", run);
		json_decref(still);
		json_decref(fallbacks);
		json_decref(all);
		return NULL;
	}
	const json_t *s = json_object_get(all, slowest);
	double capacity = summary_number(s, "capacity_qps");
	/* ramp again only while the slowest still kept up at the top, and at most `extensions`
	 * times */
	bool kept_up = json_is_true(json_object_get(s, "still_answering_at_top"));
	json_t *out = json_pack(
	    "{s:o, s:i, s:s, s:I, s:I, s:b, s:b, s:o, s:o}", "variants", all, "passes", passes,
	    "slowest", slowest, "capacity_of_slowest_qps", (json_int_t)capacity, "spike_rate_qps",
	    (json_int_t)(capacity * multiple), "extend", kept_up && passes <= extensions,
	    "at_extension_limit", kept_up && passes > extensions, "still_answering_at_top", still,
	    "fallbacks", fallbacks);
	return out;
}
