/* controller/collect.c - allocspike-run collect: measures every agent's clock (refusing a run it
 * cannot place), reads every agent's stream until the end, fills what a dropped stream missed
 * from the agent's record, and writes each agent's reads placed on our clock (collect.h). */
#include "collect.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent_link.h"
#include "atomic_write_file.h"
#include "bearer_token.h"
#include "cli_parse.h"
#include "identifier.h"
#include "monotonic.h"
#include "sockaddr_parse.h"

#define COLLECT_MAX_AGENTS 64
#define COLLECT_DEFAULT_PORT 9110 /* the agent's (docs/agent.md) */
#define COLLECT_CLOCK_EXCHANGES 8
/* How long the records may take to come once the streams are closed. */
#define COLLECT_RECORD_WAIT_S 30

struct collect_plan {
	struct agent_link agents[COLLECT_MAX_AGENTS];
	unsigned agent_count;
	const char *out, *token_file;
	char token[BEARER_TOKEN_MAX + 1];
	double duration_s; /* 0: until SIGINT or SIGTERM */
	double clock_bound_s, clock_every_s;
	uint64_t start_at_ns; /* --start-at: the run's t_s 0, CLOCK_REALTIME; 0: the start */
	bool dry_run;
};

struct collect_run {
	struct collect_plan *plan;
	struct events_log events;
	struct event_base *base;
	bool interrupted;
};

void collect_usage(FILE *out)
{
	fprintf(out,
	        "usage: allocspike-run collect --agent NAME=ADDR[:PORT] [--agent ...] --out DIR\n"
	        "                              [options]\n"
	        "  --agent NAME=ADDR[:PORT]  an agent (docs/agent.md; port default %d); its reads\n"
	        "                            go to DIR/agents/NAME.jsonl (NAME: an identifier)\n"
	        "  --out DIR                 the run folder: events.jsonl and agents/\n"
	        "  --duration DUR            collect this long (default: until SIGINT or SIGTERM)\n"
	        "  --clock-bound DUR         refuse the run when an agent's offset is not known\n"
	        "                            within this (half the best round trip; default 5ms)\n"
	        "  --clock-every DUR         measure the offsets again this often (default 5s)\n"
	        "  --token-file F            the agents' bearer token (mode 0600 or stricter)\n"
	        "  --start-at T              the schedule's start (seconds since the epoch, as\n"
	        "                            place prints it): t_s 0 of the events\n"
	        "                            (default: when the collection starts)\n"
	        "  --dry-run                 print what would be done, contact nothing\n"
	        "Exit: 0 done, 1 refused or failed, 2 usage (docs/controller.md)\n",
	        COLLECT_DEFAULT_PORT);
}

