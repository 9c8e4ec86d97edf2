/* controller/place_run.c - the run after a placement (place_run.h). */
#include "place_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "child_run.h"
#include "cli_parse.h"
#include "json_file.h"
#include "run_outdir.h"
#include "run_context.h"
#include "variant_command.h"
#include "variants_plan.h"
#include "variants_table.h"

/* How long the collector has, once the generator ended, to fetch the records of streams that
 * dropped (collect waits 30 s for them) and write its files. */
#define PLACE_RUN_COLLECT_GRACE "40s"
/* The collector's clock exchange is what keeps the agents' leases (docs/agent.md, "The lease"):
 * measured at least this many times per shortest lease, and at most every 5 s (its default). */
#define PLACE_RUN_CLOCKS_PER_LEASE 4
#define PLACE_RUN_CLOCK_EVERY_S 5.0

/* Appends the words to the JSON array. */
static void words(json_t *argv, const char *const *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_array_append_new(argv, json_string(w[i]));
}

/* How often the collector measures the clocks: often enough that every agent hears from it
 * PLACE_RUN_CLOCKS_PER_LEASE times within the shortest lease its answer named. */
static double place_run_clock_every(const struct place_row *rows, size_t n)
{
	double every = PLACE_RUN_CLOCK_EVERY_S;
	for (size_t i = 0; i < n; i++) {
		double lease = json_number_value(json_object_get(rows[i].answer, "lease_s"));
		if (lease > 0 && lease / PLACE_RUN_CLOCKS_PER_LEASE < every)
			every = lease / PLACE_RUN_CLOCKS_PER_LEASE;
	}
	return every < 0.1 ? 0.1 : every; /* collect's shortest */
}

/* The generator's first words: allocspike-loadgen here, or with generator hosts in the hosts
 * file, allocspike-run shards, its shards there, merged into the run folder (docs/controller.md,
 * "Generator shards"); the targets follow. */
static json_t *place_run_generator(const struct place_options *o, const char *t0, const char *self,
                                   const char *bin_dir)
{
	char interval_ms[32], interval[32], bound[32], lease[32], loadgen[4200], shards_out[4200];
	snprintf(bound, sizeof(bound), "%.3fms", o->clock_bound_s * 1000);
	snprintf(lease, sizeof(lease), "%.3fms", o->lease_s * 1000);
	snprintf(interval_ms, sizeof(interval_ms), "%.0f", o->timeline_s * 1000);
	snprintf(interval, sizeof(interval), "%.0fms", o->timeline_s * 1000);
	snprintf(loadgen, sizeof(loadgen), "%s/allocspike-loadgen", bin_dir);
	snprintf(shards_out, sizeof(shards_out), "%s/shards", o->out);
	json_t *generate = json_array();
	const char *g0[] = {
	    loadgen,     "--queries",      o->queries,     "--schedule", o->schedule,
	    "--out",     o->out,           "--start-at",   t0,           "--interval-ms",
	    interval_ms, "--allow-remote", "--no-progress"};
	const char *s0[] = {self,
	                    "shards",
	                    "--hosts",
	                    o->hosts_path,
	                    "--table",
	                    o->table_path,
	                    "--run",
	                    o->run,
	                    "--token-file",
	                    o->token_file,
	                    "--schedule",
	                    o->schedule,
	                    "--queries",
	                    o->queries,
	                    "--start-at",
	                    t0,
	                    "--timeline-interval",
	                    interval,
	                    "--clock-bound",
	                    bound,
	                    "--out",
	                    shards_out,
	                    "--merge-into",
	                    o->out};
	const char *asked[] = {"--lease", lease}; /* else each agent's own */
	if (o->n_shards) {
		words(generate, s0, sizeof(s0) / sizeof(*s0));
		words(generate, asked, o->lease_s > 0 ? 2 : 0);
	} else
		words(generate, g0, sizeof(g0) / sizeof(*g0));
	return generate;
}

/* The plan: the collector of every agent, then the generator, whose end ends the run. */
static json_t *place_run_plan(const struct place_options *o, const json_t *placement,
                              const struct place_row *rows, size_t n, const char *self,
                              const char *bin_dir)
{
	const char *t0 = json_string_value(json_object_get(placement, "t0"));
	char clock_every[32], collect_log[4200], loadgen_log[4200];
	snprintf(collect_log, sizeof(collect_log), "%s/logs/collect.log", o->out);
	snprintf(loadgen_log, sizeof(loadgen_log), "%s/logs/loadgen.log", o->out);
	snprintf(clock_every, sizeof(clock_every), "%.0fms", place_run_clock_every(rows, n) * 1000);
	json_t *collect = json_array(), *generate = place_run_generator(o, t0, self, bin_dir);
	const char *c0[] = {self,          "collect",    "--out", o->out,          "--token-file",
	                    o->token_file, "--start-at", t0,      "--clock-every", clock_every};
	words(collect, c0, sizeof(c0) / sizeof(*c0));
	json_t *placed = json_object_get(placement, "rows");
	for (size_t i = 0; i < n; i++) {
		const char *resolver =
		    json_string_value(json_object_get(json_array_get(placed, i), "resolver"));
		char agent[512], target[600];
		snprintf(agent, sizeof(agent), "%s=%s", rows[i].entry->row,
		         rows[i].entry->addr_text);
		/* the shards take ROW=ADDR, as collect's --agent */
		snprintf(target, sizeof(target), o->n_shards ? "%s=%s" : "name=%s,addr=%s",
		         rows[i].entry->row, resolver ? resolver : "");
		const char *a[] = {"--agent", agent}, *g[] = {"--target", target};
		words(collect, a, 2);
		words(generate, g, 2);
	}
	return json_pack("{s:s, s:[{s:s, s:s, s:o}, {s:s, s:s, s:b, s:o}]}", "grace",
	                 PLACE_RUN_COLLECT_GRACE, "processes", "name", "_collect", "log",
	                 collect_log, "argv", collect, "name", "_loadgen", "log", loadgen_log,
	                 "ends_run", 1, "argv", generate);
}

