/* controller/shards.c - allocspike-run shards (shards.h). */
#include "shards.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "child_run.h"
#include "cli_parse.h"
#include "events_log.h"
#include "identifier.h"
#include "json_file.h"
#include "place.h"
#include "run_outdir.h"
#include "runfolder_reader.h"
#include "shard_queries.h"
#include "variant_command.h"
#include "variants_plan.h"

/* A shard plan is answered as soon as its generator is forked. */
#define SHARDS_PLAN_TIMEOUT_S 10
/* How often every shard's agent is asked how its generator is doing: often enough to fail a run
 * soon after a shard died, and each ask is a request that keeps the agent's lease. */
#define SHARDS_WATCH_EVERY_MS 250
/* An agent that has not answered one ask in this long is taken for gone. */
#define SHARDS_ASK_TIMEOUT_S 5
/* Every shard starts at T0 on its own host's clock: merge takes shards of one start instant,
 * and its timeline one clock. A generator host whose clock is further off than this from the
 * controller's (not synchronised) is refused. */
#define SHARDS_MAX_OFFSET_MS 20.0
/* The query file to every generator host at once: the default file (24.8 MB) took 0.35 s over
 * loopback; a slow link's tens of MB within this. */
#define SHARDS_QUERIES_TIMEOUT_S 120
/* A fragment's file: a few MB at most for hours of timeline. */
#define SHARDS_FETCH_TIMEOUT_S 60

struct shards_options {
	struct place_options place; /* the hosts file, table, run, token, clock bound, lease */
	const char *start_at, *merge_out;
	bool merge_into; /* merge_out is a run folder the merge adds to (place --schedule's) */
	char queries[PATH_MAX];    /* --queries made absolute */
	struct shard_queries sent; /* that file, sent to every agent; the plans name its digest */
	uint64_t t0_ns;
	json_t *targets; /* [{"name", "addr"}] */
	/* with merge_into, the run folder's events, where a failing shard is recorded for the
	 * scenario's failure to name its host; else NULL */
	struct events_log *events;
};

static volatile sig_atomic_t shards_signalled;

static void shards_on_signal(int sig)
{
	shards_signalled = sig;
}

void shards_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: allocspike-run shards --hosts FILE --run ID --token-file F --schedule S\n"
	    "                             --queries F --start-at T0 --target ROW=ADDR:PORT...\n"
	    "                             --out DIR [options]\n"
	    "  --hosts FILE         its generator hosts: HOST AGENT-ADDR[:PORT] @shard lines\n"
	    "                       (N lines, N shards; docs/controller.md, \"The hosts file\")\n"
	    "  --target ROW=ADDR    a row the shards send to, where it serves DNS (repeat)\n"
	    "  --start-at T0        the schedule's start on this host's clock (place's t0);\n"
	    "                       each agent is told it on its own clock\n"
	    "  --queries F          the query file, sent to every generator host's agent\n"
	    "                       (PUT /queries) before the plans, which name its SHA-256\n"
	    "  --out DIR            each shard's fragment fetched into DIR/shard-I\n"
	    "  --merge-out DIR      the shards merged into this run folder (default\n"
	    "                       OUT/merged; allocspike-report merge)\n"
	    "  --merge-into DIR     merged into DIR, a run folder with no generator's files\n"
	    "                       yet (place --schedule's; merge --into)\n"
	    "  --table FILE, --timeline-interval DUR, --clock-bound DUR, --lease DUR: as\n"
	    "                       place's\n"
	    "Exit: 0 every shard completed and merged, 1 a shard failed or its agent went\n"
	    "(its host named), 2 usage, 130 interrupted\n");
}

/* --target ROW=ADDR into o->targets. */
static bool shards_target(struct shards_options *o, const char *text)
{
	const char *addr;
	char name[IDENTIFIER_MAX_LEN + 1], why[200];
	if (!identifier_assignment(text, name, &addr, why, sizeof(why))) {
		fprintf(stderr, "allocspike-run shards: --target '%s': %s (ROW=ADDR:PORT)\n", text,
		        why);
		return false;
	}
	return json_array_append_new(o->targets,
	                             json_pack("{s:s, s:s}", "name", name, "addr", addr)) == 0;
}

