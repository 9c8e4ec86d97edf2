/* controller/stop.c - allocspike-run stop and leftovers (stop.h). */
#include "stop.h"

#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cli_parse.h"
#include "proc_stat.h"
#include "proc_stop.h"
#include "processes_file.h"

#define STOP_MAX_TARGETS 256

void stop_usage(FILE *out)
{
	fprintf(
	    out,
	    "allocspike-run stop [--grace DUR] [--now] NAME:PID:START_TICKS...\n"
	    "  SIGTERM to each process group at once, SIGKILL after DUR (default 5s; --now: at\n"
	    "  once); a PID whose start time changed is never signalled; INT, TERM or HUP\n"
	    "  during the stop only drop the grace\n"
	    "allocspike-run leftovers NAME:PID:START_TICKS...\n"
	    "allocspike-run leftovers --run DIR\n"
	    "  prints NAME:PID of each process, or its group, still there (--run: each row of\n"
	    "  DIR/processes.tsv but the script's and the controller's)\n");
}

struct stop_state {
	int signal_fd;
	bool hurry;
	struct proc_target *const *targets;
	size_t count;
};

/* A signal only hurries the stop; pidfds wake the wait when a process ends. */
static void stop_wait(void *ctx, double timeout_s)
{
	struct stop_state *st = ctx;
	struct pollfd fds[STOP_MAX_TARGETS + 1];
	nfds_t n = 0;
	if (st->signal_fd >= 0)
		fds[n++] = (struct pollfd){.fd = st->signal_fd, .events = POLLIN};
	for (size_t i = 0; i < st->count; i++)
		if (st->targets[i]->pidfd >= 0)
			fds[n++] = (struct pollfd){.fd = st->targets[i]->pidfd, .events = POLLIN};
	poll(fds, n, timeout_s <= 0 ? 0 : (int)(timeout_s * 1000 + 0.5));
	struct signalfd_siginfo info;
	while (st->signal_fd >= 0 && read(st->signal_fd, &info, sizeof(info)) == sizeof(info))
		st->hurry = true;
}

/* The NAME:PID:START_TICKS arguments from optind on; false (said) when one is malformed. */
static bool stop_parse_targets(const char *cmd, int argc, char **argv, struct proc_target *targets,
                               size_t *count)
{
	*count = 0;
	if (optind >= argc || argc - optind > STOP_MAX_TARGETS) {
		fprintf(stderr, "allocspike-run %s: 1 to %d NAME:PID:START_TICKS are expected\n",
		        cmd, STOP_MAX_TARGETS);
		return false;
	}
	for (int i = optind; i < argc; i++) {
		if (!proc_target_parse(argv[i], &targets[*count])) {
			fprintf(stderr,
			        "allocspike-run %s: '%s' is not NAME:PID:START_TICKS (e.g. "
			        "glibc:4242:123456)\n",
			        cmd, argv[i]);
			return false;
		}
		(*count)++;
	}
	return true;
}

int stop_main(int argc, char **argv)
{
	enum { OPT_GRACE = 256, OPT_NOW, OPT_HELP };
	static const struct option opts[] = {
	    {"grace", required_argument, NULL, OPT_GRACE},
	    {"now", no_argument, NULL, OPT_NOW},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	double grace_s = 5;
	bool now = false;
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == OPT_GRACE &&
		    cli_option_duration("--grace", optarg, CLI_UNIT_REQUIRED, 0, 600, &grace_s))
			continue;
		if (c == OPT_NOW) {
			now = true;
			continue;
		}
		if (c == OPT_HELP) {
			stop_usage(stdout);
			return CLI_EXIT_OK;
		}
		stop_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	static struct proc_target targets[STOP_MAX_TARGETS];
	size_t count;
	if (!stop_parse_targets("stop", argc, argv, targets, &count))
		return CLI_EXIT_USAGE;
	/* read from a signalfd from here on: no signal can cut the stop short */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct stop_state st = {.signal_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK),
	                        .hurry = now};
	struct proc_target *open[STOP_MAX_TARGETS];
	size_t opened = 0;
	for (size_t i = 0; i < count; i++) {
		struct proc_stat f;
		if (proc_target_open(&targets[i]))
			open[opened++] = &targets[i];
		else if (proc_stat_read(targets[i].pid, &f) &&
		         f.start_ticks != targets[i].start_ticks)
			fprintf(stderr,
			        "allocspike-run: %s: pid %ld is no longer the process the run "
			        "started; not signalled\n",
			        targets[i].name, (long)targets[i].pid);
	}
	st.targets = open;
	st.count = opened;
	struct proc_stop_waiter w = {.wait = stop_wait, .ctx = &st, .hurry = &st.hurry};
	proc_stop_targets(open, opened, grace_s, &w);
	for (size_t i = 0; i < opened; i++)
		proc_target_close(open[i]);
	if (st.signal_fd >= 0)
		close(st.signal_fd);
	return CLI_EXIT_OK;
}

int leftovers_main(int argc, char **argv)
{
	static struct proc_target targets[STOP_MAX_TARGETS];
	size_t count;
	if (argc == 3 && strcmp(argv[1], "--run") == 0) {
		/* the run's controller is gone: its rows are what it started */
		bool owner_alive;
		long rows = processes_file_read(argv[2], targets, STOP_MAX_TARGETS, &owner_alive);
		if (rows < 0) {
			fprintf(stderr,
			        "allocspike-run leftovers: %s/processes.tsv cannot be read\n",
			        argv[2]);
			return CLI_EXIT_FAILED;
		}
		count = (size_t)rows;
	} else {
		optind = 1;
		if (argc > 1 && strcmp(argv[1], "--") == 0)
			optind = 2;
		if (!stop_parse_targets("leftovers", argc, argv, targets, &count))
			return CLI_EXIT_USAGE;
	}
	struct proc_target *list[STOP_MAX_TARGETS];
	for (size_t i = 0; i < count; i++)
		list[i] = &targets[i];
	struct stop_state st = {.signal_fd = -1, .targets = list, .count = 0};
	struct proc_stop_waiter w = {.wait = stop_wait, .ctx = &st, .hurry = &st.hurry};
	char text[16384];
	if (proc_stop_leftovers(list, count, &w, text, sizeof(text)))
		fputs(text, stdout);
	return CLI_EXIT_OK;
}
