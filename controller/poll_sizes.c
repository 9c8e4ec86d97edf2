/* controller/poll_sizes.c - allocspike-run poll-sizes (poll_sizes.h). */
#include "poll_sizes.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_parse.h"
#include "control_client.h"
#include "monotonic.h"

/* A socket that has not answered within this long is skipped for the round. */
#define POLL_SIZES_ANSWER_MS 1000

struct poll_target {
	char *name, *sampler, *control; /* control: NULL for a daemon (its sampler has inflight) */
	int fd;                         /* OUT_DIR/NAME.jsonl, appended to */
};

void poll_sizes_usage(FILE *out)
{
	fprintf(
	    out,
	    "allocspike-run poll-sizes OUT_DIR PERIOD MAX NAME=SAMPLER_SOCKET[,CONTROL_SOCKET]...\n"
	    "  every PERIOD, each row's live sampler asked for `stats` (and inflight from its\n"
	    "  control socket when given), one JSON line appended to OUT_DIR/NAME.jsonl; stops\n"
	    "  after MAX, when its parent goes, or on SIGTERM (exit 0, between two lines)\n");
}

/* NAME=SAMPLER[,CONTROL] split in place into t; false (said) when it is no such word. */
static bool poll_sizes_target(char *word, struct poll_target *t)
{
	char *eq = strchr(word, '=');
	char *comma = eq ? strchr(eq + 1, ',') : NULL;
	if (!eq || eq == word || eq[1] == '\0' || comma == eq + 1) {
		fprintf(stderr,
		        "allocspike-run poll-sizes: bad target '%s' (want NAME=SOCKET[,CONTROL])\n",
		        word);
		return false;
	}
	*eq = '\0';
	if (comma)
		*comma = '\0';
	t->name = word;
	t->sampler = eq + 1;
	t->control = comma && comma[1] ? comma + 1 : NULL;
	t->fd = -1;
	return true;
}

/* The line's unix_s: the wall clock to the millisecond, as Python's round(time.time(), 3). */
static double poll_sizes_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	char text[40];
	snprintf(text, sizeof(text), "%.3f", (double)ts.tv_sec + ts.tv_nsec / 1e9);
	return strtod(text, NULL);
}

/* line's key, null when it lacks one (as Python's dict.get gives it): a key of the record is
 * never left out, so the keys keep their order. */
static json_t *poll_sizes_key(const json_t *line, const char *key)
{
	json_t *v = json_object_get(line, key);
	return v ? v : json_null();
}

/* One round's line for t, or NULL when its sampler did not answer (skipped this round). */
static json_t *poll_sizes_record(const struct poll_target *t)
{
	char err[512];
	json_t *line = control_stats_object(t->sampler, POLL_SIZES_ANSWER_MS, err, sizeof(err));
	if (!line)
		return NULL;
	json_t *inflight = json_incref(json_object_get(line, "inflight"));
	json_t *age = json_incref(json_object_get(line, "daemon_stats_age_s"));
	if (t->control) { /* our build: asked at once, so its figure is 0 s old */
		json_decref(inflight);
		json_decref(age);
		json_t *ctl =
		    control_stats_object(t->control, POLL_SIZES_ANSWER_MS, err, sizeof(err));
		inflight = ctl ? json_incref(json_object_get(ctl, "inflight")) : NULL;
		age = ctl ? json_real(0.0) : NULL;
		json_decref(ctl);
	}
	json_t *rec = json_object();
	json_object_set_new(rec, "unix_s", json_real(poll_sizes_now()));
	json_object_set(rec, "live_bytes", poll_sizes_key(line, "live_bytes"));
	json_object_set(rec, "live_blocks", poll_sizes_key(line, "live_blocks"));
	json_object_set_new(rec, "inflight", inflight ? inflight : json_null());
	json_object_set_new(rec, "inflight_age_s", age ? age : json_null());
	json_object_set(rec, "size_classes", poll_sizes_key(line, "size_classes"));
	json_decref(line);
	return rec;
}

