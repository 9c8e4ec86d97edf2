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
	runfolder_free(&rf);
}

static void test_columns_by_name_and_quotes(void **state)
{
	/* Columns in another order, an unknown extra column, a missing one, a quoted name. */
	char *dir = make_run("{\"status\":\"running\"}", "",
	                     "variant,extra,anon_kb,t_s,phase,spike\n"
	                     "\"odd,\"\"name\",x,100,0.5,baseline,0\n"
	                     "glibc,y,,1.0,spike,3\n");
	struct runfolder rf;
	char err[512] = "";
	assert_true(runfolder_read(dir, &rf, err, sizeof(err)));
	assert_int_equal(rf.n_rows, 2);
	assert_string_equal(rf.targets[0], "odd,\"name");
	assert_true(rf.rows[0].v[TIMELINE_COL_anon_kb] == 100);
	assert_true(rf.rows[0].t_s == 0.5);
	assert_true(isnan(rf.rows[0].v[TIMELINE_COL_rss_kb])); /* column absent */
	assert_true(isnan(rf.rows[1].v[TIMELINE_COL_anon_kb]));
	assert_int_equal(rf.rows[1].spike, 3);
	assert_string_equal(rf.status, "running");
	runfolder_free(&rf);
	remove_run(dir);
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

/* Reading must fail with an error holding each of the needles. */
static void expect_error(const char *run_json, const char *events, const char *timeline,
                         const char *needle1, const char *needle2)
{
	char *dir = make_run(run_json, events, timeline);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixture),
	    cmocka_unit_test(test_columns_by_name_and_quotes),
	    cmocka_unit_test(test_truncated_last_lines),
	    cmocka_unit_test(test_last_line_without_newline),
	    cmocka_unit_test(test_errors_name_file_and_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
