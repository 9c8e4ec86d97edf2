/* controller/place.c - allocspike-run place (place.h). */
#include "place.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bearer_token.h"
#include "cli_parse.h"
#include "clock_exchange.h"
#include "events_log.h"
#include "hosts_file.h"
#include "identifier.h"
#include "monotonic.h"
#include "place_ask.h"
#include "place_run.h"
#include "plan_client.h"
#include "variants_table.h"

#ifndef ALLOCSPIKE_VARIANTS_FILE
#define ALLOCSPIKE_VARIANTS_FILE "variants.tsv"
#endif
#define PLACE_CLOCK_EXCHANGES 8
/* --root-hints: a plan is at most 64 KiB; the agent bounds the hints further (16 KiB). */
#define PLACE_ROOT_HINTS_MAX 65536
/* A withdrawal is answered at once; this bounds one that is not. */
#define PLACE_WITHDRAW_TIMEOUT_S 5

void place_usage(FILE *out)
{
	fprintf(out,
	        "usage: allocspike-run place --hosts FILE --run ID --token-file F [options]\n"
	        "                            [-- RESOLVER-OPTION...]\n"
	        "  --hosts FILE         one line per agent: HOST AGENT-ADDR[:PORT] ROW (port\n"
	        "                       default %d; docs/controller.md, \"The hosts file\"); ROW\n"
	        "                       @shard: a generator host, --schedule's generator\n"
	        "  --run ID             the run's id, every agent's run label\n"
	        "  --token-file F       the agents' bearer token (mode 0600 or stricter)\n"
	        "  --table FILE         the variants table the rows are checked against\n"
	        "                       (default %s)\n"
	        "  --interval DUR       the agents' reads (default 100ms)\n"
	        "  --lead DUR           T0 this long after every row is ready (default 3s)\n"
	        "  --ready-timeout DUR  every row ready within this, or the placement fails\n"
	        "                       (default 40s)\n"
	        "  --clock-bound DUR    refuse an agent whose offset is not known within this\n"
	        "                       (half the best round trip; default 5ms)\n"
	        "  --lease DUR          each agent withdraws its plan by itself when no request\n"
	        "                       came from the controller for this long (default: the\n"
	        "                       agent's --lease, 60s unless its host says less)\n"
	        "  --out DIR            the placement as events of DIR/events.jsonl\n"
	        "  --schedule S --queries F  then the run itself (needs --out): the collector\n"
	        "                       and the generator (F's queries on schedule S) from T0,\n"
	        "                       supervised; the agents withdrawn after it; DIR/run.json\n"
	        "  --timeline-interval DUR  the run's timeline interval, the generator's\n"
	        "                       (default 100ms; the agents read at --interval)\n"
	        "  --root-hints FILE    the run's root hints, carried in every row plan (an\n"
	        "                       agent needs no copy; default: each agent's own)\n"
	        "  --rows A,B           place these rows of the hosts file only (default: all)\n"
	        "  --allow-controller   each row also answers this host's address toward its\n"
	        "                       agent (--allow ADDR/32), where the generator sends from,\n"
	        "                       and each generator host's (@shard) agent address\n"
	        "  --in-run             with --schedule: DIR is a scenario's run (spike.sh\n"
	        "                       --hosts), whose controller keeps run.json and\n"
	        "                       processes.tsv: supervise's own go to DIR/place/\n"
	        "  -- RESOLVER-OPTION   the run's resolver options, in every plan (an agent\n"
	        "                       takes its allow-list only: docs/agent.md)\n"
	        "Prints the placement as JSON (each row's host, agent, resolver address, the\n"
	        "clock; t0 for --start-at). Exit: 0 placed, 1 refused or failed (every row\n"
	        "started stopped), 2 usage\n",
	        HOSTS_FILE_AGENT_PORT, ALLOCSPIKE_VARIANTS_FILE);
}

