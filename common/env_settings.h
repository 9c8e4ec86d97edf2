/* common/env_settings.h - does a row's allocator environment take? The settings a row's `env` cell
 * asks for (variants.tsv, docs/variants.md "Settings"), and their comparison with the
 * allocator_settings its binary (or a daemon's allocator probe) reports in --version --json. How a
 * variable splits into settings is each allocator's to say (allocator_env_list). */
#ifndef ALLOCSPIKE_ENV_SETTINGS_H
#define ALLOCSPIKE_ENV_SETTINGS_H

#include <stdio.h>

/* One setting an env cell asks for. */
struct env_setting {
	char name[128];
	char value[256];
	/* The allocator reports it as 0 when nobody set it (its words), or NULL. */
	const char *zero_when_unset;
};

/* Calls each(setting, arg) for every setting of cell ("-" or empty: none), in the cell's order:
 * its words split at blanks; a variable an allocator names (GLIBC_TUNABLES, MALLOC_CONF) gives its
 * items, every other VAR=value the setting VAR; LD_PRELOAD none (which allocator a preload gives is
 * checked by the allocator the binary reports, not here), nor a daemon definition's knob
 * (ALLOCSPIKE_DAEMON_*). Empty items are skipped. */
void env_settings_each(const char *cell, void (*each)(const struct env_setting *s, void *arg),
                       void *arg);

/* Compares every setting of cell with version_json's allocator_settings: numbers as numbers (hex
 * included), true/yes/on as 1 and false/no/off as 0, other text as text. Writes one line to out
 * per setting that did not take, saying why, and returns how many did not. */
int env_settings_check(const char *cell, const char *version_json, FILE *out);

#endif
