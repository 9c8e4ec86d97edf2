/* agent/main.c - allocspike-agent: samples one target process on its host at the run's interval
 * and serves the latest sample at /metrics in the Prometheus text format (docs/agent.md). */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_write_file.h"
#include "bearer_token.h"
#include "cli_parse.h"
#include "clock_exchange.h"
#include "close_stdout.h"
#include "control_peer.h"
#include "exposition.h"
#include "host_addresses.h"
#include "lease.h"
#include "monotonic.h"
#include "plan_cycle.h"
#include "plan_request.h"
#include "queries_upload.h"
#include "record.h"
#include "root_hints.h"
#include "row_start.h"
#include "rows_answer.h"
#include "sampler.h"
#include "shard_run.h"
#include "sockaddr_parse.h"
#include "systemd_unit.h"
#include "variants_table.h"

#define AGENT_DEFAULT_PORT 9110
/* --pid-from-control: how long a sidecar waits for the resolver beside it to open its socket */
#define AGENT_PEER_WAIT_S 30
/* A control socket that has not answered in this share of the interval is a failed read: the
 * next read must not queue behind it. */
#define AGENT_CONTROL_TIMEOUT_SHARE 0.8

/* --start: how long the row has to print its ready line (the scenarios' SC_READY_TIMEOUT), and to
 * end after SIGTERM when the agent stops */
#define AGENT_ROW_READY_S 30
#define AGENT_ROW_GRACE_S 5

/* Controllers reading /samples at once: one is the design, a few leave room for a dashboard. */
#define AGENT_MAX_STREAMS 4

/* A plan is a few hundred bytes; a body beyond this is no plan. */
#define AGENT_PLAN_MAX_BYTES 65536
/* A shard plan's generator: how often the agent looks whether it ended. */
#define AGENT_SHARD_WATCH_S 0.1
/* DELETE /plan: the agent ends this long after answering, so the answer leaves first. */
#define AGENT_WITHDRAW_DELAY_S 0.2

/* --lease: a plan's lease when it names none, and the longest one it may ask for (docs/agent.md,
 * "The lease"): longer than any quiet phase of a healthy run (the collector's clock exchange
 * comes every 5 s, its wait for dropped streams' records takes up to 30 s). */
#define AGENT_DEFAULT_LEASE_S 60
/* The agent's exit status when it withdrew its plan because the lease ran out (0 done, 1 failed,
 * 2 usage: docs/cli.md). */
#define AGENT_EXIT_LEASE 3

struct agent {
	struct event_base *base;
	struct agent_sampler sampler;
	struct agent_labels labels;
	unsigned long long scrapes;
	int record_fd; /* -1: no --record */
	const char *record_path;
	bool record_failed;
	uint64_t next_seq; /* the next read's sequence number: its line's index in the record */
	char token[BEARER_TOKEN_MAX + 1]; /* "": no --token-file, nothing asks for one */
	bool token_metrics;               /* /metrics asks for it too */
	struct evhttp_request *streams[AGENT_MAX_STREAMS]; /* NULL: a free place */

	bool sampler_open;  /* a target to read: from the start, or once a plan started its row */
	double interval_s;  /* between reads */
	struct event *tick; /* the reads, added once there is a target */
	pid_t row_pid;      /* the row it started (--start, or a plan), 0: none */
	pid_t sampled_pid;  /* what it samples of that row: the row, or the daemon its launcher
	                       started */
	/* --await-plan: the launch from the command line, the plan's row and options added */
	bool await_plan;
	struct row_plan row;
	struct plan_request plan;        /* .canonical NULL: no plan taken yet */
	struct evhttp_request *plan_req; /* its answer, held while the row starts */
	struct event *plan_poll;         /* the row's readiness polled meanwhile */
	uint64_t plan_deadline_ns;       /* monotonic: the row ready by then, or failed */
	char *plan_answer;               /* the JSON answered to it, again to an identical one */
	double lease_max_s;              /* --lease */
	struct plan_cycle cycle;         /* --plans: how many, and the plan's first read */
	/* the root hints a row starts with: the plan's, kept at root_hints_kept, else the agent's
	 * --root-hints (root_hints_given, NULL: none) */
	const char *root_hints_given;
	char root_hints_kept[4200];
	/* a shard plan (--shard-dir): its generator's PID (row_pid while it runs), its fragment's
	 * folder, and once it ended, its wait status */
	const char *shard_dir;
	char shard_out[4200];
	pid_t shard_pid;
	struct event *shard_watch;
	bool shard_ended;
	int shard_status;
	struct agent_lease lease; /* runs from the plan's answer */
	bool lease_expired;       /* the plan withdrawn by the lease: AGENT_EXIT_LEASE */
	/* --systemd-unit: the unit whose main process is read, asked again (at most once a second)
	 * while that process is gone, so that a restart is followed; NULL: none */
	const char *unit;
	uint64_t unit_asked_ns;            /* monotonic: when systemd was last asked */
	struct systemd_unit_ask *unit_ask; /* that question, while unanswered */
};

/* How often a unit whose main process is gone is asked for its new one. */
#define AGENT_UNIT_ASK_EVERY_NS 1000000000ull

static void agent_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: allocspike-agent --pid PID | --pid-from-control | --systemd-unit U |\n"
	    "                        --start ROW |\n"
	    "                        --await-plan [options]\n"
	    "  --pid PID          the process to sample (a resolver row on this host)\n"
	    "  --pid-from-control the process serving --control (waiting up to %d s for it):\n"
	    "                     a sidecar sharing a Pod's process namespace\n"
	    "  --systemd-unit U   the main process of systemd unit U (systemctl show\n"
	    "                     --property=MainPID), followed when the unit restarts\n"
	    "  --control PATH     its control socket: live bytes, allocator figures, requests\n"
	    "                     in flight (default: none, /proc only)\n"
	    "  --start ROW        start that row of --variants-table FILE here (a build or\n"
	    "                     env row: the resolver beside this program, the row's\n"
	    "                     environment; a daemon row: its definition in\n"
	    "                     --daemons-dir; its control socket --control, ready file\n"
	    "                     CONTROL.ready), in a process group of its own that dies\n"
	    "                     with the agent; then sample it. With --root-hints F,\n"
	    "                     --upstream-port P, --upstream-source A, --resolver-listen\n"
	    "                     A (default 127.0.0.1:0), and the run's resolver options\n"
	    "                     after --\n"
	    "  --daemons-dir DIR  the daemon definitions a daemon row is started by (default\n"
	    "                     %s)\n"
	    "  --await-plan       serve, and start the row a controller's plan names (POST\n"
	    "                     /plan: row, run, variant, interval, resolver options, root\n"
	    "                     hints: --root-hints is the fallback) with --variants-table,\n"
	    "                     --control and the launch options above; needs --token-file\n"
	    "                     (docs/agent.md, \"Taking the row from a controller\")\n"
	    "  --shard-dir DIR    with --await-plan: take a shard plan too, running the\n"
	    "                     generator beside this program, its fragment into\n"
	    "                     DIR/RUN-shard-I, the query file sent by PUT /queries kept\n"
	    "                     in DIR (docs/agent.md, \"A generator shard\")\n"
	    "  --lease DUR        with --await-plan: withdraw the plan (its row stopped, exit\n"
	    "                     %d) when no request with the token came for this long\n"
	    "                     (default %ds; a plan may ask for a shorter one)\n"
	    "  --plans N          with --await-plan: after a DELETE /plan await the next plan\n"
	    "                     until N were withdrawn, or 'unlimited' (default 1: end\n"
	    "                     with the first; docs/agent.md, \"One plan after another\")\n"
	    "  --interval DUR     time between reads (default 100ms; 10ms to 60s)\n"
	    "  --listen ADDR[:P]  where /metrics is served (default 127.0.0.1:%d; only there)\n"
	    "  --run ID           the run label of every series (default: none)\n"
	    "  --host NAME        the host label (default: this host's name)\n"
	    "  --variant NAME     the variant label (default: target)\n"
	    "  --duration DUR     exit after this long (default: until SIGTERM or SIGINT)\n"
	    "  --ready-file FILE  write 'ready ADDR:PORT' there once /metrics is served\n"
	    "  --record FILE      append every read to FILE, one JSON line each (the lines\n"
	    "                     GET /samples streams; GET /record?from=SEQ serves them)\n"
	    "  --token-file F     a bearer token (F: a regular file of mode 0600 or stricter)\n"
	    "                     that /samples, /record and /time then require\n"
	    "  --token-metrics    /metrics requires it too (default: /metrics stays open)\n"
	    "  --version          print the version and exit\n"
	    "or: allocspike-agent openmetrics RECORD [--run ID] [--host NAME] [--variant NAME]\n"
	    "  a record as OpenMetrics with timestamps (promtool tsdb create-blocks-from)\n"
	    "or: allocspike-agent clock ADDR[:PORT] [--count N] [--bound DUR] [--token-file F]\n"
	    "  the agent's clock offset from this host's (GET /time, the exchange with the\n"
	    "  shortest of N round trips, default 8); exit 1 when half that round trip is\n"
	    "  over --bound (default 5ms): the offset is not known well enough for a run\n"
	    "Units and exit statuses (0 done, 1 failed, 2 usage, %d the lease ran out):\n"
	    "docs/cli.md; the metrics: docs/agent.md\n",
	    AGENT_PEER_WAIT_S, ALLOCSPIKE_DAEMONS_DIR, AGENT_EXIT_LEASE, AGENT_DEFAULT_LEASE_S,
	    AGENT_DEFAULT_PORT, AGENT_EXIT_LEASE);
}

