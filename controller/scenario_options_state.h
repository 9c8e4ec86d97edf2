/* controller/scenario_options_state.h - one scenario's options as a run of allocspike-run options
 * has them, shared by its parser (scenario_options.c), its checks (scenario_options_check.c) and
 * its
 * --help list (scenario_options_help.c). */
#ifndef ALLOCSPIKE_SCENARIO_OPTIONS_STATE_H
#define ALLOCSPIKE_SCENARIO_OPTIONS_STATE_H

#include <stdbool.h>

#include "scenario_options.h"

/* One option of the table as this run has it: its value (the table's default, the scenario's, the
 * user's, or a rewritten one in `rewritten`) and the scenario's texts for --help. */
struct option_state {
	const char *value;
	char rewritten[48];
	bool set;            /* given by the user */
	bool used;           /* taken by this scenario */
	bool list;           /* a comma-separated list, each item of the option's kind */
	const char *refusal; /* given, the scenario refuses it: why */
	const char *help, *default_text, *quick_value;
};

/* The scenario's name (its messages start with it) and its options, one per row of
 * scenario_option_table; reachable until exit, as a usage error exits from deep in the checks. */
extern const char *scenario_name;
extern struct option_state *option_states;
/* --one-of A,B: the rows of two options exactly one of which must have a value, or -1, -1. */
extern int one_of_rows[2];

/* The row of option NAME, or -1. */
int option_index(const char *name);
/* --name-with-dashes of row i (a buffer of its own, valid until the next call). */
const char *option_flag(int i);
/* The value of option NAME ("" for a name not in the table). */
const char *option_value(const char *name);
/* A bad command line of the scenario: "SCENARIO: reason", its usage line, exit 2. */
_Noreturn void scenario_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Row i's value rewritten (whole milliseconds, MEDIAN,P99, a computed default). */
void option_set_rewritten(int i, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* NAME's value, unless the user gave one. */
void option_default_unset(const char *name, const char *value);
/* docs/cli.md's duration in whole milliseconds (rounded), from min_ms up to a week. */
bool option_duration_ms(const char *text, double bare_unit, double min_ms, long long *ms);

/* Every value the scenario takes checked by its kind, then across options; exits 2 on the first
 * bad one. */
void scenario_options_validate(void);
/* spike.sh --hosts: its file read against the table, --variants made its rows (one that
 * disagrees refused), what a placed run cannot do refused (scenario_options_hosts.c). */
void scenario_options_check_hosts(void);
/* The scenario's option list, grouped, with the defaults it runs with. */
void scenario_options_print_help(void);

#endif
