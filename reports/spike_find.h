/* reports/spike_find.h - a variant's spike by its number: the one lookup behind summary_lookup's
 * "spikes.N" (check), the page's spike grid and summary.md's, so that a spike missing from one
 * variant leaves its cell empty instead of shifting the others. */
#ifndef ALLOCSPIKE_REPORTS_SPIKE_FIND_H
#define ALLOCSPIKE_REPORTS_SPIKE_FIND_H

#include <jansson.h>
#include <stddef.h>

/* The element of a spikes array whose "spike" is number; NULL if none. */
json_t *spike_find(const json_t *spikes, json_int_t number);

/* The element a path key names: "last" (the last element) or a spike number, a COUNT of
 * docs/cli.md read by common/cli_parse; NULL for any other key or a number not in the array. */
json_t *spike_find_key(const json_t *spikes, const char *key);

/* The spike numbers of a summary: every number in any variant's spikes array, ascending, into
 * *numbers (malloc'd, NULL when there is none; the caller frees it). Returns how many. */
size_t spike_find_numbers(const json_t *summary, json_int_t **numbers);

#endif