/* The agent's end: the row it started (--start) stopped first; rc passed on. */
static int agent_row_end(pid_t row_pid, int rc)
{
	if (row_pid > 0)
		row_stop(row_pid, AGENT_ROW_GRACE_S);
	return rc;
}

/* systemd's answer: a new main process (the unit restarted) is read from the next read on. An
 * answer without one (still restarting, or stopped) waits for the next ask. */
static void agent_unit_answered(pid_t pid, const char *err, void *arg)
{
	(void)err;
	struct agent *a = arg;
	a->unit_ask = NULL;
	char why[256];
	if (pid > 0 && pid != a->sampler.watch.pid &&
	    agent_sampler_retarget(&a->sampler, pid, why, sizeof(why)))
		fprintf(stderr, "allocspike-agent: unit %s: its main process is now PID %d\n",
		        a->unit, (int)pid);
}

/* --systemd-unit: the target gone, the unit asked for its main process (at most once a second,
 * one question at a time). The reads go on meanwhile and stay down: the gap is the restart's. */
static void agent_unit_follow(struct agent *a)
{
	uint64_t now = monotonic_ns();
	if (!a->unit || a->unit_ask || a->sampler.last.up ||
	    now - a->unit_asked_ns < AGENT_UNIT_ASK_EVERY_NS)
		return;
	a->unit_asked_ns = now;
	a->unit_ask = systemd_unit_ask(a->base, a->unit, agent_unit_answered, a);
}

/* One read, then its line to the record and to every /samples stream. */
static void agent_tick(evutil_socket_t fd, short what, void *arg)
{
	struct agent *a = arg;
	agent_sampler_read(&a->sampler);
	agent_unit_follow(a);
	char line[RECORD_LINE_MAX];
	size_t len = record_format(line, sizeof(line), a->next_seq, &a->sampler.last);
	if (len >= sizeof(line))
		return; /* cannot happen with the table's keys; never half a line */
	a->next_seq++;
	if (a->record_fd >= 0 && !a->record_failed &&
	    write(a->record_fd, line, len) != (ssize_t)len) {
		/* the reads go on for /metrics and the streams; the record says where it stopped */
		fprintf(stderr, "allocspike-agent: --record: %s; no longer recording\n",
		        strerror(errno));
		a->record_failed = true;
	}
	for (int i = 0; i < AGENT_MAX_STREAMS; i++) {
		struct evbuffer *chunk = a->streams[i] ? evbuffer_new() : NULL;
		if (chunk && evbuffer_add(chunk, line, len) == 0)
			evhttp_send_reply_chunk(a->streams[i], chunk);
		if (chunk)
			evbuffer_free(chunk);
	}
}

/* A reader went. libevent detaches a request whose chunked reply is still open from its failed
 * connection and leaves it to us (its evhttp_connection_incoming_fail): ending such a reply frees
 * it. One still attached goes with its connection. */
static void agent_stream_closed(struct evhttp_connection *conn, void *arg)
{
	struct agent *a = arg;
	for (int i = 0; i < AGENT_MAX_STREAMS; i++) {
		struct evhttp_connection *c =
		    a->streams[i] ? evhttp_request_get_connection(a->streams[i]) : NULL;
		if (a->streams[i] && !c)
			evhttp_send_reply_end(a->streams[i]);
		if (a->streams[i] && (!c || c == conn))
			a->streams[i] = NULL;
	}
}

/* With --token-file, whether req carries the token; a request without it gets 401 here. One
 * with it is the controller heard from (the lease starts again); an open /metrics is not. */
static bool agent_authorized(struct evhttp_request *req, struct agent *a, bool asked)
{
	if (!a->token[0] || !asked)
		return true;
	if (bearer_token_matches(
	        evhttp_find_header(evhttp_request_get_input_headers(req), "Authorization"),
	        a->token)) {
		agent_lease_heard(&a->lease);
		return true;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req), "WWW-Authenticate",
	                  "Bearer realm=\"allocspike-agent\"");
	evhttp_send_error(req, 401, "the agent's token is required (Authorization: Bearer)");
	return false;
}

/* Only /plan takes POST and DELETE (with --await-plan); every other path is read. */
static bool agent_method_read(struct evhttp_request *req)
{
	enum evhttp_cmd_type m = evhttp_request_get_command(req);
	if (m == EVHTTP_REQ_GET || m == EVHTTP_REQ_HEAD)
		return true;
	evhttp_send_error(req, 405, "Method Not Allowed");
	return false;
}

/* GET /samples: every read from now on as one line (record.h), until the client goes. */
static void agent_samples(struct evhttp_request *req, void *arg)
{
	struct agent *a = arg;
	if (!agent_method_read(req) || !agent_authorized(req, a, true))
		return;
	for (int i = 0; i < AGENT_MAX_STREAMS; i++) {
		if (a->streams[i])
			continue;
		a->streams[i] = req;
		evhttp_connection_set_closecb(evhttp_request_get_connection(req),
		                              agent_stream_closed, a);
		evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
		                  "application/x-ndjson");
		evhttp_send_reply_start(req, 200, "OK");
		return;
	}
	evhttp_send_error(req, 503, "too many /samples readers");
}

/* GET /record?from=SEQ: the record's reads from sequence number SEQ on (default 0), for a
 * controller whose stream dropped to fill what it missed. */