bool place_option_shared(struct place_options *o, int c, const char *arg, bool *ok)
{
	*ok = true;
	switch (c) {
	case PLACE_OPT_HOSTS:
		o->hosts_path = arg;
		return true;
	case PLACE_OPT_RUN:
		o->run = arg;
		return true;
	case PLACE_OPT_TOKEN_FILE:
		o->token_file = arg;
		return true;
	case PLACE_OPT_TABLE:
		o->table_path = arg;
		return true;
	case PLACE_OPT_SCHEDULE:
		o->schedule = arg;
		return true;
	case PLACE_OPT_QUERIES:
		o->queries = arg;
		return true;
	case PLACE_OPT_OUT:
		o->out = arg;
		return true;
	case PLACE_OPT_TIMELINE_INTERVAL: /* the generator's range */
		*ok = cli_option_duration("--timeline-interval", arg, CLI_UNIT_REQUIRED, 0.01, 60,
		                          &o->timeline_s);
		return true;
	case PLACE_OPT_CLOCK_BOUND:
		*ok = cli_option_duration("--clock-bound", arg, CLI_UNIT_REQUIRED, 0, 60,
		                          &o->clock_bound_s);
		return true;
	case PLACE_OPT_LEASE: /* the agents' range (agent/plan_request.h) */
		*ok = cli_option_duration("--lease", arg, CLI_UNIT_REQUIRED, 1, 86400 * 30,
		                          &o->lease_s);
		return true;
	default:
		return false;
	}
}

