/* reports/aliases.c - the last pass: old names of figures kept one release beside the one
 * definition (summary.json "aliases"). */
#include "aliases.h"

#include <stdio.h>
#include <string.h>

#include "summary_json.h"

/* Old names of figures that meant something else, each kept one release as an alias of the one
 * definition (docs/run-folder.md, "Aliases"): per variant, "spikes.N." for every spike. */
static const struct {
	const char *old, *now;
	const char *fallback; /* where a run lacks the figure (no latency histograms): older runs */
} ALIASES[] = {
    {"spike_traffic.answered_share", "traffic_by_send.phases.spike.answered_share", NULL},
    {"spike_traffic.lat_p50_ms", "traffic_by_send.phases.spike.lat_p50_ms",
     "spike_traffic.lat_p50_ms_of_intervals"},
    {"spike_traffic.lat_p90_ms", "traffic_by_send.phases.spike.lat_p90_ms",
     "spike_traffic.lat_p90_ms_of_intervals"},
    {"spike_traffic.lat_p99_ms", "traffic_by_send.phases.spike.lat_p99_ms",
     "spike_traffic.lat_p99_ms_of_intervals"},
    {"baseline_traffic.answered_share", "traffic_by_send.baseline_answered_share", NULL},
    {"baseline_traffic.lat_p50_ms", "traffic_by_send.phases.baseline.lat_p50_ms",
     "baseline_traffic.lat_p50_ms_of_intervals"},
    {"baseline_traffic.lat_p90_ms", "traffic_by_send.phases.baseline.lat_p90_ms",
     "baseline_traffic.lat_p90_ms_of_intervals"},
    {"baseline_traffic.lat_p99_ms", "traffic_by_send.phases.baseline.lat_p99_ms",
     "baseline_traffic.lat_p99_ms_of_intervals"},
    {"mean_held_given_back_share", "mean_held_released_share", NULL},
    /* the peaks' one per-spike rate is their robust trend (peaks_shape) */
    {"peak_growth_mb_per_spike", "peaks_shape.trend_mb_per_spike", NULL},
    {"peak_live_growth_mb_per_spike", "peaks_shape.live_trend_mb_per_spike", NULL},
    {"peak_held_growth_mb_per_spike", "peaks_shape.held_trend_mb_per_spike", NULL},
    {"spikes.N.held_given_back_share", "spikes.N.held_released_share", NULL},
};

/* Sets the value at path (its last key) under o, the objects on the way existing. */
static void set_at(json_t *o, const char *path, json_t *value)
{
	const char *dot = strrchr(path, '.');
	char parent[128];
	if (dot && (size_t)(dot - path) < sizeof(parent)) {
		memcpy(parent, path, (size_t)(dot - path));
		parent[dot - path] = '\0';
		o = summary_lookup(o, parent);
	}
	if (json_is_object(o))
		json_object_set_new(o, dot ? dot + 1 : path, value);
	else
		json_decref(value);
}

void aliases_add(json_t *sum)
{
	json_t *list = json_object(), *v;
	const char *name;
	for (size_t a = 0; a < sizeof(ALIASES) / sizeof(*ALIASES); a++)
		json_object_set_new(list, ALIASES[a].old, json_string(ALIASES[a].now));
	json_object_set_new(sum, "aliases", list);
	json_object_foreach(json_object_get(sum, "variants"), name, v)
	{
		for (size_t a = 0; a < sizeof(ALIASES) / sizeof(*ALIASES); a++) {
			if (strncmp(ALIASES[a].old, "spikes.N.", 9) != 0) {
				json_t *x = summary_lookup(v, ALIASES[a].now);
				if (!json_is_number(x) && ALIASES[a].fallback)
					x = summary_lookup(v, ALIASES[a].fallback);
				set_at(v, ALIASES[a].old, x ? json_incref(x) : json_null());
				continue;
			}
			size_t i;
			json_t *sp;
			json_array_foreach(json_object_get(v, "spikes"), i, sp)
			{
				if (json_object_size(sp) <= 1) /* no figures: not running then */
					continue;
				json_t *x = json_object_get(sp, ALIASES[a].now + 9);
				json_object_set_new(sp, ALIASES[a].old + 9,
				                    x ? json_incref(x) : json_null());
			}
		}
	}
}

const char *aliases_resolve(const json_t *summary, const char *path)
{
	char key[256];
	/* "spikes.3.x" is listed as "spikes.N.x" */
	if (strncmp(path, "spikes.", 7) == 0 && strchr(path + 7, '.'))
		snprintf(key, sizeof(key), "spikes.N%s", strchr(path + 7, '.'));
	else
		snprintf(key, sizeof(key), "%s", path);
	return json_string_value(json_object_get(json_object_get(summary, "aliases"), key));
}
