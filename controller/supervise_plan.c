/* controller/supervise_plan.c - reading and printing the supervise plan (supervise_plan.h). */
#include "supervise_plan.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "identifier.h"
#include "json_file.h"

bool supervise_plan_cpus(const char *text, cpu_set_t *set)
{
	CPU_ZERO(set);
	const char *p = text;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p || *p == '-' || *p == '+')
			return false;
		p = end;
		if (*p == '-') {
			const char *q = p + 1;
			hi = strtoul(q, &end, 10);
			if (end == q || *q == '-' || *q == '+' || hi < lo)
				return false;
			p = end;
		}
		if (hi >= CPU_SETSIZE)
			return false;
		for (unsigned long c = lo; c <= hi; c++)
			CPU_SET(c, set);
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return false;
	}
	return true;
}

/* A path from the plan, within out_dir when relative. */
static bool plan_path(const char *text, const char *out_dir, char *out, size_t size)
{
	int n = text[0] == '/' ? snprintf(out, size, "%s", text)
	                       : snprintf(out, size, "%s/%s", out_dir, text);
	return n > 0 && (size_t)n < size;
}

/* A duration string of the plan ("5s"), in the command lines' grammar. */
static bool plan_duration(json_t *value, const char *where, double min_s, double max_s, double *out,
                          char *err, size_t err_size)
{
	if (!json_is_string(value)) {
		snprintf(err, err_size, "%s: a duration string is expected (e.g. \"5s\")", where);
		return false;
	}
	return cli_parse_duration(where, json_string_value(value), CLI_UNIT_REQUIRED, min_s, max_s,
	                          out, err, err_size);
}

/* The process's name, log, CPUs and ready file (NULL: ready once started) into p, checked; where
 * names it in err. */
static bool plan_process_fill(struct plan_process *p, const char *name, const char *log,
                              const char *cpus, const char *ready_file, const char *where,
                              const char *out_dir, char *err, size_t err_size)
{
	char why[160];
	if (!name || !identifier_valid(name[0] == '_' ? name + 1 : name, why, sizeof(why))) {
		snprintf(err, err_size, "%s.name: %s", where,
		         name ? why : "a string is expected (an identifier, or _ and one)");
		return false;
	}
	snprintf(p->name, sizeof(p->name), "%s", name);
	if (!log || !*log || !plan_path(log, out_dir, p->log, sizeof(p->log))) {
		snprintf(err, err_size, "%s.log: a file name is expected", where);
		return false;
	}
	if (cpus && *cpus &&
	    (strlen(cpus) >= sizeof(p->cpus) || !supervise_plan_cpus(cpus, &p->cpu_set))) {
		snprintf(err, err_size, "%s.cpus: '%s' is not a CPU list (e.g. \"0-1,3\")", where,
		         cpus);
		return false;
	}
	snprintf(p->cpus, sizeof(p->cpus), "%s", cpus ? cpus : "");
	p->ready_timeout_s = 30;
	if (ready_file && (!*ready_file ||
	                   !plan_path(ready_file, out_dir, p->ready_file, sizeof(p->ready_file)))) {
		snprintf(err, err_size, "%s.ready.file: a file name is expected", where);
		return false;
	}
	return true;
}

/* Whether the words (count of them, NULL past them) fit a process's argv; said in err. */
static bool plan_argv_fits(size_t count, const char *where, char *err, size_t err_size)
{
	if (count == 0 || count > PLAN_MAX_ARGS) {
		snprintf(err, err_size, "%s.argv: a list of 1 to %d strings is expected", where,
		         PLAN_MAX_ARGS);
		return false;
	}
	return true;
}

static bool plan_process_load(struct plan_process *p, json_t *item, const char *where,
                              const char *out_dir, char *err, size_t err_size)
{
	const char *cpus = json_string_value(json_object_get(item, "cpus"));
	if (json_object_get(item, "cpus") && !cpus) {
		snprintf(err, err_size, "%s.cpus: a CPU list string is expected (e.g. \"0-1,3\")",
		         where);
		return false;
	}
	json_t *ready = json_object_get(item, "ready");
	const char *ready_file = ready ? json_string_value(json_object_get(ready, "file")) : NULL;
	if (!plan_process_fill(p, json_string_value(json_object_get(item, "name")),
	                       json_string_value(json_object_get(item, "log")), cpus,
	                       ready ? (ready_file ? ready_file : "") : NULL, where, out_dir, err,
	                       err_size))
		return false;
	json_t *timeout = ready ? json_object_get(ready, "timeout") : NULL;
	if (timeout) {
		char at[200];
		snprintf(at, sizeof(at), "%s.ready.timeout", where);
		if (!plan_duration(timeout, at, 0.1, 3600, &p->ready_timeout_s, err, err_size))
			return false;
	}
	json_t *ends = json_object_get(item, "ends_run");
	if (ends && !json_is_boolean(ends)) {
		snprintf(err, err_size, "%s.ends_run: true or false is expected", where);
		return false;
	}
	p->ends_run = json_is_true(ends);
	json_t *argv = json_object_get(item, "argv");
	if (!plan_argv_fits(json_is_array(argv) ? json_array_size(argv) : 0, where, err, err_size))
		return false;
	p->argc = (unsigned)json_array_size(argv);
	for (unsigned i = 0; i < p->argc; i++) {
		p->argv[i] = (char *)json_string_value(json_array_get(argv, i));
		if (!p->argv[i] || (i == 0 && !*p->argv[i])) {
			snprintf(err, err_size, "%s.argv[%u]: a string is expected", where, i);
			return false;
		}
	}
	p->argv[p->argc] = NULL;
	return true;
}