/* Sends TEXT as the whole reply with its Content-Type; a 500 if it cannot be buffered. */
static bool agent_reply(struct evhttp_request *req, const char *type, const char *text, size_t len)
{
	struct evbuffer *body = evbuffer_new();
	if (!body || evbuffer_add(body, text, len) != 0) {
		if (body)
			evbuffer_free(body);
		evhttp_send_error(req, 500, "out of memory");
		return false;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type", type);
	evhttp_send_reply(req, 200, "OK", body);
	evbuffer_free(body);
	return true;
}

static void agent_record(struct evhttp_request *req, void *arg)
{
	struct agent *a = arg;
	if (!agent_method_read(req) || !agent_authorized(req, a, true))
		return;
	if (a->record_fd < 0) {
		evhttp_send_error(req, 404, "this agent keeps no record (--record)");
		return;
	}
	struct evkeyvalq query;
	const char *q = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
	unsigned long long from = 0;
	char err[256];
	bool ok = evhttp_parse_query_str(q ? q : "", &query) == 0;
	const char *from_text = ok ? evhttp_find_header(&query, "from") : NULL;
	ok = ok && (!from_text ||
	            cli_parse_count("from", from_text, 0, UINT64_MAX, &from, err, sizeof(err)));
	evhttp_clear_headers(&query);
	if (!ok) {
		evhttp_send_error(req, 400, "from: a sequence number");
		return;
	}
	if (a->await_plan) /* the plan under way's reads only, never an earlier plan's */
		from = plan_cycle_record_from(&a->cycle, from);
	char *text = NULL;
	size_t len = 0;
	if (!record_read_from(a->record_path, from, &text, &len, err, sizeof(err))) {
		evhttp_send_error(req, 500, "the record cannot be read");
		return;
	}
	agent_reply(req, "application/x-ndjson", text, len);
	free(text);
}

/* GET /fragment?file=NAME: a file of the shard's fragment, for the controller that merges the
 * shards (shard_run_fragment_file names the files). */
static void agent_fragment(struct evhttp_request *req, void *arg)
{
	struct agent *a = arg;
	if (!agent_method_read(req) || !agent_authorized(req, a, true))
		return;
	if (!a->plan.is_shard || !a->plan_answer) {
		evhttp_send_error(req, 404, "this agent took no shard plan");
		return;
	}
	struct evkeyvalq query;
	const char *q = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
	bool parsed = evhttp_parse_query_str(q ? q : "", &query) == 0;
	const char *name = parsed ? evhttp_find_header(&query, "file") : NULL;
	char path[4400];
	bool known = name && shard_run_fragment_file(name);
	if (known)
		snprintf(path, sizeof(path), "%s/%s", a->shard_out, name);
	evhttp_clear_headers(&query);
	int fd = known ? open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) : -1;
	struct stat st;
	struct evbuffer *body = fd >= 0 && fstat(fd, &st) == 0 ? evbuffer_new() : NULL;
	if (!body || evbuffer_add_file(body, fd, 0, st.st_size) != 0) {
		if (body)
			evbuffer_free(body);
		else if (fd >= 0)
			close(fd);
		evhttp_send_error(req, 404,
		                  known ? "the fragment has no such file (yet)"
		                        : "file=NAME, a fragment's file (fragment.json, ...)");
		return;
	}
	evhttp_send_reply(req, 200, "OK", body); /* the buffer closes the file once sent */
	evbuffer_free(body);
}

static void agent_metrics(struct evhttp_request *req, void *arg)
{
	struct agent *a = arg;
	if (!agent_method_read(req) || !agent_authorized(req, a, a->token_metrics))
		return;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out) {
		evhttp_send_error(req, 500, "out of memory");
		return;
	}
	exposition_write(out, &a->labels, &a->sampler);
	fclose(out);
	if (agent_reply(req, EXPOSITION_CONTENT_TYPE, text, len))
		a->scrapes++;
	free(text);
}

/* The clock exchange (common/clock_exchange.h): when the request reached us and when the reply
 * leaves. */
static void agent_time(struct evhttp_request *req, void *arg)
{
	uint64_t t2 = realtime_ns();
	struct agent *a = arg;
	if (!agent_method_read(req) || !agent_authorized(req, a, true))
		return;
	char text[128];
	int n = clock_format_reply(text, sizeof(text), t2, realtime_ns(), a->labels.host);
	agent_reply(req, "text/plain", text, (size_t)n);
}

/* A question's answer, {"host": HOST, key: value} (value taken), or 500 with err when value is
 * NULL. */
static void agent_answer_json(struct evhttp_request *req, const struct agent *a, const char *key,
                              json_t *value, const char *err)
{
	json_t *answer = value ? json_pack("{s:s, s:o}", "host", a->labels.host, key, value) : NULL;
	char *text = answer ? json_dumps(answer, JSON_COMPACT) : NULL;
	if (text)
		agent_reply(req, "application/json", text, strlen(text));
	else
		evhttp_send_error(req, 500, value ? "out of memory" : err);
	json_decref(answer);
	free(text);
}

/* GET /rows: whether each row of the table has its program on this host, for a controller to
 * place only what runs here (rows_answer.h). */
static void agent_rows(struct evhttp_request *req, void *arg)
{
	struct agent *a = arg;
	char err[4400];
	if (!agent_method_read(req) || !agent_authorized(req, a, true))
		return;
	if (!a->row.table) {
		evhttp_send_error(req, 404, "this agent has no --variants-table");
		return;
	}
	agent_answer_json(req, a, "rows",
	                  rows_answer_list(a->row.table, a->row.daemons_dir, err, sizeof(err)),
	                  err);
}

/* GET /sources: the addresses this host may send a shard's queries from (host_addresses.h). */
static void agent_sources(struct evhttp_request *req, void *arg)
{
	struct agent *a = arg;
	char err[256];
	if (agent_method_read(req) && agent_authorized(req, a, true))
		agent_answer_json(req, a, "sources", host_addresses_list(err, sizeof(err)), err);
}

static void agent_not_found(struct evhttp_request *req, void *arg)
{
	evhttp_send_error(req, 404,
	                  "the agent serves /metrics, /samples, /record, /time, /rows, /sources, "
	                  "/plan, /queries and /fragment only");
}

/* A refusal of a request to path with its reason as the body (a controller shows it), said on
 * stderr too. */
static void agent_refuse_on(struct evhttp_request *req, const char *path, int status,
                            const char *reason)
{
	fprintf(stderr, "allocspike-agent: %s: %d: %s\n", path, status, reason);
	struct evbuffer *body = evbuffer_new();
	if (body && evbuffer_add_printf(body, "%s\n", reason) >= 0) {
		evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
		                  "text/plain; charset=utf-8");
		evhttp_send_reply(req, status, NULL, body);
	} else
		evhttp_send_error(req, 500, "out of memory");
	if (body)
		evbuffer_free(body);
}

static void agent_refuse(struct evhttp_request *req, int status, const char *reason)
{
	agent_refuse_on(req, "/plan", status, reason);
}

/* Opens the target and starts the reads at the interval, a first one at once. */
static bool agent_sampling_start(struct agent *a, pid_t pid, const char *control, char *err,
                                 size_t err_size)
{
	if (!agent_sampler_open(&a->sampler, pid, control,
	                        (int)(a->interval_s * 1000 * AGENT_CONTROL_TIMEOUT_SHARE) + 1, err,
	                        err_size))
		return false;
	a->sampler_open = true;
	struct timeval every = seconds_timeval(a->interval_s);
	if (event_add(a->tick, &every) != 0) {
		snprintf(err, err_size, "libevent could not add the reads' timer");
		return false;
	}
	agent_tick(-1, 0, a); /* a first read before anyone can scrape */
	return true;
}

/* The plan's lease: what it asks for, at most the agent's --lease (the host's word). */
static double agent_plan_lease_s(const struct agent *a)
{
	double asked = a->plan.lease_s;
	return asked > 0 && asked < a->lease_max_s ? asked : a->lease_max_s;
}

/* What the controller is told of a started plan: where the row serves, for the generator. */
static char *agent_plan_answer(const struct agent *a, const char *resolver)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:f, s:f}", "row", a->plan.row, "run",
	                      a->plan.run, "variant", a->plan.variant, "host", a->labels.host,
	                      "resolver", resolver, "pid", (json_int_t)a->sampled_pid, "interval_s",
	                      a->interval_s, "lease_s", agent_plan_lease_s(a));
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return text;
}

/* A plan's answer still held is answered (503, the reason), so that its request is freed. */
static void agent_plan_end_held(struct agent *a, const char *reason)
{
	if (!a->plan_req)
		return;
	event_del(a->plan_poll);
	agent_refuse(a->plan_req, 503, reason);
	a->plan_req = NULL;
}