/* Options into o; CLI_EXIT_OK to go on, -1 after --help, or the exit status. */
static int shards_parse(struct shards_options *o, int argc, char **argv)
{
	enum { OPT_START_AT = PLACE_OPT_OWN, OPT_TARGET, OPT_MERGE_OUT, OPT_MERGE_INTO, OPT_HELP };
	static const struct option opts[] = {
	    PLACE_SHARED_OPTIONS,
	    {"start-at", required_argument, NULL, OPT_START_AT},
	    {"target", required_argument, NULL, OPT_TARGET},
	    {"merge-out", required_argument, NULL, OPT_MERGE_OUT},
	    {"merge-into", required_argument, NULL, OPT_MERGE_INTO},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	struct place_options *p = &o->place;
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		bool ok = true;
		if (place_option_shared(p, c, optarg, &ok)) {
			if (!ok)
				return CLI_EXIT_USAGE;
			continue;
		}
		switch (c) {
		case OPT_START_AT:
			o->start_at = optarg;
			ok = cli_option_epoch("--start-at", optarg, &o->t0_ns);
			break;
		case OPT_TARGET:
			ok = shards_target(o, optarg);
			break;
		case OPT_MERGE_OUT:
		case OPT_MERGE_INTO:
			o->merge_out = optarg;
			o->merge_into = c == OPT_MERGE_INTO;
			break;
		case OPT_HELP:
			shards_usage(stdout);
			return -1;
		default:
			shards_usage(stderr);
			return CLI_EXIT_USAGE;
		}
		if (!ok)
			return CLI_EXIT_USAGE;
	}
	const char *missing = !p->hosts_path                     ? "--hosts"
	                      : !p->run                          ? "--run"
	                      : !p->token_file                   ? "--token-file"
	                      : !p->schedule                     ? "--schedule"
	                      : !p->queries                      ? "--queries"
	                      : !o->start_at                     ? "--start-at"
	                      : json_array_size(o->targets) == 0 ? "--target"
	                      : !p->out                          ? "--out"
	                                                         : NULL;
	int rc = place_options_finish(p, "shards", missing, argc, argv, shards_usage);
	if (rc == CLI_EXIT_OK && !realpath(p->queries, o->queries)) {
		fprintf(stderr, "allocspike-run shards: --queries %s: %s\n", p->queries,
		        strerror(errno));
		rc = CLI_EXIT_USAGE;
	}
	return rc;
}

/* Shard i's plan (docs/agent.md, "A generator shard"). */
static char *shards_plan_body(const struct shards_options *o, size_t i, size_t n)
{
	char shard[48], interval[32], lease[32];
	snprintf(shard, sizeof(shard), "%zu/%zu", i + 1, n);
	snprintf(interval, sizeof(interval), "%.3fms", o->place.timeline_s * 1000);
	json_t *plan = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:O}", "kind", "shard", "run",
	                         o->place.run, "shard", shard, "schedule", o->place.schedule,
	                         "queries", o->sent.named, "start_at", o->start_at, "interval",
	                         interval, "targets", o->targets);
	snprintf(lease, sizeof(lease), "%.3fms", o->place.lease_s * 1000);
	if (plan && o->place.lease_s > 0) /* else the agent's own --lease */
		json_object_set_new(plan, "lease", json_string(lease));
	char *text = plan ? json_dumps(plan, JSON_COMPACT) : NULL;
	json_decref(plan);
	return text;
}

static void shards_fail(const struct shards_options *o, const struct place_row *r, size_t i,
                        size_t n, const char *why)
{
	fprintf(stderr, "allocspike-run shards: host %s (agent %s), shard %zu/%zu: %s\n",
	        r->entry->host, r->entry->addr_text, i + 1, n, why);
	char variant[32], shard[48];
	snprintf(variant, sizeof(variant), "_loadgen_%zu", i + 1); /* its row once merged */
	snprintf(shard, sizeof(shard), "%zu/%zu", i + 1, n);
	if (o->events)
		events_log_add(o->events, variant, "shard_failed",
		               json_pack("{s:s, s:s, s:s, s:s}", "host", r->entry->host, "agent",
		                         r->entry->addr_text, "shard", shard, "reason", why));
}

/* Every generator host's clock within SHARDS_MAX_OFFSET_MS of ours, or the host named. */
static bool shards_clocks_agree(const struct shards_options *o, const struct place_row *rows,
                                size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (fabs(rows[i].clock.offset_ms) <= SHARDS_MAX_OFFSET_MS)
			continue;
		char why[256];
		snprintf(
		    why, sizeof(why),
		    "its clock is %.3f ms off this host's, over %g ms: every shard starts at T0 "
		    "on its own clock (synchronise the clocks)",
		    rows[i].clock.offset_ms, SHARDS_MAX_OFFSET_MS);
		shards_fail(o, &rows[i], i, n, why);
		return false;
	}
	return true;
}

