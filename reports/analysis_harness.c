/* reports/analysis_harness.c - the harness rows' CPU per one-second window (allocspike-report
 * harness): a saturated harness is told from a saturated resolver by the rule of
 * common/harness_saturation.h. */
#include "analysis.h"
#include "grow.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness_saturation.h"

/* One window of one harness row. A clock that goes back (a serial run, a new generator) starts a
 * new segment: windows of different segments never join. */
struct cpu_window {
	int segment;
	long w;
	double dt, dc;
};

struct cpu_windows {
	struct cpu_window *v;
	size_t n, cap;
};

static bool windows_add(struct cpu_windows *ws, int segment, long w, double dt, double dc)
{
	struct cpu_window *last = ws->n ? &ws->v[ws->n - 1] : NULL;
	if (!last || last->segment != segment || last->w != w) {
		void *p = grow_room(ws->v, &ws->cap, ws->n, sizeof(*ws->v), 256);
		if (!p)
			return false;
		ws->v = p;
		last = &ws->v[ws->n++];
		*last = (struct cpu_window){.segment = segment, .w = w};
	}
	last->dt += dt;
	last->dc += dc;
	return true;
}

/* The windows of one harness row, from its cumulative CPU seconds. */
static bool windows_of(const struct runfolder *rf, int target, struct cpu_windows *ws)
{
	double pt = NAN, pc = NAN;
	int segment = 0;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct runfolder_row *r = &rf->rows[i];
		double user = r->v[TIMELINE_COL_cpu_user_s], sys = r->v[TIMELINE_COL_cpu_sys_s];
		if (r->target != target || isnan(user))
			continue;
		double c = user + (isnan(sys) ? 0 : sys);
		if (!isnan(pt) && r->t_s > pt) {
			long w = (long)floor((r->t_s - 1e-6) / HARNESS_WINDOW_S);
			if (!windows_add(ws, segment, w, r->t_s - pt, c - pc))
				return false;
		} else if (!isnan(pt)) {
			segment++;
		}
		pt = r->t_s;
		pc = c;
	}
	return true;
}

static double share_of(const struct cpu_window *w)
{
	return w->dt > 0 ? w->dc / w->dt : 0;
}

static double rounded(double v)
{
	return round(v * 1000) / 1000;
}

/* One harness_saturated event per stretch of consecutive saturated windows. */
static void saturated_stretches(const char *target, const struct cpu_windows *ws, json_t *events)
{
	for (size_t k = 0; k < ws->n;) {
		if (!harness_saturated(share_of(&ws->v[k]))) {
			k++;
			continue;
		}
		size_t end = k;
		double peak = share_of(&ws->v[k]);
		while (end + 1 < ws->n && ws->v[end + 1].segment == ws->v[k].segment &&
		       ws->v[end + 1].w == ws->v[end].w + 1 &&
		       harness_saturated(share_of(&ws->v[end + 1]))) {
			end++;
			peak = fmax(peak, share_of(&ws->v[end]));
		}
		json_array_append_new(
		    events, json_pack("{s:f, s:s, s:s, s:f, s:I}", "t_s",
		                      (double)ws->v[k].w * HARNESS_WINDOW_S, "variant", target,
		                      "event", "harness_saturated", "cpu_share", rounded(peak),
		                      "duration_s", (json_int_t)(end - k + 1)));
		k = end + 1;
	}
}

json_t *analysis_harness(const struct runfolder *rf)
{
	json_t *cpu = json_object(), *events = json_array();
	for (size_t t = 0; t < rf->n_targets; t++) {
		if (!runfolder_is_harness(rf->targets[t]))
			continue;
		struct cpu_windows ws = {0};
		if (!windows_of(rf, (int)t, &ws)) {
			free(ws.v);
			json_decref(cpu);
			json_decref(events);
			return NULL;
		}
		if (ws.n > 0) {
			double sum = 0, max = 0;
			for (size_t k = 0; k < ws.n; k++) {
				sum += share_of(&ws.v[k]);
				max = fmax(max, share_of(&ws.v[k]));
			}
			json_object_set_new(cpu, rf->targets[t],
			                    json_pack("{s:f, s:f}", "cpu_share_mean",
			                              rounded(sum / (double)ws.n), "cpu_share_max",
			                              rounded(max)));
		}
		/* A generator (or a shard's) records its own harness_saturated events
		 * (loadgen/recorder.c). */
		if (!runfolder_is_generator(rf->targets[t]))
			saturated_stretches(rf->targets[t], &ws, events);
		free(ws.v);
	}
	return json_pack("{s:f, s:f, s:o, s:o}", "window_s", HARNESS_WINDOW_S, "threshold_cores",
	                 HARNESS_SATURATED_CORES, "cpu", cpu, "saturated", events);
}