/* NAME=ADDR[:PORT] into the plan's next agent. */
static bool collect_parse_agent(struct collect_plan *plan, const char *text)
{
	const char *addr_text;
	char name[IDENTIFIER_MAX_LEN + 1], why[200], err[256];
	if (plan->agent_count == COLLECT_MAX_AGENTS) {
		fprintf(stderr, "allocspike-run collect: at most %d agents\n", COLLECT_MAX_AGENTS);
		return false;
	}
	if (!identifier_assignment(text, name, &addr_text, why, sizeof(why))) {
		fprintf(stderr, "allocspike-run collect: --agent '%s': %s (NAME=ADDR[:PORT])\n",
		        text, why);
		return false;
	}
	for (unsigned i = 0; i < plan->agent_count; i++)
		if (strcmp(plan->agents[i].name, name) == 0) {
			fprintf(stderr, "allocspike-run collect: --agent %s given twice\n", name);
			return false;
		}
	struct sockaddr_storage addr;
	socklen_t addr_len;
	if (!sockaddr_parse(addr_text, COLLECT_DEFAULT_PORT, &addr, &addr_len, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run collect: --agent %s: %s\n", name, err);
		return false;
	}
	agent_link_init(&plan->agents[plan->agent_count++], name, (struct sockaddr *)&addr,
	                addr_len, NULL, NULL);
	return true;
}

/* Options into plan; CLI_EXIT_OK to go on, or the exit status. */
static int collect_parse(struct collect_plan *plan, int argc, char **argv)
{
	enum {
		OPT_AGENT = 256,
		OPT_OUT,
		OPT_DURATION,
		OPT_CLOCK_BOUND,
		OPT_CLOCK_EVERY,
		OPT_TOKEN_FILE,
		OPT_START_AT,
		OPT_DRY_RUN,
		OPT_HELP
	};
	static const struct option opts[] = {
	    {"agent", required_argument, NULL, OPT_AGENT},
	    {"out", required_argument, NULL, OPT_OUT},
	    {"duration", required_argument, NULL, OPT_DURATION},
	    {"clock-bound", required_argument, NULL, OPT_CLOCK_BOUND},
	    {"clock-every", required_argument, NULL, OPT_CLOCK_EVERY},
	    {"token-file", required_argument, NULL, OPT_TOKEN_FILE},
	    {"start-at", required_argument, NULL, OPT_START_AT},
	    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		bool ok = true;
		switch (c) {
		case OPT_AGENT:
			ok = collect_parse_agent(plan, optarg);
			break;
		case OPT_OUT:
			plan->out = optarg;
			break;
		case OPT_DURATION:
			ok = cli_option_duration("--duration", optarg, CLI_UNIT_REQUIRED, 0.01,
			                         86400 * 30, &plan->duration_s);
			break;
		case OPT_CLOCK_BOUND:
			ok = cli_option_duration("--clock-bound", optarg, CLI_UNIT_REQUIRED, 0, 60,
			                         &plan->clock_bound_s);
			break;
		case OPT_CLOCK_EVERY:
			ok = cli_option_duration("--clock-every", optarg, CLI_UNIT_REQUIRED, 0.1,
			                         3600, &plan->clock_every_s);
			break;
		case OPT_TOKEN_FILE:
			plan->token_file = optarg;
			break;
		case OPT_START_AT: /* the generator's grammar for the same time */
			ok = cli_option_epoch("--start-at", optarg, &plan->start_at_ns);
			break;
		case OPT_DRY_RUN:
			plan->dry_run = true;
			break;
		case OPT_HELP:
			collect_usage(stdout);
			return -1;
		default:
			collect_usage(stderr);
			return CLI_EXIT_USAGE;
		}
		if (!ok)
			return CLI_EXIT_USAGE;
	}
	const char *missing = plan->agent_count == 0 ? "--agent" : !plan->out ? "--out" : NULL;
	if (optind < argc || missing) {
		if (optind < argc)
			fprintf(stderr, "allocspike-run collect: unexpected argument '%s'\n",
			        argv[optind]);
		else
			fprintf(stderr, "allocspike-run collect: %s is required\n", missing);
		collect_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	char err[512];
	if (plan->token_file && !bearer_token_load(plan->token_file, plan->token,
	                                           sizeof(plan->token), err, sizeof(err))) {
		fprintf(stderr, "allocspike-run collect: --token-file %s\n", err);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

static void collect_print_plan(const struct collect_plan *plan)
{
	printf("allocspike-run collect: dry run, nothing contacted\n");
	printf("run folder: %s (events.jsonl; agents/NAME.jsonl)\n", plan->out);
	if (plan->duration_s > 0)
		printf("duration: %gs\n", plan->duration_s);
	else
		printf("duration: until SIGINT or SIGTERM\n");
	printf("clock: %d exchanges per agent before the run, refused over +-%gms; again every "
	       "%gs\n",
	       COLLECT_CLOCK_EXCHANGES, plan->clock_bound_s * 1000, plan->clock_every_s);
	printf("token: %s\n", plan->token_file ? plan->token_file : "none");
	if (plan->start_at_ns)
		printf("events: t_s 0 at %.9f (--start-at)\n", (double)plan->start_at_ns / 1e9);
	else
		printf("events: t_s 0 when the collection starts\n");
	for (unsigned i = 0; i < plan->agent_count; i++)
		printf("agent %s at %s: GET /time, GET /samples -> %s/agents/%s.jsonl; on a drop "
		       "reconnect, then GET /record at the end\n",
		       plan->agents[i].name, plan->agents[i].addr_text, plan->out,
		       plan->agents[i].name);
}

/* Opens DIR/agents/NAME.jsonl new for each agent: reads already collected there are not
 * overwritten. */
static bool collect_open_outputs(struct collect_plan *plan, int *fds)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/agents", plan->out);
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "allocspike-run collect: %s: %s\n", path, strerror(errno));
		return false;
	}
	for (unsigned i = 0; i < plan->agent_count; i++) {
		snprintf(path, sizeof(path), "%s/agents/%s.jsonl", plan->out, plan->agents[i].name);
		fds[i] = file_open_for_writing(path, O_CREAT | O_EXCL | O_APPEND);
		if (fds[i] < 0) {
			fprintf(stderr, "allocspike-run collect: %s: %s\n", path,
			        errno == EEXIST ? "already there (another collection's)"
			                        : strerror(errno));
			while (i > 0)
				close(fds[--i]);
			return false;
		}
	}
	return true;
}

static void collect_clock_tick(evutil_socket_t fd, short what, void *arg)
{
	struct collect_run *run = arg;
	char err[256];
	for (unsigned i = 0; i < run->plan->agent_count; i++)
		agent_link_measure(&run->plan->agents[i], COLLECT_CLOCK_EXCHANGES,
		                   run->plan->clock_bound_s * 1000, err, sizeof(err));
}

static void collect_signal(evutil_socket_t sig, short what, void *arg)
{
	struct collect_run *run = arg;
	run->interrupted = true;
	event_base_loopbreak(run->base);
}

static void collect_timeout(evutil_socket_t fd, short what, void *arg)
{
	event_base_loopbreak(arg);
}

/* Every stream until the duration or a signal, then the records where streams dropped. */
static bool collect_streams(struct collect_run *run, int *fds)
{
	struct collect_plan *plan = run->plan;
	struct event *tick = event_new(run->base, -1, EV_PERSIST, collect_clock_tick, run);
	struct event *term = evsignal_new(run->base, SIGTERM, collect_signal, run);
	struct event *intr = evsignal_new(run->base, SIGINT, collect_signal, run);
	struct event *end = evtimer_new(run->base, collect_timeout, run->base);
	struct timeval every = seconds_timeval(plan->clock_every_s);
	struct timeval duration = seconds_timeval(plan->duration_s);
	bool ok = tick && term && intr && end && event_add(tick, &every) == 0 &&
	          event_add(term, NULL) == 0 && event_add(intr, NULL) == 0 &&
	          (plan->duration_s == 0 || evtimer_add(end, &duration) == 0);
	for (unsigned i = 0; i < plan->agent_count; i++) {
		if (ok)
			ok = agent_link_start(&plan->agents[i], run->base, fds[i]);
		else
			close(fds[i]);
		fds[i] = -1; /* the link's now, or closed */
	}
	uint64_t from_ns = realtime_ns();
	if (ok)
		event_base_dispatch(run->base);
	else
		fprintf(stderr, "allocspike-run collect: libevent could not set up its events\n");
	uint64_t to_ns = realtime_ns();
	if (tick)
		event_del(tick);
	for (unsigned i = 0; i < plan->agent_count; i++)
		agent_link_stop(&plan->agents[i]);
	/* also after a signal (everything written); a signal while waiting ends the wait */
	unsigned pending = 0;
	for (unsigned i = 0; ok && i < plan->agent_count; i++)
		agent_link_fetch_record(&plan->agents[i], from_ns, to_ns, &pending);
	if (pending > 0) {
		struct timeval wait = seconds_timeval(COLLECT_RECORD_WAIT_S);
		evtimer_add(end, &wait);
		event_base_dispatch(run->base);
	}
	for (unsigned i = 0; i < plan->agent_count; i++)
		agent_link_stop(&plan->agents[i]); /* a fetch not answered in time */
	struct event *events[] = {tick, term, intr, end};
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (events[i])
			event_free(events[i]);
	return ok;
}

/* Each agent's reads placed, whole, and what was collected said. */
static bool collect_write(struct collect_run *run)
{
	bool ok = true;
	for (unsigned i = 0; i < run->plan->agent_count; i++) {
		struct agent_link *link = &run->plan->agents[i];
		char path[4200], err[4400];
		snprintf(path, sizeof(path), "%s/agents/%s.jsonl", run->plan->out, link->name);
		if (!agent_series_write(&link->series, &link->clock, path, err, sizeof(err))) {
			fprintf(stderr, "allocspike-run collect: %s\n", err);
			ok = false;
		}
		size_t streamed = agent_series_count(&link->series, SERIES_FROM_STREAM);
		size_t recorded = agent_series_count(&link->series, SERIES_FROM_RECORD);
		fprintf(
		    stderr,
		    "allocspike-run collect: agent %s: %zu reads (%zu from the stream, %zu from "
		    "the record), %u drops\n",
		    link->name, streamed + recorded, streamed, recorded, link->drops);
		events_log_add(&run->events, link->name, "collected",
		               json_pack("{s:i, s:i, s:i}", "stream", (int)streamed, "record",
		                         (int)recorded, "drops", (int)link->drops));
	}
	return ok;
}

int collect_main(int argc, char **argv)
{
	static struct collect_plan plan; /* 64 links: not on the stack */
	plan.clock_bound_s = 0.005;
	plan.clock_every_s = 5;
	int rc = collect_parse(&plan, argc, argv);
	if (rc != CLI_EXIT_OK)
		return rc < 0 ? CLI_EXIT_OK : rc;
	if (plan.dry_run) {
		collect_print_plan(&plan);
		return CLI_EXIT_OK;
	}
	struct collect_run run = {.plan = &plan};
	char err[4400];
	if (!runfolder_writer_open(&run.events.writer, plan.out, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run collect: %s\n", err);
		return CLI_EXIT_FAILED;
	}
	/* the schedule's clock when it is known, so these events line up with the generator's */
	run.events.t0_ns = plan.start_at_ns ? plan.start_at_ns : realtime_ns();
	for (unsigned i = 0; i < plan.agent_count; i++) {
		plan.agents[i].events = &run.events;
		plan.agents[i].token = plan.token_file ? plan.token : NULL;
	}
	/* before anything is collected: every offset known within the bound */
	bool ok = true;
	for (unsigned i = 0; ok && i < plan.agent_count; i++) {
		struct agent_link *link = &plan.agents[i];
		if (!agent_link_measure(link, COLLECT_CLOCK_EXCHANGES, plan.clock_bound_s * 1000,
		                        err, sizeof(err))) {
			fprintf(stderr,
			        "allocspike-run collect: agent %s (%s): %s; the run is refused\n",
			        link->name, link->addr_text, err);
			events_log_add(&run.events, "_controller", "failed",
			               json_pack("{s:s}", "reason", err));
			ok = false;
		}
	}
	int fds[COLLECT_MAX_AGENTS];
	ok = ok && collect_open_outputs(&plan, fds);
	signal(SIGPIPE, SIG_IGN);
	run.base = ok ? event_base_new() : NULL;
	if (run.base) {
		ok = collect_streams(&run, fds) && collect_write(&run);
		events_log_add(&run.events, "_controller",
		               run.interrupted ? "interrupted" : "ended", NULL);
	}
	for (unsigned i = 0; i < plan.agent_count; i++)
		agent_link_free(&plan.agents[i]);
	if (run.base)
		event_base_free(run.base);
	if (!runfolder_writer_close(&run.events.writer)) {
		fprintf(stderr, "allocspike-run collect: %s\n",
		        runfolder_writer_failure(&run.events.writer));
		ok = false;
	}
	return ok ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}