/* The plan not taken after all: its row gone, another plan may come. */
static void agent_plan_drop(struct agent *a)
{
	plan_request_free(&a->plan);
	a->row.row = NULL;
	a->row.options = NULL;
	a->row.n_options = 0;
	a->row_pid = 0;
}

/* The lease from the plan's answer on. Before the controller's first word after the answer, the
 * time it may wait at its barrier for the other hosts' rows too (each ready within
 * AGENT_ROW_READY_S). */
static void agent_plan_lease_start(struct agent *a)
{
	if (!agent_lease_start(&a->lease, agent_plan_lease_s(a),
	                       agent_plan_lease_s(a) + AGENT_ROW_READY_S)) {
		fprintf(stderr, "allocspike-agent: libevent could not start the lease; ending\n");
		event_base_loopbreak(a->base);
	}
}

/* Every ROW_POLL_MS while the plan's row starts: once it is ready, it is read and the held answer
 * sent; if it failed, the refusal. */
static void agent_plan_poll(evutil_socket_t fd, short what, void *arg)
{
	struct agent *a = arg;
	char resolver[160] = "", err[4096];
	enum row_state state = row_poll(&a->row, a->row_pid, a->plan_deadline_ns, resolver,
	                                sizeof(resolver), &a->sampled_pid, err, sizeof(err));
	if (state == ROW_STARTING)
		return;
	event_del(a->plan_poll);
	struct evhttp_request *req = a->plan_req;
	a->plan_req = NULL;
	if (state == ROW_FAILED) {
		agent_plan_drop(a);
		agent_refuse(req, 500, err);
		return;
	}
	a->labels.run = a->plan.run;
	a->labels.variant = a->plan.variant;
	plan_cycle_begin(&a->cycle, a->next_seq);
	if (agent_sampling_start(a, a->sampled_pid, a->row.control, err, sizeof(err)) &&
	    !(a->plan_answer = agent_plan_answer(a, resolver)))
		snprintf(err, sizeof(err), "out of memory");
	if (!a->plan_answer) {
		agent_refuse(req, 500, err);
		event_base_loopbreak(
		    a->base); /* a half-started agent serves nobody; its row stops */
		return;
	}
	fprintf(stderr,
	        "allocspike-agent: plan taken: row %s of run %s, serving DNS on %s; lease %gs\n",
	        a->plan.row, a->plan.run, resolver, agent_plan_lease_s(a));
	agent_reply(req, "application/json", a->plan_answer, strlen(a->plan_answer));
	agent_plan_lease_start(a);
}

/* A shard plan's answer, kept current (GET /plan, an identical plan again): the generator
 * running, or how it ended; false when out of memory. */
static bool agent_shard_answer_update(struct agent *a)
{
	char shard[32];
	snprintf(shard, sizeof(shard), "%u/%u", a->plan.shard.index, a->plan.shard.count);
	json_t *o =
	    json_pack("{s:s, s:s, s:s, s:s, s:I, s:f, s:s, s:s}", "kind", "shard", "run",
	              a->plan.run, "shard", shard, "host", a->labels.host, "pid",
	              (json_int_t)a->shard_pid, "lease_s", agent_plan_lease_s(a), "fragment",
	              a->shard_out, "state", a->shard_ended ? "exited" : "running");
	if (o && a->shard_ended && WIFEXITED(a->shard_status))
		json_object_set_new(o, "exit_code", json_integer(WEXITSTATUS(a->shard_status)));
	else if (o && a->shard_ended)
		json_object_set_new(o, "signal", json_integer(WTERMSIG(a->shard_status)));
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (text) {
		free(a->plan_answer);
		a->plan_answer = text;
	}
	return text != NULL;
}

/* Every AGENT_SHARD_WATCH_S while the shard's generator runs: its end noted in the answer. */
static void agent_shard_watch(evutil_socket_t fd, short what, void *arg)
{
	struct agent *a = arg;
	if (!a->row_pid || !shard_run_ended(a->row_pid, &a->shard_status))
		return;
	a->row_pid = 0; /* reaped: nothing left to stop */
	a->shard_ended = true;
	event_del(a->shard_watch);
	agent_shard_answer_update(a);
	fprintf(stderr, "allocspike-agent: shard %u/%u of run %s: its generator ended (%s %d)\n",
	        a->plan.shard.index, a->plan.shard.count, a->plan.run,
	        WIFEXITED(a->shard_status) ? "exit status" : "signal",
	        WIFEXITED(a->shard_status) ? WEXITSTATUS(a->shard_status)
	                                   : WTERMSIG(a->shard_status));
}

/* A shard plan's "queries" naming a file sent to this agent: its path here in the plan. */
static bool agent_shard_queries(struct agent *a, char *err, size_t err_size)
{
	char path[4400];
	char *resolved = NULL;
	if (!queries_upload_resolve(a->shard_dir, a->plan.shard.queries, path, sizeof(path), err,
	                            err_size))
		return false;
	if (!(resolved = strdup(path))) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	free(a->plan.shard.queries);
	a->plan.shard.queries = resolved;
	return true;
}

/* A shard plan: its generator started at once (it waits for T0 itself), the answer sent. */
static void agent_shard_take(struct evhttp_request *req, struct agent *a)
{
	char err[4800];
	bool refused = true;
	if (!a->shard_dir)
		snprintf(err, sizeof(err),
		         "this agent runs no generator shard (it was started without --shard-dir)");
	snprintf(a->shard_out, sizeof(a->shard_out), "%s/%s-shard-%u",
	         a->shard_dir ? a->shard_dir : "", a->plan.run, a->plan.shard.index);
	if (!a->shard_dir || !agent_shard_queries(a, err, sizeof(err)) ||
	    !shard_run_spawn(&a->plan.shard, a->plan.interval_s, a->shard_out, &a->row_pid,
	                     &refused, err, sizeof(err))) {
		agent_plan_drop(a);
		agent_refuse(req, refused ? 422 : 500, err);
		return;
	}
	a->shard_pid = a->row_pid;
	a->labels.run = a->plan.run;
	a->labels.variant = a->plan.variant;
	struct timeval every = seconds_timeval(AGENT_SHARD_WATCH_S);
	if (!agent_shard_answer_update(a) || event_add(a->shard_watch, &every) != 0) {
		agent_refuse(req, 500, "out of memory, or libevent could not watch the generator");
		event_base_loopbreak(a->base); /* its generator stops with the agent */
		return;
	}
	fprintf(
	    stderr,
	    "allocspike-agent: plan taken: shard %u/%u of run %s, its generator PID %d from %s, "
	    "its fragment %s; lease %gs\n",
	    a->plan.shard.index, a->plan.shard.count, a->plan.run, (int)a->shard_pid,
	    a->plan.shard.start_at, a->shard_out, agent_plan_lease_s(a));
	agent_reply(req, "application/json", a->plan_answer, strlen(a->plan_answer));
	agent_plan_lease_start(a);
}

/* POST /plan: the one plan taken, its row started; the answer held until the row is ready (at most
 * AGENT_ROW_READY_S), the agent serving meanwhile. */
