/* tests/common/test_runfolder_reader.c - the run-folder reader against the fixture and bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runfolder_reader.h"
#include "test_files.h"

#define HEADER                                                                                     \
	"t_s,variant,phase,spike,offered,sent,answered,timeouts,noerror,nxdomain,servfail,"        \
	"rcode_other,lat_p50_ms,lat_p90_ms,lat_p99_ms,rss_kb,anon_kb,pss_kb,hwm_kb,cpu_user_s,"    \
	"cpu_sys_s,cache_entries,cache_bytes,inflight,upstream_queries,alloc_allocated_bytes,"     \
	"alloc_resident_bytes\n"

/* A run folder in a fresh temporary directory with the given files (NULL: left out). */
static char *make_run(const char *run_json, const char *events, const char *timeline)
{
	char *dir = strdup("/tmp/test_runfolder_reader.XXXXXX");
	assert_non_null(mkdtemp(dir));
	if (run_json)
		test_file_write(dir, "run.json", run_json);
	if (events)
		test_file_write(dir, "events.jsonl", events);
	if (timeline)
		test_file_write(dir, "timeline.csv", timeline);
	return dir;
}

static void remove_run(char *dir)
{
	test_dir_remove(dir);
	free(dir);
}

static void test_fixture(void **state)
{
	const char *src = getenv("ALLOCSPIKE_SOURCE_DIR");
	if (!src)
		skip();
	char dir[4096], err[512] = "";
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/run-minimal", src);
	struct runfolder rf;
	assert_true(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_string_equal(rf.status, "completed");
	assert_int_equal(rf.n_rows, 18);
	assert_int_equal(rf.n_events, 9);
	assert_int_equal(rf.n_targets, 3);
	assert_string_equal(rf.targets[0], "glibc");
	assert_string_equal(rf.targets[2], "_loadgen");
	assert_true(runfolder_is_harness(rf.targets[2]));
	assert_false(runfolder_is_harness(rf.targets[0]));
	/* row 7 (file line 8): 1.5,glibc,spike,1,500,...,anon 9000 */
	const struct runfolder_row *r = &rf.rows[6];
	assert_int_equal(r->line, 8);
	assert_int_equal(r->target, runfolder_target_index(&rf, "glibc"));
	assert_string_equal(r->phase, "spike");
	assert_int_equal(r->spike, 1);
	assert_true(r->t_s == 1.5);
	assert_true(r->v[TIMELINE_COL_offered] == 500);
	assert_true(r->v[TIMELINE_COL_anon_kb] == 9000);
	assert_true(r->v[TIMELINE_COL_cpu_user_s] == 0.15);
	/* empty cells are "not available" */
	assert_true(isnan(rf.rows[3].v[TIMELINE_COL_pss_kb]));
	assert_true(isnan(rf.rows[2].v[TIMELINE_COL_answered]));
	assert_string_equal(rf.events[7].variant, "glibc");
	assert_string_equal(rf.events[7].event, "exited");
	assert_true(rf.events[7].t_s == 3.0);
	assert_false(rf.timeline_truncated);
	assert_false(rf.events_truncated);
	/* each row's host (docs/run-folder.md, run.json) */
	assert_string_equal(runfolder_row_host(&rf, "glibc"), "fixture-host");
	assert_string_equal(runfolder_row_host(&rf, "jemalloc"), "fixture-host");
	runfolder_free(&rf);
}

/* A row's host: its own; a row without one (a run from before it was recorded) the machine's; NULL
 * when neither is known or the machine's is no name. */
static void test_row_host(void **state)
{
	char *dir =
	    make_run("{\"machine\":{\"hostname\":\"m1\"},\"variants\":[{\"name\":\"a\","
	             "\"host\":\"t1.lan\"},{\"name\":\"b\"},{\"name\":\"c\",\"host\":null}]}",
	             "", HEADER);
	struct runfolder rf;
	char err[512] = "";
	assert_true(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_string_equal(runfolder_row_host(&rf, "a"), "t1.lan");
	assert_string_equal(runfolder_row_host(&rf, "b"), "m1");
	assert_string_equal(runfolder_row_host(&rf, "c"), "m1");
	assert_string_equal(runfolder_row_host(&rf, "not-a-row"), "m1");
	runfolder_free(&rf);
	remove_run(dir);
	dir = make_run("{\"machine\":{\"hostname\":\"a b\"},\"variants\":[{\"name\":\"a\"}]}", "",
	               HEADER);
	assert_true(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_null(runfolder_row_host(&rf, "a"));
	runfolder_free(&rf);
	remove_run(dir);
}

static void test_columns_by_name_and_quotes(void **state)
{
	/* Columns in another order, an unknown extra column, a missing one, a quoted name (and
	 * quoted text in a column nobody reads). */
	char *dir = make_run("{\"status\":\"running\"}", "",
	                     "variant,extra,anon_kb,t_s,phase,spike\n"
	                     "\"glibc-2.36\",\"x,\"\"y\",100,0.5,baseline,0\n"
	                     "glibc,y,,1.0,spike,3\n");
	struct runfolder rf;
	char err[512] = "";
	assert_true(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_int_equal(rf.n_rows, 2);
	assert_string_equal(rf.targets[0], "glibc-2.36");
	assert_true(rf.rows[0].v[TIMELINE_COL_anon_kb] == 100);
	assert_true(rf.rows[0].t_s == 0.5);
	assert_true(isnan(rf.rows[0].v[TIMELINE_COL_rss_kb])); /* column absent */
	assert_true(isnan(rf.rows[1].v[TIMELINE_COL_anon_kb]));
	assert_int_equal(rf.rows[1].spike, 3);
	assert_string_equal(rf.status, "running");
	runfolder_free(&rf);
	remove_run(dir);
}

/* The high-water columns (inflight_max, live_bytes_max) are read where a run has them, and a run
 * written before them (HEADER ends at alloc_resident_bytes) reads as "not available". */
static void test_high_water_columns(void **state)
{
	char *with = make_run("{}", "",
	                      "t_s,variant,inflight,live_bytes,inflight_max,live_bytes_max\n"
	                      "1.0,glibc,3,5000,40,90000\n"
	                      "1.1,glibc,3,5000,,\n");
	struct runfolder rf;
	char err[512] = "";
	assert_true(runfolder_read(with, &rf, err, sizeof(err)));
	assert_int_equal(rf.n_rows, 2);
	assert_true(rf.rows[0].v[TIMELINE_COL_inflight] == 3);
	assert_true(rf.rows[0].v[TIMELINE_COL_inflight_max] == 40);
	assert_true(rf.rows[0].v[TIMELINE_COL_live_bytes_max] == 90000);
	assert_true(isnan(rf.rows[1].v[TIMELINE_COL_inflight_max]));
	assert_true(isnan(rf.rows[1].v[TIMELINE_COL_live_bytes_max]));
	runfolder_free(&rf);
	remove_run(with);
	char *without = make_run("{}", "", HEADER "1.0,glibc,baseline,0,,,,,,,,,,,,,,,,,,,,3,,,\n");
	assert_true(runfolder_read(without, &rf, err, sizeof(err)));
	assert_int_equal(rf.n_rows, 1);
	assert_true(rf.rows[0].v[TIMELINE_COL_inflight] == 3);
	assert_true(isnan(rf.rows[0].v[TIMELINE_COL_inflight_max]));
	assert_true(isnan(rf.rows[0].v[TIMELINE_COL_live_bytes_max]));
	runfolder_free(&rf);
	remove_run(without);
}

static void test_truncated_last_lines(void **state)
{
	/* An interrupted writer leaves half a line without its newline: dropped, not an error. */
	char *dir = make_run("{\"status\":\"interrupted\"}",
	                     "{\"t_s\":0,\"variant\":\"glibc\",\"event\":\"ready\"}\n"
	                     "{\"t_s\":1,\"variant\":\"gli",
	                     HEADER "0.5,glibc,baseline,0,50,50,50,0,40,10,0,0,1.5,20.0,45.0,6000,"
	                            "4000,5500,6000,0.05,0.02,100,20000,3,50,1000000,2000000\n"
	                            "1.0,glibc,baseline,0,50,50,50,0,40,1");
	struct runfolder rf;
	char err[512] = "";
	assert_true(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_int_equal(rf.n_rows, 1);
	assert_int_equal(rf.n_events, 1);
	assert_true(rf.timeline_truncated);
	assert_true(rf.events_truncated);
	assert_string_equal(rf.status, "interrupted");
	runfolder_free(&rf);
	remove_run(dir);
}

static void test_last_line_without_newline(void **state)
{
	/* A timeline row without its newline may have lost digits of its last cell: dropped even
	 * though it parses. An events line that parses is whole (JSON closes). */
	char *dir = make_run("{\"status\":\"completed\"}", "{\"t_s\":0,\"event\":\"ready\"}",
	                     "t_s,variant,anon_kb\n0.5,glibc,100\n1.0,glibc,12");
	struct runfolder rf;
	char err[512] = "";
	assert_true(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_int_equal(rf.n_rows, 1);
	assert_true(rf.timeline_truncated);
	assert_int_equal(rf.n_events, 1);
	assert_string_equal(rf.events[0].variant, "");
	assert_false(rf.events_truncated);
	runfolder_free(&rf);
	remove_run(dir);
}

/* Reading must fail with an error holding each of the needles and the folder's path; phases.csv
 * and latency_hist.csv are written unless NULL. */
static void expect_error_with(const char *run_json, const char *events, const char *timeline,
                              const char *phases, const char *hist, const char *needle1,
                              const char *needle2)
{
	char *dir = make_run(run_json, events, timeline);
	if (phases)
		test_file_write(dir, "phases.csv", phases);
	if (hist)
		test_file_write(dir, "latency_hist.csv", hist);
	struct runfolder rf;
	char err[512] = "";
	assert_false(runfolder_read(dir, &rf, err, sizeof(err)));
	if (!strstr(err, needle1) || (needle2 && !strstr(err, needle2)))
		fail_msg("error \"%s\" lacks \"%s\" / \"%s\"", err, needle1,
		         needle2 ? needle2 : "");
	assert_non_null(strstr(err, dir));
	runfolder_free(&rf); /* safe after a failure */
	remove_run(dir);
}

static void expect_error(const char *run_json, const char *events, const char *timeline,
                         const char *needle1, const char *needle2)
{
	expect_error_with(run_json, events, timeline, NULL, NULL, needle1, needle2);
}

static void test_errors_name_file_and_line(void **state)
{
	const char *ok_run = "{\"status\":\"completed\"}";
	const char *ok_tl = "t_s,variant\n0.5,glibc\n";
	expect_error(NULL, "", ok_tl, "run.json", NULL);
	expect_error("{\"status\":\n  oops}", "", ok_tl, "run.json:2", NULL);
	expect_error("[1,2]", "", ok_tl, "run.json:1", "not a JSON object");
	expect_error(ok_run, NULL, ok_tl, "events.jsonl", "cannot open");
	expect_error(ok_run,
	             "{\"t_s\":0,\"event\":\"ready\"}\n{\"t_s\":1}\n{\"t_s\":2,\"event\":\"x\"}\n",
	             ok_tl, "events.jsonl:2", "event");
	expect_error(ok_run, "\n{bad json}\n", ok_tl, "events.jsonl:2", NULL);
	expect_error(ok_run, "", NULL, "timeline.csv", "cannot open");
	expect_error(ok_run, "", "variant,anon_kb\nglibc,1\n", "timeline.csv:1", "t_s");
	expect_error(ok_run, "", "t_s,variant,anon_kb\n0.5,glibc,1\n1.0,glibc,12x\n0.5,a,1\n",
	             "timeline.csv:3", "anon_kb");
	expect_error(ok_run, "", "t_s,variant,anon_kb\n0.5,glibc,1,2\n1.0,glibc,1\n",
	             "timeline.csv:2", "cells");
	expect_error(ok_run, "", "t_s,variant\n,glibc\n0.5,a\n", "timeline.csv:2", "t_s");
	/* a row cut off in the middle of the file (a writer stopped, then another appended after
	 * it: the writer now refuses that) is an error with its line, never read as a short row */
	expect_error(ok_run, "", "t_s,variant,anon_kb\n0.5,glibc,1\n1.0,gl\n1.5,glibc,3\n",
	             "timeline.csv:3", "cells");
	expect_error(ok_run, "", "t_s,variant,anon_kb\n0.5,glibc,1\n1.0,glibc,11.5,glibc,3\n",
	             "timeline.csv:3", "cells");
}

#define OK_RUN "{\"status\":\"completed\"}"
#define PHASES_HEAD "variant,phase,spike,sent,answered\n"
#define HIST_HEAD "variant,phase,spike,upper_us,count\n"

static void test_numbers_out_of_range(void **state)
{
	const char *tl = "t_s,variant,phase,spike,anon_kb\n";
	char text[512];
	/* a spike number that would size the report's tables by billions, or overflow an int */
	static const char *const bad_spikes[] = {"2147483647", "100001", "1e300",
	                                         "-1",         "1.5",    "inf"};
	for (size_t i = 0; i < sizeof(bad_spikes) / sizeof(*bad_spikes); i++) {
		snprintf(text, sizeof(text), "%s0.5,glibc,baseline,0,1\n1.0,glibc,spike,%s,2\n", tl,
		         bad_spikes[i]);
		expect_error(OK_RUN, "", text, "timeline.csv:3: column \"spike\"", bad_spikes[i]);
	}
	snprintf(text, sizeof(text), "%s1e300,glibc,spike,1,2\n", tl);
	expect_error(OK_RUN, "", text, "timeline.csv:2: column \"t_s\"", "out of range");
	snprintf(text, sizeof(text), "%s1.0,glibc,spike,1,-1e300\n", tl);
	expect_error(OK_RUN, "", text, "timeline.csv:2: column \"anon_kb\"", "out of range");
	snprintf(text, sizeof(text), "%s1.0,glibc,spike,1,1e999\n", tl);
	expect_error(OK_RUN, "", text, "timeline.csv:2: column \"anon_kb\"", "out of range");
	/* phases.csv: the spike 1e300 that became -2147483648 */
	const char *ok_tl = "t_s,variant\n0.5,glibc\n";
	expect_error_with(OK_RUN, "", ok_tl, PHASES_HEAD "glibc,spike,1e300,10,9\n", NULL,
	                  "phases.csv:2: column \"spike\"", "out of range");
	expect_error_with(OK_RUN, "", ok_tl, PHASES_HEAD "glibc,spike,,10,9\n", NULL,
	                  "phases.csv:2: column \"spike\"", "empty");
	expect_error_with(OK_RUN, "", ok_tl, PHASES_HEAD "glibc,spike,1,1e16,9\n", NULL,
	                  "phases.csv:2: column \"sent\"", "out of range");
	/* latency_hist.csv: counts become 64-bit counters, edges nanoseconds */
	expect_error_with(OK_RUN, "", ok_tl, NULL, HIST_HEAD "glibc,spike,1,1000.5,-3\n",
	                  "latency_hist.csv:2: column \"count\"", "out of range");
	expect_error_with(OK_RUN, "", ok_tl, NULL, HIST_HEAD "glibc,spike,1,1000.5,2.5\n",
	                  "latency_hist.csv:2: column \"count\"", "whole number");
	expect_error_with(OK_RUN, "", ok_tl, NULL, HIST_HEAD "glibc,spike,1,0,2\n",
	                  "latency_hist.csv:2: column \"upper_us\"", "out of range");
	/* events.jsonl and run.json */
	expect_error(OK_RUN, "{\"t_s\":0,\"event\":\"a\"}\n{\"t_s\":1e300,\"event\":\"b\"}\n",
	             ok_tl, "events.jsonl:2", "\"t_s\"");
	expect_error(OK_RUN, "{\"t_s\":0,\"event\":\"phase\",\"spike\":1e300}\n", ok_tl,
	             "events.jsonl:1", "\"spike\"");
	expect_error("{\"parameters\":{\"interval_ms\":1e-300}}", "", ok_tl, "run.json",
	             "parameters.interval_ms");
	expect_error("{\"parameters\":{\"interval_ms\":\"100\"}}", "", ok_tl, "run.json",
	             "parameters.interval_ms");
	expect_error("{\"machine\":{\"cores\":0}}", "", ok_tl, "run.json", "machine.cores");
}

static void test_numbers_at_the_limits(void **state)
{
	/* the largest spike number, the earliest and latest t_s, and numbers run.json may leave
	 * out are read */
	char text[512];
	snprintf(text, sizeof(text),
	         "t_s,variant,phase,spike,anon_kb\n%.0f,glibc,spike,%d,1e15\n%.0f,glibc,spike,0,"
	         "-1e15\n",
	         -RUNFOLDER_MAX_T_S, RUNFOLDER_MAX_SPIKE, RUNFOLDER_MAX_T_S);
	char *dir = make_run("{\"parameters\":{\"interval_ms\":null},\"machine\":{}}",
	                     "{\"t_s\":-5,\"event\":\"phase\",\"spike\":3}\n", text);
	test_file_write(dir, "phases.csv", PHASES_HEAD "glibc,spike,100000,10,9\n");
	test_file_write(dir, "latency_hist.csv", HIST_HEAD "glibc,spike,3,0.001,1000000000000\n");
	struct runfolder rf;
	char err[512] = "";
	assert_true(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_int_equal(rf.rows[0].spike, RUNFOLDER_MAX_SPIKE);
	assert_int_equal(rf.phase_rows[0].spike, RUNFOLDER_MAX_SPIKE);
	assert_true(rf.hist_rows[0].v[HIST_COL_count] == 1e12);
	runfolder_free(&rf);
	remove_run(dir);
}

static void test_names_are_identifiers(void **state)
{
	const char *tl = "t_s,variant,phase,spike\n0.5,glibc,baseline,0\n";
	const char *ok_tl = "t_s,variant\n0.5,glibc\n";
	/* a name that is not UTF-8 made the JSON layer drop the variant's rows */
	expect_error(OK_RUN, "",
	             "t_s,variant,phase,spike\n0.5,glibc,baseline,0\n1.0,gl\xe9,spike,1\n",
	             "timeline.csv:3: column \"variant\"", "byte 0xe9");
	expect_error(OK_RUN, "", "t_s,variant\n0.5,\"../x\"\n",
	             "timeline.csv:2: column \"variant\"", "'.'");
	expect_error(OK_RUN, "", "t_s,variant\n0.5,\"a,b\"\n", "timeline.csv:2: column \"variant\"",
	             "','");
	expect_error(OK_RUN, "", "t_s,phase,variant\n0.5,sp ike,glibc\n",
	             "timeline.csv:2: column \"phase\"", "0x20");
	expect_error_with(OK_RUN, "", tl, PHASES_HEAD "gl\xc3\x28,spike,1,10,9\n", NULL,
	                  "phases.csv:2: column \"variant\"", "0xc3");
	expect_error_with(OK_RUN, "", tl, NULL, HIST_HEAD "glibc,<b>,1,1000.5,3\n",
	                  "latency_hist.csv:2: column \"phase\"", "'<'");
	expect_error(OK_RUN, "{\"t_s\":0,\"variant\":\"a b\",\"event\":\"ready\"}\n", ok_tl,
	             "events.jsonl:1", "\"variant\"");
	expect_error(OK_RUN,
	             "{\"t_s\":0,\"variant\":\"_loadgen\",\"event\":\"phase\",\"phase\":7}\n",
	             ok_tl, "events.jsonl:1", "\"phase\"");
	expect_error("{\"variants\":[{\"name\":\"glibc\"},{\"name\":\"-rf\"}]}", "", ok_tl,
	             "run.json", "\"variants\"[1].name");
	expect_error("{\"variants\":[{\"kind\":\"build\"}]}", "", ok_tl, "run.json",
	             "\"variants\"[0].name");
	expect_error("{\"variants\":[{\"name\":\"glibc\",\"host\":\"a/b\"}]}", "", ok_tl,
	             "run.json", "\"variants\"[0].host");
	expect_error("{\"variants\":[{\"name\":\"glibc\",\"host\":7}]}", "", ok_tl, "run.json",
	             "\"variants\"[0].host: not a string");
	expect_error("{\"warmup\":{\"a/b\":{\"steady\":false}}}", "", ok_tl, "run.json",
	             "\"warmup\"");
}

/* Appends to b the rows of n variants named vNNN (from first). */
static void variant_rows(char *b, size_t size, int first, int n)
{
	for (int i = first; i < first + n; i++)
		snprintf(b + strlen(b), size - strlen(b), "0.5,v%03d\n", i);
}

static void test_variants_limited(void **state)
{
	static char text[8192], run[8192];
	/* as many as RUNFOLDER_MAX_VARIANTS, with the harness rows beside them: read */
	snprintf(text, sizeof(text), "t_s,variant\n0.5,_loadgen\n0.5,_upstream\n");
	variant_rows(text, sizeof(text), 0, RUNFOLDER_MAX_VARIANTS);
	char *dir = make_run(OK_RUN, "", text);
	struct runfolder rf;
	char err[512] = "";
	assert_true(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_int_equal(rf.n_targets, RUNFOLDER_MAX_VARIANTS + 2);
	char last[16], next[16];
	snprintf(last, sizeof(last), "v%03d", RUNFOLDER_MAX_VARIANTS - 1);
	snprintf(next, sizeof(next), "v%03d", RUNFOLDER_MAX_VARIANTS);
	assert_int_equal(runfolder_target_index(&rf, last), RUNFOLDER_MAX_VARIANTS + 1);
	assert_int_equal(runfolder_target_index(&rf, next), -1);
	runfolder_free(&rf);
	remove_run(dir);
	/* one more: refused where it appears, never left out */
	variant_rows(text, sizeof(text), RUNFOLDER_MAX_VARIANTS, 1);
	expect_error(OK_RUN, "", text, "timeline.csv:260: column \"variant\"", "at most 256");
	/* counted with run.json's: 200 there, 57 others in the timeline */
	snprintf(run, sizeof(run), "{\"variants\":[");
	for (int i = 0; i < 200; i++)
		snprintf(run + strlen(run), sizeof(run) - strlen(run), "%s{\"name\":\"v%03d\"}",
		         i ? "," : "", i);
	strcat(run, "]}");
	snprintf(text, sizeof(text), "t_s,variant\n");
	variant_rows(text, sizeof(text), 0, 200); /* the same 200: not counted twice */
	variant_rows(text, sizeof(text), 300, 57);
	expect_error(run, "", text, "timeline.csv:258", "variant name 257");
	/* harness rows are limited apart */
	snprintf(text, sizeof(text), "t_s,variant\n");
	for (int i = 0; i <= RUNFOLDER_MAX_HARNESS; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "0.5,_w%d\n", i);
	expect_error(OK_RUN, "", text, "timeline.csv:67", "harness name 66");
}

static void test_lines_limited(void **state)
{
	/* a line past RUNFOLDER_MAX_LINE is refused, not read into ever more memory */
	size_t n = RUNFOLDER_MAX_LINE + 100;
	char *text = malloc(n + 64);
	assert_non_null(text);
	strcpy(text, "t_s,variant,anon_kb\n0.5,glibc,");
	size_t len = strlen(text);
	memset(text + len, '1', n - len);
	strcpy(text + n, "\n1.0,glibc,1\n");
	expect_error(OK_RUN, "", text, "timeline.csv:2", "longer than");
	free(text);
	/* a NUL byte would hide the rest of its line */
	char *dir = make_run(OK_RUN, "", NULL);
	char path[4200];
	snprintf(path, sizeof(path), "%s/timeline.csv", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	static const char nul_row[] = "t_s,variant\n0.5,glibc\n1.0,gl\0ibc\n";
	fwrite(nul_row, 1, sizeof(nul_row) - 1, f);
	fclose(f);
	struct runfolder rf;
	char err[512] = "";
	assert_false(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_non_null(strstr(err, "timeline.csv:3"));
	assert_non_null(strstr(err, "NUL"));
	runfolder_free(&rf);
	remove_run(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixture),
	    cmocka_unit_test(test_row_host),
	    cmocka_unit_test(test_columns_by_name_and_quotes),
	    cmocka_unit_test(test_high_water_columns),
	    cmocka_unit_test(test_truncated_last_lines),
	    cmocka_unit_test(test_last_line_without_newline),
	    cmocka_unit_test(test_errors_name_file_and_line),
	    cmocka_unit_test(test_numbers_out_of_range),
	    cmocka_unit_test(test_numbers_at_the_limits),
	    cmocka_unit_test(test_names_are_identifiers),
	    cmocka_unit_test(test_variants_limited),
	    cmocka_unit_test(test_lines_limited),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