/* rec appended to fd as one line in one write, so a reader never sees half of it. */
static bool poll_sizes_append(int fd, const json_t *rec)
{
	/* keys in the record's order; 16 digits keep a wall-clock time's millisecond */
	char *text = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(16));
	if (!text)
		return false;
	size_t len = strlen(text);
	text[len++] = '\n'; /* over the terminator: the line and its newline in one write */
	bool ok = write(fd, text, len) == (ssize_t)len;
	free(text);
	return ok;
}

/* Whether the run asked us to stop (SIGTERM, blocked, is pending). */
static bool poll_sizes_stop_asked(void)
{
	sigset_t pending;
	sigpending(&pending);
	return sigismember(&pending, SIGTERM) == 1;
}

static int poll_sizes_loop(struct poll_target *targets, int count, double period_s, double max_s)
{
	/* SIGTERM blocked: it ends the poller between two lines, with status 0 (the run's stop
	 * signals the whole group, and an exit by a signal would read as a failure) */
	sigset_t term;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	pid_t parent = getppid();
	prctl(PR_SET_PDEATHSIG, SIGTERM); /* the run's controller gone: we go too */
	uint64_t start = monotonic_ns(), max_ns = (uint64_t)(max_s * 1e9);
	while (monotonic_ns() - start < max_ns && getppid() == parent) {
		uint64_t round_start = monotonic_ns();
		for (int i = 0; i < count; i++) {
			if (poll_sizes_stop_asked())
				return CLI_EXIT_OK;
			json_t *rec = poll_sizes_record(&targets[i]);
			if (rec && !poll_sizes_append(targets[i].fd, rec))
				fprintf(stderr, "allocspike-run poll-sizes: %s.jsonl: %s\n",
				        targets[i].name, strerror(errno));
			json_decref(rec);
		}
		uint64_t spent = monotonic_ns() - round_start,
		         period_ns = (uint64_t)(period_s * 1e9);
		uint64_t wait = spent < period_ns ? period_ns - spent : 0;
		struct timespec ts = {(time_t)(wait / 1000000000u), (long)(wait % 1000000000u)};
		if (sigtimedwait(&term, NULL, &ts) == SIGTERM)
			return CLI_EXIT_OK;
	}
	return CLI_EXIT_OK;
}

int poll_sizes_main(int argc, char **argv)
{
	double period_s, max_s;
	if (argc < 5) {
		poll_sizes_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!cli_option_duration("PERIOD", argv[2], 1, 0.001, 86400, &period_s) ||
	    !cli_option_duration("MAX", argv[3], 1, 0, 366 * 86400.0, &max_s))
		return CLI_EXIT_USAGE;
	int count = argc - 4;
	struct poll_target *targets = calloc((size_t)count, sizeof(*targets));
	if (!targets)
		return CLI_EXIT_FAILED;
	int status = CLI_EXIT_OK;
	for (int i = 0; i < count && status == CLI_EXIT_OK; i++)
		if (!poll_sizes_target(argv[4 + i], &targets[i]))
			status = CLI_EXIT_USAGE;
	if (status == CLI_EXIT_OK && mkdir(argv[1], 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "allocspike-run poll-sizes: %s: %s\n", argv[1], strerror(errno));
		status = CLI_EXIT_FAILED;
	}
	for (int i = 0; i < count && status == CLI_EXIT_OK; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s.jsonl", argv[1], targets[i].name);
		targets[i].fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
		if (targets[i].fd < 0) {
			fprintf(stderr, "allocspike-run poll-sizes: %s: %s\n", path,
			        strerror(errno));
			status = CLI_EXIT_FAILED;
		}
	}
	if (status == CLI_EXIT_OK)
		status = poll_sizes_loop(targets, count, period_s, max_s);
	for (int i = 0; i < count; i++)
		if (targets[i].fd >= 0)
			close(targets[i].fd);
	free(targets);
	return status;
}