static void agent_plan_take(struct evhttp_request *req, struct agent *a)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	if (len > AGENT_PLAN_MAX_BYTES) { /* the server takes a query file's size (PUT /queries) */
		agent_refuse(req, 413, "a plan is a JSON object of at most 64 KiB");
		return;
	}
	const char *body = len ? (const char *)evbuffer_pullup(in, -1) : "";
	struct plan_request p;
	char err[4096];
	if (!plan_request_parse(body ? body : "", len, &p, err, sizeof(err))) {
		agent_refuse(req, 400, err);
		return;
	}
	if (a->plan.canonical) {
		bool same = strcmp(p.canonical, a->plan.canonical) == 0;
		plan_request_free(&p);
		if (same && a->plan_answer)
			agent_reply(req, "application/json", a->plan_answer,
			            strlen(a->plan_answer));
		else {
			char what[IDENTIFIER_MAX_LEN + 32];
			if (a->plan.is_shard)
				snprintf(what, sizeof(what), "shard %u/%u", a->plan.shard.index,
				         a->plan.shard.count);
			else
				snprintf(what, sizeof(what), "row %s", a->plan.row);
			snprintf(err, sizeof(err),
			         "this agent %s a plan already (%s of run %s), and %s",
			         a->plan_answer ? "took" : "is starting", what, a->plan.run,
			         a->cycle.plans == 1 ? "takes one only" : "takes one at a time");
			agent_refuse(req, 409, err);
		}
		return;
	}
	a->plan = p;
	if (a->plan.is_shard) {
		agent_shard_take(req, a);
		return;
	}
	a->row.row = a->plan.row;
	a->row.options = a->plan.options;
	a->row.n_options = a->plan.n_options;
	a->interval_s = a->plan.interval_s;
	a->row.root_hints = a->plan.root_hints ? a->root_hints_kept : a->root_hints_given;
	if (a->plan.root_hints &&
	    !root_hints_keep(a->row.control, a->plan.root_hints, a->root_hints_kept,
	                     sizeof(a->root_hints_kept), err, sizeof(err))) {
		agent_plan_drop(a);
		agent_refuse(req, 500, err);
		return;
	}
	bool refused = false;
	struct timeval poll = seconds_timeval(ROW_POLL_MS / 1000.0);
	if (!row_spawn(&a->row, &a->row_pid, &refused, err, sizeof(err))) {
		agent_plan_drop(a);
		agent_refuse(req, refused ? 422 : 500, err);
		return;
	}
	a->plan_req = req;
	a->plan_deadline_ns = monotonic_ns() + (uint64_t)AGENT_ROW_READY_S * 1000000000u;
	if (event_add(a->plan_poll, &poll) != 0) {
		a->plan_req = NULL;
		row_stop(a->row_pid, AGENT_ROW_GRACE_S);
		agent_plan_drop(a);
		agent_refuse(req, 500, "libevent could not add the row's readiness timer");
	}
}

/* The plan withdrawn (DELETE /plan, or the lease): its row stopped, said with why and what the
 * agent does then (ending once the caller's loop does, or awaiting the next plan). */
static void agent_plan_withdraw(struct agent *a, const char *why, const char *then)
{
	fprintf(stderr, "allocspike-agent: %splan withdrawn%s; %s\n", why,
	        !a->row_pid        ? ""
	        : a->plan.is_shard ? ", its generator stopped"
	                           : ", its row stopped",
	        then);
	if (a->row_pid)
		row_stop(a->row_pid, AGENT_ROW_GRACE_S);
	a->row_pid = 0;
	agent_plan_end_held(a, "the plan was withdrawn before its row was ready");
}

/* The lease ran out: the controller is taken for gone, and its plan withdrawn as DELETE /plan
 * would, so that the row does not run on to the agent's --duration. */
static void agent_lease_expired(evutil_socket_t fd, short what, void *arg)
{
	struct agent *a = arg;
	char why[160];
	snprintf(why, sizeof(why),
	         "lease expired: no request from the controller for %.1f s (the lease: %g s); ",
	         agent_lease_silent_s(&a->lease), a->lease.lease_s);
	agent_plan_withdraw(a, why, "ending"); /* a lost controller ends the agent: exit 3 */
	a->lease_expired = true;
	event_base_loopbreak(a->base);
}

/* Every /samples stream ended: the last chunk sent, or a detached request freed. */
static void agent_streams_end(struct agent *a)
{
	for (int i = 0; i < AGENT_MAX_STREAMS; i++)
		if (a->streams[i])
			evhttp_send_reply_end(a->streams[i]);
	memset(a->streams, 0, sizeof(a->streams));
}

/* After a withdrawal, the agent as before its first plan: no target read, no run or variant
 * label, no lease, no shard, the plan's /samples streams ended (a stream never carries two
 * plans); the record goes on, the next plan's reads numbered on from it. */
static void agent_plan_next(struct agent *a)
{
	agent_lease_stop(&a->lease);
	event_del(a->tick);
	event_del(a->shard_watch);
	if (a->sampler_open)
		agent_sampler_close(&a->sampler);
	a->sampler = (struct agent_sampler){0};
	a->sampler_open = false;
	agent_streams_end(a);
	agent_plan_drop(a);
	free(a->plan_answer);
	a->plan_answer = NULL;
	a->sampled_pid = a->shard_pid = 0;
	a->shard_ended = false;
	a->shard_out[0] = '\0';
	a->labels.run = "";
	a->labels.variant = "target";
}

/* DELETE /plan: the plan withdrawn, then the next awaited (--plans) or the agent ended. A DELETE
 * with no plan withdraws nothing: it ends an agent of one plan, as it always did, and leaves one
 * of more awaiting. */
static void agent_plan_delete(struct evhttp_request *req, struct agent *a)
{
	bool again = a->plan.canonical ? plan_cycle_withdrawn(&a->cycle) : a->cycle.plans != 1;
	char over[64], then[128] = "ending";
	plan_cycle_format(&a->cycle, over, sizeof(over));
	if (again)
		snprintf(then, sizeof(then), "awaiting the next plan (%s over)", over);
	agent_plan_withdraw(a, "", then);
	agent_reply(req, "text/plain", "withdrawn\n", 10);
	if (again) {
		agent_plan_next(a);
		return;
	}
	struct timeval soon = seconds_timeval(AGENT_WITHDRAW_DELAY_S);
	event_base_loopexit(a->base, &soon);
}

/* PUT /queries (--await-plan): a query file for a shard plan to name, kept in --shard-dir. */
static void agent_queries(struct evhttp_request *req, void *arg)
{
	struct agent *a = arg;
	if (!agent_authorized(req, a, true))
		return;
	if (evhttp_request_get_command(req) != EVHTTP_REQ_PUT) {
		evhttp_send_error(req, 405, "Method Not Allowed");
		return;
	}
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in);
	const char *named =
	    evhttp_find_header(evhttp_request_get_input_headers(req), SHA256_HEX_HEADER);
	char err[4400], answer[160];
	int status = 422;
	if (!a->shard_dir)
		snprintf(err, sizeof(err),
		         "this agent runs no generator shard (it was started without --shard-dir)");
	else if (queries_upload_take(a->shard_dir, named,
	                             len ? (const void *)evbuffer_pullup(in, -1) : "", len, &status,
	                             err, sizeof(err))) {
		int n = snprintf(answer, sizeof(answer), "{\"queries\":\"%s%s\",\"bytes\":%zu}",
		                 QUERIES_UPLOAD_PREFIX, named, len);
		evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
		                  "application/json");
		struct evbuffer *body = evbuffer_new();
		if (body && evbuffer_add(body, answer, (size_t)n) == 0)
			evhttp_send_reply(req, status, NULL, body);
		else
			evhttp_send_error(req, 500, "out of memory");
		if (body)
			evbuffer_free(body);
		fprintf(stderr, "allocspike-agent: /queries: %zu bytes kept (sha256 %s)\n", len,
		        named);
		return;
	}
	agent_refuse_on(req, "/queries", status, err);
}

/* /plan (--await-plan): POST takes the plan, GET says it, DELETE withdraws it: the row stopped, and
 * the agent awaits its next plan or ends (--plans). */
static void agent_plan(struct evhttp_request *req, void *arg)
{
	struct agent *a = arg;
	if (!agent_authorized(req, a, true))
		return;
	enum evhttp_cmd_type m = evhttp_request_get_command(req);
	if (m == EVHTTP_REQ_POST)
		agent_plan_take(req, a);
	else if ((m == EVHTTP_REQ_GET || m == EVHTTP_REQ_HEAD) && a->plan_answer)
		agent_reply(req, "application/json", a->plan_answer, strlen(a->plan_answer));
	else if (m == EVHTTP_REQ_GET || m == EVHTTP_REQ_HEAD)
		agent_refuse(req, 404,
		             a->plan_req ? "the plan's row is starting" : "no plan taken yet");
	else if (m == EVHTTP_REQ_DELETE)
		agent_plan_delete(req, a);
	else
		evhttp_send_error(req, 405, "Method Not Allowed");
}

