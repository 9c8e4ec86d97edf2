/* controller/serve_conduct.h - a conducted run (allocspike-run conduct, docs/controller.md "A
 * conducted run"): the controller is the run's top process. It begins the run itself, starts the
 * scenario's steps (a script that asks it over its socket, $ALLOCSPIKE_CONTROL) as its child, takes
 * Ctrl-C, SIGTERM and SIGHUP as the run's interruption, and once the steps have ended finishes the
 * run with their outcome. */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_CONDUCT_H
#define ALLOCSPIKE_CONTROLLER_SERVE_CONDUCT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct event_base;

/* The environment of the steps: the controller's socket, and the run folder it began */
#define CONDUCT_CONTROL_ENV "ALLOCSPIKE_CONTROL"
#define CONDUCT_RUN_ENV "ALLOCSPIKE_RUN_DIR"
/* How long the steps have to end after a signal interrupted the run, before SIGKILL */
#define CONDUCT_STEPS_GRACE_S 2.0
#define SERVE_CONDUCT_REQUESTS "failure"

struct serve_conduct {
	const char *scenario; /* the run's scenario name, as its messages start */
	const char *out;      /* the run folder asked for */
	char **argv;          /* the steps' command; NULL: the controller's own (conduct_steps.h) */
	/* the controller's own steps: the source tree, the programs' folder, the run's options
	 * (JSON) and the options the user gave (comma-separated) */
	const char *steps_root, *steps_bin, *steps_options, *steps_given;
	struct conduct_steps *steps;
	bool timeline;      /* a timeline.csv with its header only when none was written */
	const char *report; /* the report program finish scans the harness with; NULL: none */
	/* the steps, once started */
	pid_t pid;
	bool ended;
	int status;         /* waitpid's, once ended */
	int interrupted;    /* the signal that interrupted the run; 0: none */
	double kill_at_s;   /* monotonic: when interrupted steps still there are killed */
	char failure[1024]; /* why the steps fail, as their `failure TEXT` said first */
	/* the outcome */
	char dir[PATH_MAX]; /* the run folder, once begun */
	char end[16];       /* completed, interrupted or failed, once finished */
};

/* The steps begun: the controller's own in base's loop, or a command started in a process group
 * of its own that dies with us (launch_exec), with the socket and the run folder in its
 * environment, and added to processes.tsv; false (said on stderr) when they could not be. */
bool serve_conduct_start(struct serve_conduct *c, struct event_base *base, const char *socket_path,
                         int processes_fd);

/* Looked at on every tick: signal, the first INT, TERM or HUP (0: none), interrupts the run: the
 * controller's own steps drop what they asked; a command's group gets SIGTERM, and SIGKILL after
 * CONDUCT_STEPS_GRACE_S. True once the steps ended. */
bool serve_conduct_poll(struct serve_conduct *c, int signal);

/* The words of `finish` for the steps' outcome, into w (at least 6), their text in buf; their
 * count. */
int serve_conduct_finish_words(struct serve_conduct *c, char **w, char *buf, size_t size);

/* failure TEXT: the steps say why they fail before they exit; the first one is kept. False for
 * another request. */
bool serve_conduct_request(struct serve_conduct *c, char **w, int n, char *reply, size_t size);

#endif
