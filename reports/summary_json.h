/* reports/summary_json.h - summary.json's values: numbers and shares written one way, a figure
 * looked up by its dotted path. */
#ifndef ALLOCSPIKE_REPORTS_SUMMARY_JSON_H
#define ALLOCSPIKE_REPORTS_SUMMARY_JSON_H

#include <jansson.h>

/* A number, or null when not available (NAN); integral values are written without a fraction. */
json_t *summary_json_number(double v);

/* A number as a JSON real as it is, or null when not finite (NAN, infinities). */
json_t *summary_json_real(double v);

/* A share clamped to [0, 1]; NAN stays NAN. */
double summary_share_clamped(double raw);

/* Sets key to a share clamped to [0, 1] (null for NAN); a raw value outside is kept beside it as
 * KEY_raw, so a reader sees why (docs/run-folder.md, "Shares"). */
void summary_set_share(json_t *o, const char *key, double raw);

/* The value at a dotted path ("spike_traffic.answered_share") under obj, or NULL; in an array of
 * spikes a number picks the spike of that number and "last" the last one
 * ("spikes.last.held_growth_kb"; spike_find_key). */
json_t *summary_lookup(const json_t *obj, const char *path);

/* The number at a dotted path under obj (summary_lookup), NAN when it is absent, null or not a
 * number. */
double summary_number(const json_t *obj, const char *path);

/* The number x holds, NAN when x is NULL, null or not a number: the one way a JSON value becomes a
 * number (summary_number's, for a value already at hand or under a key that is no path, such as a
 * variant's name). */
double summary_value_number(const json_t *x);

#endif
