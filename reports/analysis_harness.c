/* reports/analysis_harness.c - the harness rows' CPU per one-second window (allocspike-report
 * harness): a saturated harness is told from a saturated resolver by the rule of
 * common/harness_saturation.h. */
#include "analysis.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_windows.h"
#include "harness_saturation.h"

static double rounded(double v)
{
	return round(v * 1000) / 1000;
}

/* One harness_saturated event per stretch of consecutive saturated windows. */
static void saturated_stretches(const char *target, const struct cpu_windows *ws, json_t *events)
{
	for (size_t k = 0; k < ws->n;) {
		if (!harness_saturated(cpu_window_share(&ws->v[k]))) {
			k++;
			continue;
		}
		size_t end = k;
		double peak = cpu_window_share(&ws->v[k]);
		while (end + 1 < ws->n && ws->v[end + 1].segment == ws->v[k].segment &&
		       ws->v[end + 1].w == ws->v[end].w + 1 &&
		       harness_saturated(cpu_window_share(&ws->v[end + 1]))) {
			end++;
			peak = fmax(peak, cpu_window_share(&ws->v[end]));
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
		if (!cpu_windows_of(rf, (int)t, &ws)) {
			free(ws.v);
			json_decref(cpu);
			json_decref(events);
			return NULL;
		}
		if (ws.n > 0) {
			double sum = 0, max = 0;
			for (size_t k = 0; k < ws.n; k++) {
				sum += cpu_window_share(&ws.v[k]);
				max = fmax(max, cpu_window_share(&ws.v[k]));
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