/* Whether the plan's last process has the name of an earlier one; said in err. */
static bool plan_name_twice(const struct supervise_plan *plan, const struct plan_process *p,
                            const char *where, char *err, size_t err_size)
{
	for (unsigned j = 0; j < plan->count; j++)
		if (strcmp(plan->processes[j].name, p->name) == 0) {
			snprintf(err, err_size, "%s.name: '%s' is named twice", where, p->name);
			return true;
		}
	return false;
}

void supervise_plan_init(struct supervise_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->grace_s = 5;
}

bool supervise_plan_add(struct supervise_plan *plan, const char *name, const char *log,
                        const char *cpus, const char *ready_file, bool ends_run, char *const *argv,
                        const char *out_dir, char *err, size_t err_size)
{
	char where[64];
	snprintf(where, sizeof(where), "processes[%u]", plan->count);
	if (plan->count >= PLAN_MAX_PROCESSES) {
		snprintf(err, err_size, "processes: a list of 1 to %d processes is expected",
		         PLAN_MAX_PROCESSES);
		return false;
	}
	struct plan_process *p = &plan->processes[plan->count];
	size_t argc = 0;
	while (argv[argc] && argc <= PLAN_MAX_ARGS)
		argc++;
	if (!plan_process_fill(p, name, log, cpus, ready_file, where, out_dir, err, err_size) ||
	    !plan_argv_fits(argc, where, err, err_size) ||
	    plan_name_twice(plan, p, where, err, err_size))
		return false;
	p->ends_run = ends_run;
	p->argc = (unsigned)argc;
	memcpy(p->argv, argv, (argc + 1) * sizeof(*argv));
	plan->count++;
	return true;
}

bool supervise_plan_load(struct supervise_plan *plan, const char *path, const char *out_dir,
                         char *err, size_t err_size)
{
	supervise_plan_init(plan);
	char msg[4400];
	json_t *root = json_file_load(path, msg, sizeof(msg));
	if (!root) {
		snprintf(err, err_size, "%s", msg);
		return false;
	}
	plan->json = root;
	json_t *processes = json_object_get(root, "processes");
	bool ok = true;
	if (!json_is_array(processes) || json_array_size(processes) == 0 ||
	    json_array_size(processes) > PLAN_MAX_PROCESSES) {
		snprintf(msg, sizeof(msg), "processes: a list of 1 to %d processes is expected",
		         PLAN_MAX_PROCESSES);
		ok = false;
	}
	json_t *duration = json_object_get(root, "duration");
	if (ok && duration)
		ok = plan_duration(duration, "duration", 0.01, 86400 * 30, &plan->duration_s, msg,
		                   sizeof(msg));
	json_t *grace = json_object_get(root, "grace");
	if (ok && grace)
		ok = plan_duration(grace, "grace", 0, 600, &plan->grace_s, msg, sizeof(msg));
	for (size_t i = 0; ok && i < json_array_size(processes); i++) {
		char where[64];
		snprintf(where, sizeof(where), "processes[%zu]", i);
		struct plan_process *p = &plan->processes[plan->count];
		ok = plan_process_load(p, json_array_get(processes, i), where, out_dir, msg,
		                       sizeof(msg)) &&
		     !plan_name_twice(plan, p, where, msg, sizeof(msg));
		plan->count += ok;
	}
	if (!ok) {
		snprintf(err, err_size, "%s: %s", path, msg);
		supervise_plan_free(plan);
	}
	return ok;
}

void supervise_plan_free(struct supervise_plan *plan)
{
	json_decref(plan->json);
	plan->json = NULL;
	plan->count = 0;
}

void supervise_plan_print(const struct supervise_plan *plan, FILE *out)
{
	double ready_s = 0, stop_s = 0;
	for (unsigned i = 0; i < plan->count; i++) {
		const struct plan_process *p = &plan->processes[i];
		fprintf(out, "process %u: %s%s\n  log %s\n  cpus %s\n", i + 1, p->name,
		        p->ends_run ? " (its exit ends the run)" : "", p->log,
		        p->cpus[0] ? p->cpus : "any");
		if (p->ready_file[0]) {
			fprintf(out, "  ready when %s holds 'ready ADDR:PORT' (at most %g s)\n",
			        p->ready_file, p->ready_timeout_s);
			ready_s += p->ready_timeout_s;
		} else {
			fprintf(out, "  ready once started\n");
		}
		fprintf(out, "  command");
		for (unsigned j = 0; j < p->argc; j++)
			fprintf(out, " %s", p->argv[j]);
		fprintf(out, "\n");
		stop_s += plan->grace_s;
	}
	fprintf(out,
	        "stop: SIGTERM to each process group in reverse start order, SIGKILL after %g s\n",
	        plan->grace_s);
	if (plan->duration_s > 0)
		fprintf(out,
		        "expected duration: %g s once every process is ready (at most %g s "
		        "starting, %g s stopping)\n",
		        plan->duration_s, ready_s, stop_s);
	else
		fprintf(out,
		        "expected duration: until a signal or the end of a process that ends "
		        "the run (at most %g s starting, %g s stopping)\n",
		        ready_s, stop_s);
}
