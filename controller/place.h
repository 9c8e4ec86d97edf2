/* controller/place.h - allocspike-run place: rows placed on remote agents by a hosts file, every
 * agent's clock measured first, every row started by its agent's plan, a readiness barrier across
 * hosts, then one absolute start time T0 for the collector and the generator (docs/controller.md,
 * "allocspike-run place"). */
#ifndef ALLOCSPIKE_CONTROLLER_PLACE_H
#define ALLOCSPIKE_CONTROLLER_PLACE_H

#include <arpa/inet.h>
#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "bearer_token.h"
#include "clock_exchange.h"
#include "events_log.h"
#include "hosts_file.h"
#include "plan_client.h"

struct place_options {
	const char *hosts_path, *table_path, *run, *token_file, *out;
	const char *schedule, *queries; /* the run after the placement, or NULL */
	const char *rows; /* --rows: the hosts file's rows placed ("a,b"), NULL: all of them */
	char token[BEARER_TOKEN_MAX + 1];
	double interval_s, lead_s, ready_timeout_s, clock_bound_s;
	double lease_s;    /* --lease, sent in every plan; 0: not given (each agent's own) */
	double timeline_s; /* the run's timeline interval (the generator's --interval-ms) */
	char **resolver_options;
	size_t n_resolver_options;
	bool allow_controller; /* each row also answers where this host reaches its agent from */
	const char *root_hints_path; /* --root-hints: the run's, carried in every row plan */
	char *root_hints;            /* its text; NULL: none (each agent's own --root-hints) */
	size_t n_shards; /* the hosts file's generator hosts: --schedule's generator is theirs */
	const struct hosts_entry
	    *shards;         /* their lines (with --allow-controller, rows answer them) */
	json_t *shard_allow; /* with --allow-controller: every address they may send from, as
	                        ADDR/32 (controller/place_ask.h); NULL: none asked */
	bool
	    in_run; /* DIR is a scenario's run (spike.sh --hosts): its run.json and processes.tsv */
	time_t started;
};

/* The options place and shards share: their getopt entries (PLACE_SHARED_OPTIONS, values from
 * PLACE_OPT_HOSTS on; a command's own options from PLACE_OPT_OWN on), read by place_option_shared
 * and checked at the end by place_options_finish. */
enum {
	PLACE_OPT_HOSTS = 256,
	PLACE_OPT_RUN,
	PLACE_OPT_TOKEN_FILE,
	PLACE_OPT_TABLE,
	PLACE_OPT_SCHEDULE,
	PLACE_OPT_QUERIES,
	PLACE_OPT_OUT,
	PLACE_OPT_TIMELINE_INTERVAL,
	PLACE_OPT_CLOCK_BOUND,
	PLACE_OPT_LEASE,
	PLACE_OPT_OWN
};
#define PLACE_SHARED_OPTIONS                                                                       \
	{"hosts", required_argument, NULL, PLACE_OPT_HOSTS},                                       \
	    {"run", required_argument, NULL, PLACE_OPT_RUN},                                       \
	    {"token-file", required_argument, NULL, PLACE_OPT_TOKEN_FILE},                         \
	    {"table", required_argument, NULL, PLACE_OPT_TABLE},                                   \
	    {"schedule", required_argument, NULL, PLACE_OPT_SCHEDULE},                             \
	    {"queries", required_argument, NULL, PLACE_OPT_QUERIES},                               \
	    {"out", required_argument, NULL, PLACE_OPT_OUT},                                       \
	    {"timeline-interval", required_argument, NULL, PLACE_OPT_TIMELINE_INTERVAL},           \
	    {"clock-bound", required_argument, NULL, PLACE_OPT_CLOCK_BOUND},                       \
	{                                                                                          \
		"lease", required_argument, NULL, PLACE_OPT_LEASE                                  \
	}

/* Whether option c is a shared one; if so its argument into o, *ok false when it does not parse
 * (said on stderr). */
bool place_option_shared(struct place_options *o, int c, const char *arg, bool *ok);

/* The end of command's options: no word left and nothing missing (else said, with the usage), the
 * run's id an identifier, the token read. CLI_EXIT_OK or CLI_EXIT_USAGE. */
int place_options_finish(struct place_options *o, const char *command, const char *missing,
                         int argc, char **argv, void (*usage)(FILE *out));

/* One agent's placement: its line, its clock, its plan and answer. */
struct place_row {
	const struct hosts_entry *entry;
	struct clock_offset clock;
	struct plan_call call;
	char *plan_body;
	char allow[INET6_ADDRSTRLEN + 8]; /* --allow-controller's ADDR/32 or ADDR/128, or "" */
	json_t *answer; /* the agent's answer (plan_request's fields, resolver, pid) */
};

/* Every agent's clock within o's bound (and, with o->allow_controller, the address this host
 * sends from toward it), its --host label its line's; else the placement refused naming the host
 * (on stderr, and as an event of log when not NULL). */
bool place_clocks(struct place_row *rows, size_t n, const struct place_options *o,
                  struct events_log *log);

/* addr as ADDR/32 or ADDR/128 (one client of a row's --allow) into out; false when it does not
 * format. */
bool place_allow_of(const struct sockaddr_storage *addr, char *out, size_t size);

/* The placement refused at e's host: "host H (agent A)WHAT: WHY; the placement is refused" on
 * stderr (what: "", ", row R"), and WHY as variant's placement_failed event of log when not
 * NULL. */
void place_refused(struct events_log *log, const struct hosts_entry *e, const char *variant,
                   const char *what, const char *why);

/* Every agent told to withdraw (DELETE /plan: its row or its generator stopped, the agent
 * ended), each said on stderr. */
void place_withdraw(const struct place_row *rows, size_t n, const char *token);

/* argv[0] is "place"; returns the exit status (docs/cli.md). */
int place_main(int argc, char **argv);

void place_usage(FILE *out);

#endif