static void agent_stop(evutil_socket_t sig, short what, void *arg)
{
	event_base_loopbreak(arg);
}

/* Binds /metrics at addr; the address it got (port 0: a free one) into bound. */
static struct evhttp *agent_listen(struct agent *a, const struct sockaddr_storage *addr,
                                   socklen_t addr_len, char *bound, size_t bound_size)
{
	struct evhttp *http = evhttp_new(a->base);
	if (!http)
		return NULL;
	int fd = socket(addr->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, (const struct sockaddr *)addr, addr_len) != 0 ||
	    listen(fd, 64) != 0 || !evhttp_accept_socket_with_handle(http, fd)) {
		fprintf(stderr, "allocspike-agent: cannot listen on %s: %s\n",
		        sockaddr_format((const struct sockaddr *)addr, bound, bound_size),
		        strerror(errno));
		if (fd >= 0)
			close(fd);
		evhttp_free(http);
		return NULL;
	}
	struct sockaddr_storage got;
	socklen_t got_len = sizeof(got);
	getsockname(fd, (struct sockaddr *)&got, &got_len);
	sockaddr_format((struct sockaddr *)&got, bound, bound_size);
	evhttp_set_cb(http, "/metrics", agent_metrics, a);
	evhttp_set_cb(http, "/time", agent_time, a);
	evhttp_set_cb(http, "/samples", agent_samples, a);
	evhttp_set_cb(http, "/record", agent_record, a);
	evhttp_set_cb(http, "/fragment", agent_fragment, a);
	evhttp_set_cb(http, "/rows", agent_rows, a);
	evhttp_set_cb(http, "/sources", agent_sources, a);
	if (a->await_plan) {
		evhttp_set_cb(http, "/plan", agent_plan, a);
		evhttp_set_cb(http, "/queries", agent_queries, a);
	}
	evhttp_set_gencb(http, agent_not_found, a);
	/* a larger body is answered 413 by the server itself; a plan's own bound is /plan's */
	evhttp_set_max_body_size(http,
	                         a->await_plan ? QUERIES_UPLOAD_MAX_BYTES : AGENT_PLAN_MAX_BYTES);
	evhttp_set_allowed_methods(
	    http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD |
	              (a->await_plan ? EVHTTP_REQ_POST | EVHTTP_REQ_DELETE | EVHTTP_REQ_PUT
	                             : 0)); /* else 405 */
	return http;
}

/* Whole or not at all, so a reader polling for it never sees half a line. */
static bool agent_write_ready(const char *path, const char *bound)
{
	char line[128], err[256];
	int n = snprintf(line, sizeof(line), "ready %s\n", bound);
	if (!atomic_write_file(path, line, (size_t)n, err, sizeof(err))) {
		fprintf(stderr, "allocspike-agent: %s\n", err);
		return false;
	}
	return true;
}