int place_run_schedule(const struct place_options *o, const json_t *placement,
                       const struct place_row *rows, size_t n)
{
	char self[4096], bin_dir[4096], err[4400], plan_path[4232], folder[4200];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0 || !variant_command_bin_dir(bin_dir, sizeof(bin_dir))) {
		fprintf(stderr,
		        "allocspike-run place: cannot find this program (/proc/self/exe)\n");
		return CLI_EXIT_FAILED;
	}
	self[len] = '\0';
	json_t *plan = place_run_plan(o, placement, rows, n, self, bin_dir);
	/* supervise's own events and processes.tsv: the run folder's, or, where the folder is a
	 * scenario's run whose controller keeps those (--in-run), a folder of their own in it */
	snprintf(folder, sizeof(folder), o->in_run ? "%s/place" : "%s", o->out);
	if (o->in_run && !run_outdir_make(folder, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run place: %s\n", err);
		json_decref(plan);
		return CLI_EXIT_FAILED;
	}
	snprintf(plan_path, sizeof(plan_path), "%s/plan.json", folder);
	if (!plan || !json_file_write_atomic(plan_path, plan, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run place: %s\n", plan ? err : "out of memory");
		json_decref(plan);
		return CLI_EXIT_FAILED;
	}
	json_decref(plan);
	const char *t0 = json_string_value(json_object_get(placement, "t0"));
	char *argv[] = {self,   "supervise",  "--plan",   plan_path, "--out",
	                folder, "--start-at", (char *)t0, NULL};
	fprintf(stderr, "allocspike-run place: the run: collector and generator from T0 %s (%s)\n",
	        t0, plan_path);
	int signalled = 0, status = child_run(argv, "supervise", &signalled);
	if (signalled)
		return 130;
	if (status != 0)
		fprintf(stderr,
		        "allocspike-run place: the run failed (supervise exit status %d; see "
		        "%s/events.jsonl and %s/logs/)\n",
		        status, o->out, o->out);
	return status == 0 ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}

/* run.json's rows: the table's cells, each row's host and agent from the hosts file, its
 * resolver address from its agent's answer. */
static json_t *place_run_rows(const struct place_options *o, const json_t *placement,
                              const struct place_row *rows, size_t n)
{
	struct variants_table table;
	char err[4400];
	if (!variants_table_read(&table, o->table_path, err, sizeof(err)))
		return json_array();
	size_t *chosen = calloc(n + 1, sizeof(*chosen)), count = 0;
	for (size_t i = 0; chosen && i < n; i++)
		for (size_t r = 0; r < table.count; r++)
			if (strcmp(table.rows[r].cells[VARIANT_NAME], rows[i].entry->row) == 0)
				chosen[count++] = r;
	json_t *list = chosen ? variants_rows_json(&table, chosen, count) : NULL;
	json_t *placed = json_object_get(placement, "rows");
	for (size_t i = 0; list && i < json_array_size(list); i++) {
		json_t *row = json_array_get(list, i);
		json_object_set_new(row, "host", json_string(rows[i].entry->host));
		json_object_set_new(row, "agent", json_string(rows[i].entry->addr_text));
		json_object_set(row, "resolver",
		                json_object_get(json_array_get(placed, i), "resolver"));
		/* the agent gave it its upstream source, on its own command line */
		json_object_set_new(row, "upstream_source", json_null());
	}
	free(chosen);
	variants_table_free(&table);
	return list ? list : json_array();
}

bool place_run_record(const struct place_options *o, const json_t *placement,
                      const struct place_row *rows, size_t n, int status)
{
	char started[32], ended[32], path[4200], err[4400];
	time_t now = time(NULL);
	struct tm tm;
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&o->started, &tm));
	strftime(ended, sizeof(ended), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	struct rlimit nofile = {0};
	getrlimit(RLIMIT_NOFILE, &nofile);
	const char *state = status == 0 ? "completed" : status == 130 ? "interrupted" : "failed";
	json_t *run = json_pack(
	    "{s:i, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:I, s:s, s:o}, s:o, s:o, s:{s:s}, s:n}",
	    "format", 1, "status", state, "scenario", "place", "started", started, "ended", ended,
	    "parameters", "schedule", o->schedule, "mode", "parallel", "interval_ms",
	    (json_int_t)(o->timeline_s * 1000 + 0.5), "hosts_file", o->hosts_path, "placement",
	    json_pack("{s:O, s:s}", "t0", json_object_get(placement, "t0"), "run", o->run),
	    "variants", place_run_rows(o, placement, rows, n), "machine",
	    run_context_machine((unsigned long long)nofile.rlim_cur), "queryfile", "path",
	    o->queries, "calibration");
	if (run && status != 0 && status != 130)
		json_object_set_new(run, "failure",
		                    json_string("the run's processes: see events.jsonl and logs/"));
	snprintf(path, sizeof(path), "%s/run.json", o->out);
	bool ok = run && json_file_write_atomic(path, run, err, sizeof(err));
	if (!ok)
		fprintf(stderr, "allocspike-run place: %s\n", run ? err : "out of memory");
	else
		fprintf(stderr, "allocspike-run place: run %s: %s\n", state, o->out);
	json_decref(run);
	return ok;
}
