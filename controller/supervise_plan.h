/* controller/supervise_plan.h - the typed plan allocspike-run supervise runs: which processes, in
 * which order, with which command, log, CPUs and readiness check, and how long (docs/controller.md,
 * "The plan"). */
#ifndef ALLOCSPIKE_CONTROLLER_SUPERVISE_PLAN_H
#define ALLOCSPIKE_CONTROLLER_SUPERVISE_PLAN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PLAN_MAX_PROCESSES 32
#define PLAN_MAX_ARGS 256

struct plan_process {
	char name[65];     /* an identifier, or _NAME for the harness's own (_upstream, _loadgen) */
	char log[4096];    /* stdout and stderr appended here */
	char cpus[256];    /* a taskset list ("0-1,3"), "" for anywhere */
	cpu_set_t cpu_set; /* the same, parsed */
	char ready_file[4096]; /* "" when started means ready */
	double ready_timeout_s;
	bool ends_run; /* its exit ends the run (the generator) */
	char *argv[PLAN_MAX_ARGS + 1];
	unsigned argc;
};

struct supervise_plan {
	struct plan_process processes[PLAN_MAX_PROCESSES];
	unsigned count;
	double duration_s; /* once every process is ready; 0: until a signal or every exit */
	double grace_s;    /* SIGTERM to SIGKILL, per process */
	void *json;        /* the parsed file, owning the argv strings */
};

/* A plan with a plan file's defaults (a grace of 5 s, no duration) and no process. */
void supervise_plan_init(struct supervise_plan *plan);

/* Appends a process made in memory (allocspike-run dry-run's), checked as a plan file's are: its
 * name, log, CPUs and ready file (NULL: ready once started; a relative one within out_dir), the
 * number of processes and their names. argv (NULL-terminated) is borrowed and must outlive the
 * plan. False with "processes[N].what: why" in err. */
bool supervise_plan_add(struct supervise_plan *plan, const char *name, const char *log,
                        const char *cpus, const char *ready_file, bool ends_run, char *const *argv,
                        const char *out_dir, char *err, size_t err_size);

/* Reads the plan file; relative log and ready paths are taken within out_dir. On failure returns
 * false with "FILE: where: what" in err. */
bool supervise_plan_load(struct supervise_plan *plan, const char *path, const char *out_dir,
                         char *err, size_t err_size);
void supervise_plan_free(struct supervise_plan *plan);

/* The longest a run of this plan takes: every readiness timeout, the duration, every grace period
 * (the stop's bound); 0 for the duration when there is none. */
void supervise_plan_print(const struct supervise_plan *plan, FILE *out);

/* Parses a taskset CPU list ("0", "0-1,3"); false when malformed or beyond the set's size. */
bool supervise_plan_cpus(const char *text, cpu_set_t *set);

#endif