int place_options_finish(struct place_options *o, const char *command, const char *missing,
                         int argc, char **argv, void (*usage)(FILE *out))
{
	if (optind < argc || missing) {
		if (optind < argc)
			fprintf(stderr, "allocspike-run %s: unexpected argument '%s'\n", command,
			        argv[optind]);
		else
			fprintf(stderr, "allocspike-run %s: %s is required\n", command, missing);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	char why[160], err[512];
	if (!identifier_valid(o->run, why, sizeof(why))) {
		fprintf(stderr, "allocspike-run %s: --run: the id %s\n", command, why);
		return CLI_EXIT_USAGE;
	}
	if (!bearer_token_load(o->token_file, o->token, sizeof(o->token), err, sizeof(err))) {
		fprintf(stderr, "allocspike-run %s: --token-file %s\n", command, err);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* Options into o; CLI_EXIT_OK to go on, -1 after --help, or the exit status. */
static int place_parse(struct place_options *o, int argc, char **argv)
{
	enum {
		OPT_INTERVAL = PLACE_OPT_OWN,
		OPT_LEAD,
		OPT_READY_TIMEOUT,
		OPT_ALLOW_CONTROLLER,
		OPT_ROOT_HINTS,
		OPT_IN_RUN,
		OPT_ROWS,
		OPT_HELP
	};
	static const struct option opts[] = {
	    PLACE_SHARED_OPTIONS,
	    {"interval", required_argument, NULL, OPT_INTERVAL},
	    {"lead", required_argument, NULL, OPT_LEAD},
	    {"ready-timeout", required_argument, NULL, OPT_READY_TIMEOUT},
	    {"allow-controller", no_argument, NULL, OPT_ALLOW_CONTROLLER},
	    {"root-hints", required_argument, NULL, OPT_ROOT_HINTS},
	    {"in-run", no_argument, NULL, OPT_IN_RUN},
	    {"rows", required_argument, NULL, OPT_ROWS},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		bool ok = true;
		if (place_option_shared(o, c, optarg, &ok)) {
			if (!ok)
				return CLI_EXIT_USAGE;
			continue;
		}
		switch (c) {
		case OPT_INTERVAL:
			ok = cli_option_duration("--interval", optarg, CLI_UNIT_REQUIRED, 0.01, 60,
			                         &o->interval_s);
			break;
		case OPT_LEAD:
			ok = cli_option_duration("--lead", optarg, CLI_UNIT_REQUIRED, 0, 3600,
			                         &o->lead_s);
			break;
		case OPT_READY_TIMEOUT:
			ok = cli_option_duration("--ready-timeout", optarg, CLI_UNIT_REQUIRED, 1,
			                         3600, &o->ready_timeout_s);
			break;
		case OPT_ALLOW_CONTROLLER:
			o->allow_controller = true;
			break;
		case OPT_ROOT_HINTS:
			o->root_hints_path = optarg;
			break;
		case OPT_IN_RUN:
			o->in_run = true;
			break;
		case OPT_ROWS:
			o->rows = optarg;
			break;
		case OPT_HELP:
			place_usage(stdout);
			return -1;
		default:
			place_usage(stderr);
			return CLI_EXIT_USAGE;
		}
		if (!ok)
			return CLI_EXIT_USAGE;
	}
	if (optind > 1 && strcmp(argv[optind - 1], "--") == 0) {
		o->resolver_options = argv + optind;
		o->n_resolver_options = (size_t)(argc - optind);
		optind = argc;
	}
	bool running = o->schedule || o->queries;
	const char *missing = !o->hosts_path            ? "--hosts"
	                      : !o->run                 ? "--run"
	                      : !o->token_file          ? "--token-file"
	                      : running && !o->schedule ? "--schedule (with --queries)"
	                      : running && !o->queries  ? "--queries (with --schedule)"
	                      : running && !o->out      ? "--out (with --schedule)"
	                                                : NULL;
	return place_options_finish(o, "place", missing, argc, argv, place_usage);
}

/* --root-hints FILE's text into o->root_hints (read whole now: the hierarchy wrote it before the
 * placement); false, said on stderr, when it cannot be read or is over PLACE_ROOT_HINTS_MAX. */
static bool place_root_hints_read(struct place_options *o)
{
	FILE *f = fopen(o->root_hints_path, "r");
	char *text = f ? malloc(PLACE_ROOT_HINTS_MAX + 1) : NULL;
	size_t len = text ? fread(text, 1, PLACE_ROOT_HINTS_MAX + 1, f) : 0;
	const char *why = !f                           ? strerror(errno)
	                  : !text                      ? "out of memory"
	                  : ferror(f)                  ? "cannot be read"
	                  : len > PLACE_ROOT_HINTS_MAX ? "over 64 KiB: no root hints"
	                                               : NULL;
	if (f)
		fclose(f);
	if (why) {
		fprintf(stderr, "allocspike-run place: --root-hints %s: %s\n", o->root_hints_path,
		        why);
		free(text);
		return false;
	}
	text[len] = '\0';
	o->root_hints = text;
	return true;
}

bool place_allow_of(const struct sockaddr_storage *addr, char *out, size_t size)
{
	char text[INET6_ADDRSTRLEN];
	bool v4 = addr->ss_family == AF_INET;
	const void *bytes = v4 ? (const void *)&((const struct sockaddr_in *)addr)->sin_addr
	                       : (const void *)&((const struct sockaddr_in6 *)addr)->sin6_addr;
	if (!inet_ntop(v4 ? AF_INET : AF_INET6, bytes, text, sizeof(text)))
		return false;
	snprintf(out, size, "%s/%d", text, v4 ? 32 : 128);
	return true;
}

/* The plan each agent is sent (docs/agent.md, "Taking the row from a controller"). */
static char *place_plan_body(const struct place_options *o, const struct place_row *r)
{
	const char *row = r->entry->row;
	char interval[32];
	snprintf(interval, sizeof(interval), "%.3fms", o->interval_s * 1000);
	json_t *words = json_array();
	for (size_t i = 0; words && i < o->n_resolver_options; i++)
		json_array_append_new(words, json_string(o->resolver_options[i]));
	if (words && r->allow[0]) {
		json_array_append_new(words, json_string("--allow"));
		json_array_append_new(words, json_string(r->allow));
	}
	/* the generator hosts send the queries then, each from any address it has (its agent's,
	 * and the others its GET /sources named: the route toward the row chooses) */
	size_t k;
	json_t *shard;
	json_array_foreach(r->allow[0] ? o->shard_allow : NULL, k, shard)
	{
		json_array_append_new(words, json_string("--allow"));
		json_array_append_new(words, json_incref(shard));
	}
	json_t *plan = json_pack("{s:s, s:s, s:s, s:s, s:o}", "row", row, "run", o->run, "variant",
	                         row, "interval", interval, "resolver_options", words);
	char lease[32];
	snprintf(lease, sizeof(lease), "%.3fms", o->lease_s * 1000);
	if (plan && o->lease_s > 0) /* else the agent's own --lease */
		json_object_set_new(plan, "lease", json_string(lease));
	if (plan && o->root_hints) /* else the agent's own --root-hints */
		json_object_set_new(plan, "root_hints", json_string(o->root_hints));
	char *text = plan ? json_dumps(plan, JSON_COMPACT) : NULL;
	json_decref(plan);
	return text;
}

static void place_event(struct events_log *log, const char *variant, const char *event,
                        json_t *extra)
{
	if (log)
		events_log_add(log, variant, event, extra);
	else
		json_decref(extra);
}

void place_refused(struct events_log *log, const struct hosts_entry *e, const char *variant,
                   const char *what, const char *why)
{
	fprintf(stderr,
	        "allocspike-run place: host %s (agent %s)%s: %s; the placement is refused\n",
	        e->host, e->addr_text, what, why);
	place_event(
	    log, variant, "placement_failed",
	    json_pack("{s:s, s:s, s:s}", "host", e->host, "agent", e->addr_text, "reason", why));
}

/* The address this host sends from toward the agent (the route's, as the generator's queries
 * will), as ADDR/32 or ADDR/128 into r->allow; false with the reason in err. */
static bool place_allow_controller(struct place_row *r, char *err, size_t err_size)
{
	const struct sockaddr *to = (const struct sockaddr *)&r->entry->addr;
	struct sockaddr_storage from;
	socklen_t len = sizeof(from);
	int fd = socket(to->sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	/* a UDP connect sends nothing: it only chooses the route and the source address */
	bool ok = fd >= 0 && connect(fd, to, r->entry->addr_len) == 0 &&
	          getsockname(fd, (struct sockaddr *)&from, &len) == 0 &&
	          place_allow_of(&from, r->allow, sizeof(r->allow));
	if (!ok)
		snprintf(err, err_size, "no route to it from this host: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	return ok;
}

bool place_clocks(struct place_row *rows, size_t n, const struct place_options *o,
                  struct events_log *log)
{
	for (size_t i = 0; i < n; i++) {
		const struct hosts_entry *e = rows[i].entry;
		char err[512];
		bool ok =
		    (!o->allow_controller || place_allow_controller(&rows[i], err, sizeof(err))) &&
		    clock_measure((const struct sockaddr *)&e->addr, e->addr_len,
		                  PLACE_CLOCK_EXCHANGES, o->token, &rows[i].clock, err,
		                  sizeof(err)) &&
		    clock_offset_within(&rows[i].clock, o->clock_bound_s * 1000, err, sizeof(err));
		/* the report names each row's host by its agent's label: a line whose address is
		 * another host's agent would put the row on the wrong host */
		if (ok && rows[i].clock.host[0] && strcmp(rows[i].clock.host, e->host) != 0) {
			snprintf(err, sizeof(err),
			         "the agent there names its host %s (its --host), not %s",
			         rows[i].clock.host, e->host);
			ok = false;
		}
		if (!ok) {
			place_refused(log, e, "_controller", "", err);
			return false;
		}
	}
	return true;
}

/* Whether call's answer is the row started as asked, kept in row->answer; the reason in err. */
static bool place_answer_ok(struct place_row *row, char *err, size_t err_size)
{
	const struct plan_call *c = &row->call;
	if (c->status == 0) {
		snprintf(err, err_size, "%s", c->error);
		return false;
	}
	if (c->status != 200) {
		snprintf(err, err_size, "plan refused (HTTP %d): %s", c->status,
		         c->answer ? c->answer : "");
		return false;
	}
	row->answer = json_loads(c->answer ? c->answer : "", 0, NULL);
	const char *got = json_string_value(json_object_get(row->answer, "row"));
	if (!got || strcmp(got, row->entry->row) != 0 ||
	    !json_string_value(json_object_get(row->answer, "resolver"))) {
		snprintf(err, err_size, "its answer is not the row started: %.200s",
		         c->answer ? c->answer : "");
		return false;
	}
	return true;
}

/* The placement recorded once every row is ready, T0 = now + lead; returned (NULL: out of
 * memory). */
static json_t *place_report(struct place_row *rows, size_t n, const struct place_options *o,
                            struct events_log *log)
{
	uint64_t t0_ns = realtime_ns() + (uint64_t)(o->lead_s * 1e9);
	char t0[48];
	snprintf(t0, sizeof(t0), "%" PRIu64 ".%09" PRIu64, t0_ns / 1000000000u,
	         t0_ns % 1000000000u);
	/* the placement's events on the schedule's clock: t_s 0 is T0, where the generator starts
	 */
	if (log)
		log->t0_ns = t0_ns;
	json_t *list = json_array();
	for (size_t i = 0; list && i < n; i++) {
		const struct hosts_entry *e = rows[i].entry;
		json_t *r = json_pack("{s:s, s:s, s:s, s:O, s:O, s:O?, s:f, s:f}", "row", e->row,
		                      "host", e->host, "agent", e->addr_text, "resolver",
		                      json_object_get(rows[i].answer, "resolver"), "pid",
		                      json_object_get(rows[i].answer, "pid"), "lease_s",
		                      json_object_get(rows[i].answer, "lease_s"), "offset_ms",
		                      rows[i].clock.offset_ms, "rtt_ms", rows[i].clock.rtt_ms);
		json_array_append(list, r);
		place_event(log, e->row, "placed", r);
	}
	json_t *out = json_pack("{s:s, s:s, s:I, s:f, s:o}", "run", o->run, "t0", t0, "t0_ns",
	                        (json_int_t)t0_ns, "lead_s", o->lead_s, "rows", list);
	place_event(log, "_controller", "placement",
	            json_pack("{s:s, s:s, s:I, s:i}", "run", o->run, "t0", t0, "t0_ns",
	                      (json_int_t)t0_ns, "rows", (int)n));
	if (!out)
		fprintf(stderr, "allocspike-run place: out of memory\n");
	return out;
}

void place_withdraw(const struct place_row *rows, size_t n, const char *token)
{
	struct plan_call *calls = calloc(n, sizeof(*calls));
	if (!calls)
		return;
	for (size_t i = 0; i < n; i++)
		calls[i] = (struct plan_call){.addr = (const struct sockaddr *)&rows[i].entry->addr,
		                              .addr_text = rows[i].entry->addr_text};
	plan_client_call_all(calls, n, token, PLACE_WITHDRAW_TIMEOUT_S);
	for (size_t i = 0; i < n; i++) {
		fprintf(stderr, "allocspike-run place: host %s (agent %s): %s\n",
		        rows[i].entry->host, rows[i].entry->addr_text,
		        calls[i].status != 200 ? "could not be told to withdraw"
		        : rows[i].entry->row[0]
		            ? "withdrawn, its row stopped"
		            : "withdrawn (its generator stopped if it still ran)");
		plan_call_free(&calls[i]);
	}
	free(calls);
}

/* Plans to every agent at once; the barrier: every answer a started row, or every agent told to
 * withdraw. */
static bool place_rows(struct place_row *rows, size_t n, const struct place_options *o,
                       struct events_log *log)
{
	struct plan_call *calls = calloc(n, sizeof(*calls));
	bool ok = calls != NULL;
	for (size_t i = 0; ok && i < n; i++) {
		ok = (rows[i].plan_body = place_plan_body(o, &rows[i])) != NULL;
		calls[i] = (struct plan_call){.addr = (const struct sockaddr *)&rows[i].entry->addr,
		                              .addr_text = rows[i].entry->addr_text,
		                              .body = rows[i].plan_body};
	}
	ok = ok && plan_client_call_all(calls, n, o->token, o->ready_timeout_s);
	if (!ok)
		fprintf(stderr, "allocspike-run place: out of memory, or libevent failed\n");
	for (size_t i = 0; ok && i < n; i++)
		rows[i].call = calls[i];
	bool all_ready = ok;
	for (size_t i = 0; ok && i < n; i++) {
		char err[768];
		if (place_answer_ok(&rows[i], err, sizeof(err)))
			continue;
		all_ready = false;
		fprintf(stderr, "allocspike-run place: host %s (agent %s), row %s: %s\n",
		        rows[i].entry->host, rows[i].entry->addr_text, rows[i].entry->row, err);
		place_event(log, rows[i].entry->row, "placement_failed",
		            json_pack("{s:s, s:s, s:s}", "host", rows[i].entry->host, "agent",
		                      rows[i].entry->addr_text, "reason", err));
	}
	if (ok && !all_ready) {
		/* one host failing fails them all: every agent withdraws, its row stopped */
		place_withdraw(rows, n, o->token);
		fprintf(stderr, "allocspike-run place: the placement failed\n");
	}
	free(calls);
	return ok && all_ready;
}

int place_main(int argc, char **argv)
{
	struct place_options o = {.table_path = ALLOCSPIKE_VARIANTS_FILE,
	                          .started = time(NULL),
	                          .interval_s = 0.1,
	                          .timeline_s = 0.1,
	                          .lead_s = 3,
	                          .ready_timeout_s = 40,
	                          .clock_bound_s = 0.005};
	int rc = place_parse(&o, argc, argv);
	if (rc != CLI_EXIT_OK)
		return rc < 0 ? CLI_EXIT_OK : rc;
	if (o.root_hints_path && !place_root_hints_read(&o))
		return CLI_EXIT_USAGE;
	struct variants_table table;
	struct hosts_file hosts;
	char err[4400];
	if (!variants_table_read(&table, o.table_path, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run place: %s\n", err);
		free(o.root_hints);
		return CLI_EXIT_USAGE;
	}
	bool read =
	    hosts_file_read(&hosts, o.hosts_path, &table, HOSTS_FILE_AGENT_PORT, err, sizeof(err));
	variants_table_free(&table);
	if (read && o.rows && !hosts_file_keep_rows(&hosts, o.rows, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run place: --rows %s: %s\n", o.rows, err);
		hosts_file_free(&hosts);
		free(o.root_hints);
		return CLI_EXIT_USAGE;
	}
	if (!read) {
		fprintf(stderr, "allocspike-run place: %s\n", err);
		free(o.root_hints);
		return CLI_EXIT_USAGE;
	}
	struct events_log log = {.t0_ns = realtime_ns()};
	bool logging = o.out && runfolder_writer_open(&log.writer, o.out, err, sizeof(err));
	if (o.out && !logging) {
		fprintf(stderr, "allocspike-run place: %s\n", err);
		hosts_file_free(&hosts);
		free(o.root_hints);
		return CLI_EXIT_FAILED;
	}
	o.n_shards = hosts.n_shards; /* left to --schedule's shards (allocspike-run shards) */
	o.shards = hosts.shards;
	struct place_row *rows = calloc(hosts.count, sizeof(*rows));
	for (size_t i = 0; rows && i < hosts.count; i++)
		rows[i].entry = &hosts.entries[i];
	struct events_log *events = logging ? &log : NULL;
	json_t *placement = NULL;
	bool ok = rows && place_clocks(rows, hosts.count, &o, events) &&
	          place_ask_rows(rows, hosts.count, &o, events) &&
	          (!o.allow_controller || place_ask_sources(&o, events)) &&
	          place_rows(rows, hosts.count, &o, events) &&
	          (placement = place_report(rows, hosts.count, &o, events)) != NULL;
	char *text = placement ? json_dumps(placement, JSON_INDENT(2)) : NULL;
	if (text)
		printf("%s\n", text);
	fflush(stdout);
	free(text);
	if (logging && !runfolder_writer_close(&log.writer)) {
		fprintf(stderr, "allocspike-run place: %s\n",
		        runfolder_writer_failure(&log.writer));
		ok = false;
	}
	int status = ok ? CLI_EXIT_OK : CLI_EXIT_FAILED;
	if (ok && o.schedule) { /* the run itself, then the agents withdrawn whatever it did */
		status = place_run_schedule(&o, placement, rows, hosts.count);
		place_withdraw(rows, hosts.count, o.token);
		if (!o.in_run && !place_run_record(&o, placement, rows, hosts.count, status))
			status = CLI_EXIT_FAILED;
	}
	json_decref(placement);
	for (size_t i = 0; rows && i < hosts.count; i++) {
		free(rows[i].plan_body);
		plan_call_free(&rows[i].call);
		json_decref(rows[i].answer);
	}
	free(rows);
	hosts_file_free(&hosts);
	free(o.root_hints);
	json_decref(o.shard_allow);
	return status;
}