/* The query file to every shard's agent at once (PUT /queries), each checking it against its
 * digest; false (each failure named) unless every agent kept it. */
static bool shards_send_queries(struct shards_options *o, const struct place_row *rows, size_t n)
{
	char err[4400];
	if (!shard_queries_open(&o->sent, o->queries, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run shards: %s\n", err);
		return false;
	}
	struct plan_call *calls = calloc(n, sizeof(*calls));
	for (size_t i = 0; calls && i < n; i++)
		calls[i] = (struct plan_call){.addr = (const struct sockaddr *)&rows[i].entry->addr,
		                              .addr_text = rows[i].entry->addr_text,
		                              .path = "/queries",
		                              .put = true,
		                              .body = o->sent.data ? o->sent.data : "",
		                              .body_len = o->sent.len,
		                              .sha256 = o->sent.sha256};
	bool all =
	    calls && plan_client_call_all(calls, n, o->place.token, SHARDS_QUERIES_TIMEOUT_S);
	if (!all)
		fprintf(stderr, "allocspike-run shards: out of memory, or libevent failed\n");
	for (size_t i = 0; calls && i < n; i++) {
		char why[768];
		int status = calls[i].status;
		if (status == 200 || status == 201) {
			plan_call_free(&calls[i]);
			continue;
		}
		if (status == 0)
			snprintf(why, sizeof(why), "the query file could not be sent: %s",
			         calls[i].error);
		else
			snprintf(why, sizeof(why),
			         "the query file (%zu bytes) refused (HTTP %d): %.500s",
			         o->sent.len, status, calls[i].answer ? calls[i].answer : "");
		shards_fail(o, &rows[i], i, n, why);
		plan_call_free(&calls[i]);
		all = false;
	}
	free(calls);
	if (all)
		fprintf(stderr,
		        "allocspike-run shards: the query file (%zu bytes, sha256 %s) sent to %zu "
		        "generator hosts\n",
		        o->sent.len, o->sent.sha256, n);
	return all;
}

/* Every shard's plan sent at once; false (each failure named) unless every agent answered that
 * its generator runs. */
static bool shards_start(const struct shards_options *o, struct place_row *rows, size_t n)
{
	struct plan_call *calls = calloc(n, sizeof(*calls));
	bool ok = calls != NULL;
	for (size_t i = 0; ok && i < n; i++) {
		ok = (rows[i].plan_body = shards_plan_body(o, i, n)) != NULL;
		calls[i] = (struct plan_call){.addr = (const struct sockaddr *)&rows[i].entry->addr,
		                              .addr_text = rows[i].entry->addr_text,
		                              .body = rows[i].plan_body};
	}
	ok = ok && plan_client_call_all(calls, n, o->place.token, SHARDS_PLAN_TIMEOUT_S);
	if (!ok)
		fprintf(stderr, "allocspike-run shards: out of memory, or libevent failed\n");
	bool all = ok;
	for (size_t i = 0; ok && i < n; i++) {
		char why[768];
		rows[i].call = calls[i];
		json_t *answer = json_loads(calls[i].answer ? calls[i].answer : "", 0, NULL);
		const char *kind = json_string_value(json_object_get(answer, "kind"));
		if (calls[i].status == 200 && kind && strcmp(kind, "shard") == 0) {
			rows[i].answer = answer;
			continue;
		}
		json_decref(answer);
		if (calls[i].status == 0)
			snprintf(why, sizeof(why), "%s", calls[i].error);
		else
			snprintf(why, sizeof(why), "plan refused (HTTP %d): %s", calls[i].status,
			         calls[i].answer ? calls[i].answer : "");
		shards_fail(o, &rows[i], i, n, why);
		all = false;
	}
	free(calls);
	return all;
}

/* Whether shard i's agent says its generator ended well (*done), still runs, or failed: false
 * with the reason in why (no answer: its agent is gone; a generator that exited non-zero or was
 * killed). */
static bool shards_judge(const struct plan_call *c, bool *done, char *why, size_t why_size)
{
	*done = false;
	if (c->status == 0) {
		snprintf(why, why_size, "its agent is gone (%s)", c->error);
		return false;
	}
	json_t *a = c->status == 200 ? json_loads(c->answer ? c->answer : "", 0, NULL) : NULL;
	const char *state = json_string_value(json_object_get(a, "state"));
	json_t *code = json_object_get(a, "exit_code");
	bool running = state && strcmp(state, "running") == 0;
	bool ok = false;
	if (!state)
		snprintf(why, why_size, "GET /plan answered HTTP %d: %.200s", c->status,
		         c->answer ? c->answer : "");
	else if (!running && !code)
		snprintf(why, why_size, "its generator was killed (signal %d)",
		         (int)json_integer_value(json_object_get(a, "signal")));
	else if (!running && json_integer_value(code) != 0)
		snprintf(why, why_size, "its generator exited with status %d",
		         (int)json_integer_value(code));
	else
		ok = true;
	*done = ok && !running;
	json_decref(a);
	return ok;
}

/* Asks every shard's agent until every generator ended; false at the first that failed (named),
 * or at a signal (*signalled). */
static bool shards_watch(const struct shards_options *o, const struct place_row *rows, size_t n,
                         int *signalled)
{
	struct plan_call *calls = calloc(n, sizeof(*calls));
	bool ok = calls != NULL, running = true;
	while (ok && running) {
		struct timespec pause = {0, SHARDS_WATCH_EVERY_MS * 1000000L};
		nanosleep(&pause, NULL);
		if ((*signalled = shards_signalled))
			break;
		for (size_t i = 0; i < n; i++)
			calls[i] = (struct plan_call){
			    .addr = (const struct sockaddr *)&rows[i].entry->addr,
			    .addr_text = rows[i].entry->addr_text,
			    .get = true};
		ok = plan_client_call_all(calls, n, o->place.token, SHARDS_ASK_TIMEOUT_S);
		running = false;
		for (size_t i = 0; ok && i < n; i++) {
			char why[512];
			bool done = false;
			if (!(ok = shards_judge(&calls[i], &done, why, sizeof(why))))
				shards_fail(o, &rows[i], i, n, why);
			running = running || !done;
		}
		for (size_t i = 0; i < n; i++)
			plan_call_free(&calls[i]);
	}
	free(calls);
	return ok && !*signalled;
}

/* Every shard's fragment into OUT/shard-I, each file over its agent's GET /fragment; a file the
 * fragment has not (interval_hist.csv of a shard that received no answer) left out for merge to
 * judge. */
static bool shards_fetch(const struct shards_options *o, const struct place_row *rows, size_t n)
{
	bool ok = true;
	for (size_t i = 0; ok && i < n; i++) {
		char dir[4200], path[4400], request[128], err[4600];
		snprintf(dir, sizeof(dir), "%s/shard-%zu", o->place.out, i + 1);
		if (!run_outdir_make(dir, err, sizeof(err))) {
			fprintf(stderr, "allocspike-run shards: %s\n", err);
			return false;
		}
		for (const char *const *f = runfolder_fragment_files; ok && *f; f++) {
			snprintf(request, sizeof(request), "/fragment?file=%s", *f);
			struct plan_call call = {.addr =
			                             (const struct sockaddr *)&rows[i].entry->addr,
			                         .addr_text = rows[i].entry->addr_text,
			                         .get = true,
			                         .path = request};
			ok = plan_client_call_all(&call, 1, o->place.token, SHARDS_FETCH_TIMEOUT_S);
			snprintf(path, sizeof(path), "%s/%s", dir, *f);
			if (ok && call.status == 200)
				ok = text_file_write_atomic(path, call.answer, err, sizeof(err));
			else if (ok && call.status != 404) {
				snprintf(err, sizeof(err),
				         "its fragment's %s could not be fetched (%s)", *f,
				         call.status ? "an HTTP error" : call.error);
				shards_fail(o, &rows[i], i, n, err);
				ok = false;
			}
			if (!ok && call.status == 200)
				fprintf(stderr, "allocspike-run shards: %s\n", err);
			plan_call_free(&call);
		}
	}
	return ok;
}

/* allocspike-report merge of OUT/shard-1..N into the merged run folder. */
static bool shards_merge(const struct shards_options *o, size_t n)
{
	char bin_dir[4096], report[4200], merged[4200];
	if (!variant_command_bin_dir(bin_dir, sizeof(bin_dir)))
		return false;
	snprintf(report, sizeof(report), "%s/allocspike-report", bin_dir);
	snprintf(merged, sizeof(merged), "%s/merged", o->place.out);
	char **argv = calloc(n + 5, sizeof(char *));
	bool ok = argv != NULL;
	size_t k = 0;
	if (ok) {
		argv[k++] = report;
		argv[k++] = "merge";
		argv[k++] = o->merge_into ? "--into" : "--out";
		argv[k++] = (char *)(o->merge_out ? o->merge_out : merged);
	}
	for (size_t i = 0; ok && i < n; i++)
		ok = asprintf(&argv[k++], "%s/shard-%zu", o->place.out, i + 1) > 0;
	int signalled = 0;
	ok = ok && child_run(argv, "allocspike-report", &signalled) == 0;
	for (size_t i = 4; argv && i < k; i++)
		free(argv[i]);
	free(argv);
	if (!ok)
		fprintf(stderr, "allocspike-run shards: the shards' fragments did not merge\n");
	return ok;
}

/* The shards of the hosts file, from their clocks to the merged run; the exit status. */
static int shards_run(struct shards_options *o, const struct hosts_file *hosts)
{
	size_t n = hosts->n_shards;
	struct place_row *rows = calloc(n, sizeof(*rows));
	for (size_t i = 0; rows && i < n; i++)
		rows[i].entry = &hosts->shards[i];
	struct events_log log = {.t0_ns = o->t0_ns}; /* t_s from T0, as the merged events' */
	char err[4400];
	if (o->merge_into && runfolder_writer_open(&log.writer, o->merge_out, err, sizeof(err)))
		o->events = &log;
	else if (o->merge_into) /* the failures are said on stderr all the same */
		fprintf(stderr, "allocspike-run shards: %s\n", err);
	struct sigaction on = {.sa_handler = shards_on_signal};
	sigaction(SIGINT, &on, NULL);
	sigaction(SIGTERM, &on, NULL);
	sigaction(SIGHUP, &on, NULL);
	int signalled = 0;
	bool ok =
	    rows && place_clocks(rows, n, &o->place, o->events) && shards_clocks_agree(o, rows, n);
	bool started = ok; /* a plan may have been taken: every agent is withdrawn */
	ok = ok && shards_send_queries(o, rows, n) && shards_start(o, rows, n);
	if (ok)
		fprintf(stderr, "allocspike-run shards: %zu shards started, from T0 %s\n", n,
		        o->start_at);
	ok = ok && shards_watch(o, rows, n, &signalled) && shards_fetch(o, rows, n);
	if (started) /* every shard's agent ends, its generator stopped if it still runs */
		place_withdraw(rows, n, o->place.token);
	if (o->events) /* before the merge adds to the folder: nothing more to record */
		runfolder_writer_close(&log.writer);
	o->events = NULL;
	ok = ok && shards_merge(o, n);
	for (size_t i = 0; rows && i < n; i++) {
		free(rows[i].plan_body);
		plan_call_free(&rows[i].call);
		json_decref(rows[i].answer);
	}
	free(rows);
	shard_queries_close(&o->sent);
	if (signalled)
		return 130;
	if (!ok)
		fprintf(stderr, "allocspike-run shards: the run failed\n");
	return ok ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}

int shards_main(int argc, char **argv)
{
	struct shards_options o = {.place = {.table_path = variants_plan_default_table(),
	                                     .timeline_s = 0.1,
	                                     .clock_bound_s = 0.005},
	                           .targets = json_array()};
	int rc = o.targets ? shards_parse(&o, argc, argv) : CLI_EXIT_FAILED;
	if (rc != CLI_EXIT_OK) {
		json_decref(o.targets);
		return rc < 0 ? CLI_EXIT_OK : rc;
	}
	struct variants_table table;
	struct hosts_file hosts = {0};
	char err[4400];
	bool read = variants_table_read(&table, o.place.table_path, err, sizeof(err));
	if (read) {
		read = hosts_file_read(&hosts, o.place.hosts_path, &table, HOSTS_FILE_AGENT_PORT,
		                       err, sizeof(err));
		variants_table_free(&table);
	}
	if (read && hosts.n_shards == 0) {
		snprintf(err, sizeof(err), "%s: no generator host (HOST AGENT-ADDR[:PORT] %s)",
		         o.place.hosts_path, HOSTS_FILE_SHARD);
		read = false;
	}
	rc = read ? shards_run(&o, &hosts) : CLI_EXIT_USAGE;
	if (!read)
		fprintf(stderr, "allocspike-run shards: %s\n", err);
	hosts_file_free(&hosts);
	json_decref(o.targets);
	return rc;
}