/* allocspike-agent clock ADDR[:PORT] [--count N] [--bound DUR] [--token-file F] */
static int agent_clock_main(int argc, char **argv)
{
	enum { OPT_COUNT = 256, OPT_BOUND, OPT_TOKEN_FILE };
	static const struct option opts[] = {
	    {"count", required_argument, NULL, OPT_COUNT},
	    {"bound", required_argument, NULL, OPT_BOUND},
	    {"token-file", required_argument, NULL, OPT_TOKEN_FILE},
	    {NULL, 0, NULL, 0},
	};
	unsigned long long count = 8;
	double bound_s = 0.005;
	const char *token_file = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		bool ok = c == OPT_TOKEN_FILE;
		if (c == OPT_TOKEN_FILE)
			token_file = optarg;
		else if (c == OPT_COUNT)
			ok = cli_option_count("--count", optarg, 1, 1000, &count);
		else if (c == OPT_BOUND)
			ok = cli_option_duration("--bound", optarg, CLI_UNIT_REQUIRED, 0, 60,
			                         &bound_s);
		else
			agent_usage(stderr);
		if (!ok)
			return CLI_EXIT_USAGE;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "allocspike-agent clock: one agent address, ADDR[:PORT]\n");
		return CLI_EXIT_USAGE;
	}
	const char *agent = argv[optind];
	struct sockaddr_storage addr;
	socklen_t addr_len;
	char err[256];
	if (!sockaddr_parse(agent, AGENT_DEFAULT_PORT, &addr, &addr_len, err, sizeof(err))) {
		fprintf(stderr, "allocspike-agent clock: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	char token[BEARER_TOKEN_MAX + 1];
	if (token_file && !bearer_token_load(token_file, token, sizeof(token), err, sizeof(err))) {
		fprintf(stderr, "allocspike-agent clock: --token-file %s\n", err);
		return CLI_EXIT_USAGE;
	}
	struct clock_offset off;
	if (!clock_measure((struct sockaddr *)&addr, addr_len, (unsigned)count,
	                   token_file ? token : NULL, &off, err, sizeof(err))) {
		fprintf(stderr, "allocspike-agent clock: agent %s: %s\n", agent, err);
		return CLI_EXIT_FAILED;
	}
	printf("{\"agent\": \"%s\", \"offset_ms\": %.3f, \"rtt_ms\": %.3f, \"exchanges\": %u, "
	       "\"host\": %s%s%s}\n",
	       agent, off.offset_ms, off.rtt_ms, off.exchanges, off.host[0] ? "\"" : "",
	       off.host[0] ? off.host : "null", off.host[0] ? "\"" : "");
	if (!clock_offset_within(&off, bound_s * 1000, err, sizeof(err))) {
		fprintf(stderr, "allocspike-agent clock: agent %s: %s\n", agent, err);
		return CLI_EXIT_FAILED;
	}
	return CLI_EXIT_OK;
}

/* allocspike-agent openmetrics RECORD [--run ID] [--host NAME] [--variant NAME] */
static int agent_openmetrics_main(int argc, char **argv)
{
	enum { OPT_RUN = 256, OPT_HOST, OPT_VARIANT };
	static const struct option opts[] = {
	    {"run", required_argument, NULL, OPT_RUN},
	    {"host", required_argument, NULL, OPT_HOST},
	    {"variant", required_argument, NULL, OPT_VARIANT},
	    {NULL, 0, NULL, 0},
	};
	struct agent_labels l = {.run = "", .host = "", .variant = "target"};
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == OPT_RUN)
			l.run = optarg;
		else if (c == OPT_HOST)
			l.host = optarg;
		else if (c == OPT_VARIANT)
			l.variant = optarg;
		else {
			agent_usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "allocspike-agent openmetrics: one record file\n");
		return CLI_EXIT_USAGE;
	}
	FILE *in = fopen(argv[optind], "r");
	if (!in) {
		fprintf(stderr, "allocspike-agent openmetrics: %s: %s\n", argv[optind],
		        strerror(errno));
		return CLI_EXIT_FAILED;
	}
	char err[256];
	bool ok = exposition_openmetrics(in, stdout, &l, err, sizeof(err));
	fclose(in);
	if (!ok) {
		fprintf(stderr, "allocspike-agent openmetrics: %s: %s\n", argv[optind], err);
		return CLI_EXIT_FAILED;
	}
	return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-agent");
	if (argc > 1 && strcmp(argv[1], "clock") == 0)
		return agent_clock_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "openmetrics") == 0)
		return agent_openmetrics_main(argc - 1, argv + 1);
	enum {
		OPT_PID = 256,
		OPT_CONTROL,
		OPT_INTERVAL,
		OPT_LISTEN,
		OPT_RUN,
		OPT_HOST,
		OPT_VARIANT,
		OPT_DURATION,
		OPT_READY,
		OPT_RECORD,
		OPT_TOKEN_FILE,
		OPT_TOKEN_METRICS,
		OPT_PID_FROM_CONTROL,
		OPT_SYSTEMD_UNIT,
		OPT_START,
		OPT_VARIANTS_TABLE,
		OPT_ROOT_HINTS,
		OPT_UPSTREAM_PORT,
		OPT_UPSTREAM_SOURCE,
		OPT_RESOLVER_LISTEN,
		OPT_AWAIT_PLAN,
		OPT_DAEMONS_DIR,
		OPT_LEASE,
		OPT_SHARD_DIR,
		OPT_PLANS,
		OPT_VERSION,
		OPT_HELP
	};
	static const struct option opts[] = {
	    {"pid", required_argument, NULL, OPT_PID},
	    {"pid-from-control", no_argument, NULL, OPT_PID_FROM_CONTROL},
	    {"systemd-unit", required_argument, NULL, OPT_SYSTEMD_UNIT},
	    {"start", required_argument, NULL, OPT_START},
	    {"variants-table", required_argument, NULL, OPT_VARIANTS_TABLE},
	    {"root-hints", required_argument, NULL, OPT_ROOT_HINTS},
	    {"upstream-port", required_argument, NULL, OPT_UPSTREAM_PORT},
	    {"upstream-source", required_argument, NULL, OPT_UPSTREAM_SOURCE},
	    {"resolver-listen", required_argument, NULL, OPT_RESOLVER_LISTEN},
	    {"await-plan", no_argument, NULL, OPT_AWAIT_PLAN},
	    {"daemons-dir", required_argument, NULL, OPT_DAEMONS_DIR},
	    {"lease", required_argument, NULL, OPT_LEASE},
	    {"shard-dir", required_argument, NULL, OPT_SHARD_DIR},
	    {"plans", required_argument, NULL, OPT_PLANS},
	    {"control", required_argument, NULL, OPT_CONTROL},
	    {"interval", required_argument, NULL, OPT_INTERVAL},
	    {"listen", required_argument, NULL, OPT_LISTEN},
	    {"run", required_argument, NULL, OPT_RUN},
	    {"host", required_argument, NULL, OPT_HOST},
	    {"variant", required_argument, NULL, OPT_VARIANT},
	    {"duration", required_argument, NULL, OPT_DURATION},
	    {"ready-file", required_argument, NULL, OPT_READY},
	    {"record", required_argument, NULL, OPT_RECORD},
	    {"token-file", required_argument, NULL, OPT_TOKEN_FILE},
	    {"token-metrics", no_argument, NULL, OPT_TOKEN_METRICS},
	    {"version", no_argument, NULL, OPT_VERSION},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	unsigned long long pid = 0;
	bool pid_from_control = false;
	double duration_s = 0;
	const char *control = NULL, *listen_text = "127.0.0.1", *ready_file = NULL, *record = NULL,
	           *token_file = NULL;
	char hostname[256] = "";
	struct agent a = {.labels = {.run = "", .host = hostname, .variant = "target"},
	                  .record_fd = -1,
	                  .interval_s = 0.1,
	                  .lease_max_s = AGENT_DEFAULT_LEASE_S,
	                  .cycle = {.plans = 1}};
	bool lease_given = false, plans_given = false;
	struct row_plan *row = &a.row;
	row->daemons_dir = ALLOCSPIKE_DAEMONS_DIR;
	bool planned_option = false; /* --interval, --run or --variant: a plan's to say */
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		bool ok = true;
		switch (c) {
		case OPT_PID:
			ok = cli_option_count("--pid", optarg, 1, 4194304, &pid);
			break;
		case OPT_CONTROL:
			control = optarg;
			break;
		case OPT_SYSTEMD_UNIT:
			a.unit = optarg;
			if (!(ok = systemd_unit_name_valid(optarg)))
				fprintf(
				    stderr,
				    "allocspike-agent: --systemd-unit '%s': not a unit name "
				    "(letters, "
				    "digits and :-_.@\\ only, with its type: kresd@1.service)\n",
				    optarg);
			break;
		case OPT_PID_FROM_CONTROL:
			pid_from_control = true;
			break;
		case OPT_START:
			row->row = optarg;
			break;
		case OPT_VARIANTS_TABLE:
			row->table = optarg;
			break;
		case OPT_ROOT_HINTS:
			row->root_hints = optarg;
			break;
		case OPT_UPSTREAM_PORT:
			row->upstream_port = optarg;
			break;
		case OPT_UPSTREAM_SOURCE:
			row->upstream_source = optarg;
			break;
		case OPT_RESOLVER_LISTEN:
			row->listen = optarg;
			break;
		case OPT_AWAIT_PLAN:
			a.await_plan = true;
			break;
		case OPT_DAEMONS_DIR:
			row->daemons_dir = optarg;
			break;
		case OPT_LEASE:
			ok =
			    cli_option_duration("--lease", optarg, CLI_UNIT_REQUIRED,
			                        PLAN_LEASE_MIN_S, PLAN_LEASE_MAX_S, &a.lease_max_s);
			lease_given = true;
			break;
		case OPT_SHARD_DIR:
			a.shard_dir = optarg;
			break;
		case OPT_PLANS:
			ok = plan_cycle_parse(optarg, &a.cycle.plans);
			plans_given = true;
			break;
		case OPT_INTERVAL:
			ok = cli_option_duration("--interval", optarg, CLI_UNIT_REQUIRED, 0.01, 60,
			                         &a.interval_s);
			planned_option = true;
			break;
		case OPT_LISTEN:
			listen_text = optarg;
			break;
		case OPT_RUN:
			a.labels.run = optarg;
			planned_option = true;
			break;
		case OPT_HOST:
			a.labels.host = optarg;
			break;
		case OPT_VARIANT:
			a.labels.variant = optarg;
			planned_option = true;
			break;
		case OPT_DURATION:
			ok = cli_option_duration("--duration", optarg, CLI_UNIT_REQUIRED, 0.01,
			                         86400 * 30, &duration_s);
			break;
		case OPT_READY:
			ready_file = optarg;
			break;
		case OPT_RECORD:
			record = optarg;
			break;
		case OPT_TOKEN_FILE:
			token_file = optarg;
			break;
		case OPT_TOKEN_METRICS:
			a.token_metrics = true;
			break;
		case OPT_VERSION:
			printf("allocspike-agent %s\n", ALLOCSPIKE_VERSION);
			return CLI_EXIT_OK;
		case OPT_HELP:
			agent_usage(stdout);
			return CLI_EXIT_OK;
		default:
			agent_usage(stderr);
			return CLI_EXIT_USAGE;
		}
		if (!ok)
			return CLI_EXIT_USAGE;
	}
	/* --start: the run's resolver options after "--", passed on to the row */
	if (row->row && optind > 1 && strcmp(argv[optind - 1], "--") == 0) {
		row->options = argv + optind;
		row->n_options = (size_t)(argc - optind);
		optind = argc;
	}
	if (optind < argc) {
		fprintf(stderr, "allocspike-agent: unexpected argument '%s'\n", argv[optind]);
		agent_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (a.unit && (pid != 0 || pid_from_control || row->row || a.await_plan)) {
		fprintf(stderr,
		        "allocspike-agent: --systemd-unit takes no --pid, --pid-from-control, "
		        "--start or --await-plan: the unit names the process\n");
		return CLI_EXIT_USAGE;
	}
	const char *start_problem =
	    a.await_plan
	        ? (row->row || pid != 0 || pid_from_control
	               ? "--await-plan takes no --start, --pid or --pid-from-control: the plan "
	                 "names the row"
	           : planned_option ? "--await-plan takes no --interval, --run or --variant: the "
	                              "plan names them"
	           : !row->table    ? "--await-plan needs --variants-table FILE"
	           : !control       ? "--await-plan needs --control PATH (the row's socket)"
	           : !token_file    ? "--await-plan needs --token-file F: a plan starts a process"
	                            : NULL)
	    : lease_given                  ? "--lease goes with --await-plan (a plan's lease)"
	    : a.shard_dir                  ? "--shard-dir goes with --await-plan (a shard plan)"
	    : plans_given                  ? "--plans goes with --await-plan (the plans it takes)"
	    : !row->row                    ? (row->table || row->root_hints || row->upstream_port ||
                                   row->upstream_source || row->listen
	                                          ? "--variants-table, --root-hints, --upstream-port, "
	                                            "--upstream-source and --resolver-listen go with --start or "
	                                            "--await-plan"
	                                          : NULL)
	    : pid != 0 || pid_from_control ? "--start takes no --pid or --pid-from-control"
	    : !row->table                  ? "--start needs --variants-table FILE"
	    : !control                     ? "--start needs --control PATH (the row's socket)"
	                                   : NULL;
	if (start_problem) {
		fprintf(stderr, "allocspike-agent: %s\n", start_problem);
		return CLI_EXIT_USAGE;
	}
	if (pid_from_control && (pid != 0 || !control)) {
		fprintf(stderr,
		        "allocspike-agent: --pid-from-control needs --control and no --pid\n");
		return CLI_EXIT_USAGE;
	}
	if (pid == 0 && !pid_from_control && !a.unit && !row->row && !a.await_plan) {
		fprintf(stderr, "allocspike-agent: --pid is required\n");
		agent_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	struct sockaddr_storage listen_addr;
	socklen_t listen_len;
	char err[4096]; /* a table's FILE:LINE: reason, for --start */
	if (!sockaddr_parse(listen_text, AGENT_DEFAULT_PORT, &listen_addr, &listen_len, err,
	                    sizeof(err))) {
		fprintf(stderr, "allocspike-agent: --listen: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	if (a.token_metrics && !token_file) {
		fprintf(stderr, "allocspike-agent: --token-metrics needs --token-file\n");
		return CLI_EXIT_USAGE;
	}
	if (token_file &&
	    !bearer_token_load(token_file, a.token, sizeof(a.token), err, sizeof(err))) {
		fprintf(stderr, "allocspike-agent: --token-file %s\n", err);
		return CLI_EXIT_USAGE;
	}
	if (a.labels.host == hostname && gethostname(hostname, sizeof(hostname) - 1) != 0)
		snprintf(hostname, sizeof(hostname), "unknown");

	row->control = control;
	a.root_hints_given = row->root_hints;
	if (a.await_plan) { /* the table must read now, not when the plan comes */
		struct variants_table table;
		if (!variants_table_read(&table, row->table, err, sizeof(err))) {
			fprintf(stderr, "allocspike-agent: --variants-table %s\n", err);
			return CLI_EXIT_USAGE;
		}
		variants_table_free(&table);
	}
	bool refused = false;
	char resolver[160];
	if (row->row && !row_start(row, AGENT_ROW_READY_S, &a.row_pid, &a.sampled_pid, resolver,
	                           sizeof(resolver), &refused, err, sizeof(err))) {
		fprintf(stderr, "allocspike-agent: --start %s: %s\n", row->row, err);
		return refused ? CLI_EXIT_USAGE : CLI_EXIT_FAILED;
	}
	pid = a.row_pid ? (unsigned long long)a.sampled_pid : pid;
	if (pid_from_control && (pid = (unsigned long long)control_peer_pid(
	                             control, AGENT_PEER_WAIT_S, err, sizeof(err))) == 0) {
		fprintf(stderr, "allocspike-agent: --pid-from-control: %s\n", err);
		return CLI_EXIT_FAILED;
	}
	if (a.unit &&
	    (pid = (unsigned long long)systemd_unit_main_pid(a.unit, err, sizeof(err))) == 0) {
		fprintf(stderr, "allocspike-agent: --systemd-unit %s: %s\n", a.unit, err);
		return CLI_EXIT_FAILED;
	}
	a.unit_asked_ns = monotonic_ns();
	/* appended to: an agent restarted in a run goes on in the same record, its gap visible */
	a.record_path = record;
	if (record && (a.record_fd = record_open(record, &a.next_seq)) < 0) {
		fprintf(stderr, "allocspike-agent: --record %s: %s\n", record, strerror(errno));
		return agent_row_end(a.row_pid, CLI_EXIT_FAILED);
	}
	plan_cycle_begin(&a.cycle, a.next_seq); /* no plan yet: none of the record is a plan's */
	signal(SIGPIPE, SIG_IGN);
	a.base = event_base_new();
	char bound[96];
	struct evhttp *http =
	    a.base ? agent_listen(&a, &listen_addr, listen_len, bound, sizeof(bound)) : NULL;
	a.tick = a.base ? event_new(a.base, -1, EV_PERSIST, agent_tick, &a) : NULL;
	a.plan_poll = a.base ? event_new(a.base, -1, EV_PERSIST, agent_plan_poll, &a) : NULL;
	a.shard_watch = a.base ? event_new(a.base, -1, EV_PERSIST, agent_shard_watch, &a) : NULL;
	bool lease_ready = a.base && agent_lease_init(&a.lease, a.base, agent_lease_expired, &a);
	struct event *term = a.base ? evsignal_new(a.base, SIGTERM, agent_stop, a.base) : NULL;
	struct event *intr = a.base ? evsignal_new(a.base, SIGINT, agent_stop, a.base) : NULL;
	int rc = CLI_EXIT_OK;
	if (!http || !a.tick || !a.plan_poll || !a.shard_watch || !lease_ready || !term || !intr ||
	    event_add(term, NULL) != 0 || event_add(intr, NULL) != 0) {
		if (http)
			fprintf(stderr, "allocspike-agent: libevent could not set up its events\n");
		rc = CLI_EXIT_FAILED;
	} else if (!a.await_plan &&
	           !agent_sampling_start(&a, (pid_t)pid, control, err, sizeof(err))) {
		fprintf(stderr, "allocspike-agent: --pid %llu: %s\n", pid, err);
		rc = CLI_EXIT_FAILED;
	} else {
		if (ready_file && !agent_write_ready(ready_file, bound))
			rc = CLI_EXIT_FAILED;
		else {
			if (duration_s > 0) {
				struct timeval d = seconds_timeval(duration_s);
				event_base_loopexit(a.base, &d);
			}
			event_base_dispatch(a.base);
		}
	}
	fprintf(stderr,
	        "allocspike-agent: %llu reads (%llu without control answer%s%s), %llu scrapes\n",
	        a.sampler.samples, a.sampler.control_failures,
	        a.sampler.control_failures ? "; the last: " : "",
	        a.sampler.control_failures ? a.sampler.control_error : "", a.scrapes);
	agent_plan_end_held(&a, "the agent is ending");
	systemd_unit_ask_cancel(a.unit_ask);
	if (a.tick)
		event_free(a.tick);
	if (a.plan_poll)
		event_free(a.plan_poll);
	if (a.shard_watch)
		event_free(a.shard_watch);
	agent_lease_free(&a.lease);
	if (term)
		event_free(term);
	if (intr)
		event_free(intr);
	agent_streams_end(&a);
	if (http)
		evhttp_free(http);
	if (a.base)
		event_base_free(a.base);
	if (a.record_fd >= 0 && close(a.record_fd) != 0 && !a.record_failed) {
		fprintf(stderr, "allocspike-agent: --record %s: %s\n", record, strerror(errno));
		rc = CLI_EXIT_FAILED;
	}
	if (a.sampler_open)
		agent_sampler_close(&a.sampler);
	plan_request_free(&a.plan);
	free(a.plan_answer);
	return agent_row_end(a.row_pid,
	                     a.lease_expired && rc == CLI_EXIT_OK ? AGENT_EXIT_LEASE : rc);
}
