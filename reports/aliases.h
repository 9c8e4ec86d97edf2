/* reports/aliases.h - the last pass: old names of figures kept one release beside the one
 * definition (summary.json "aliases", docs/run-folder.md "Aliases"). */
#ifndef ALLOCSPIKE_REPORTS_ALIASES_H
#define ALLOCSPIKE_REPORTS_ALIASES_H

#include <jansson.h>

/* Each old name gets its figure's value (or null) in every variant (and spike); "aliases" lists
 * them with the names they stand for. */
void aliases_add(json_t *summary);

/* The name an old figure name stands for ("mean_held_given_back_share": "mean_held_released_share";
 * a spike's as "spikes.N.x"), or NULL when path is no alias (summary.json "aliases"). */
const char *aliases_resolve(const json_t *summary, const char *path);

#endif
