/* tests/common/test_runfolder_writer.c - timeline.csv rows and events.jsonl lines as the contract
 * says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runfolder_writer.h"
#include "test_files.h"

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_header_matches_fixture(void **state)
{
	const char *src = getenv("ALLOCSPIKE_SOURCE_DIR");
	if (!src)
		skip();
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/fixtures/run-minimal/timeline.csv", src);
	char *fixture = read_all(path);
	*strchr(fixture, '\n') = '\0';
	assert_string_equal(runfolder_timeline_header(), fixture);
	free(fixture);
}

/* The first line of a fixture file of run-minimal, or NULL without the source tree. */
static char *fixture_header(const char *name)
{
	const char *src = getenv("ALLOCSPIKE_SOURCE_DIR");
	if (!src)
		return NULL;
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/fixtures/run-minimal/%s", src, name);
	char *text = read_all(path);
	*strchr(text, '\n') = '\0';
	return text;
}

static void test_phases_headers_match_fixture(void **state)
{
	char *phases = fixture_header("phases.csv");
	if (!phases)
		skip();
	assert_string_equal(runfolder_phases_header, phases);
	char *hist = fixture_header("latency_hist.csv");
	assert_string_equal(runfolder_latency_hist_header, hist);
	free(phases);
	free(hist);
}

static char *read_file_in(const char *dir, const char *name)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_all(path);
}

/* One instance with answers (quantiles the middles of their buckets, capped by the slowest), one
 * without (empty latency cells, no buckets). */
static void write_phases(struct runfolder_writer *w, const char *variant, uint64_t sent)
{
	static struct latency_hist h, empty;
	latency_hist_init(&h);
	latency_hist_init(&empty);
	for (int i = 0; i < 3; i++)
		latency_hist_add(&h, 1000000); /* 1 ms: bucket [999.424, 1015.808) us */
	latency_hist_add(&h, 300000000);       /* 300 ms: bucket [293601.280, 301989.888) us */
	struct runfolder_phases f;
	const char *names[] = {variant};
	assert_true(runfolder_phases_begin(w, &f, names, 1));
	runfolder_phases_row(&f, &(struct phase_row){.variant = variant,
	                                             .phase = "spike",
	                                             .spike = 1,
	                                             .sent = sent,
	                                             .answered = 4,
	                                             .timeouts = 1,
	                                             .late_or_foreign = 2,
	                                             .noerror = 3,
	                                             .nxdomain = 1,
	                                             .max_ns = 300000000,
	                                             .latency = &h});
	runfolder_phases_row(&f, &(struct phase_row){.variant = variant,
	                                             .phase = "recovery",
	                                             .spike = 1,
	                                             .pending = 7,
	                                             .latency = &empty});
	assert_true(runfolder_phases_commit(&f));
}

static void test_phases(void **state)
{
	char dir[] = "/tmp/test_runfolder_writer.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char err[256];
	struct runfolder_writer w;
	assert_true(runfolder_writer_open(&w, dir, err, sizeof(err)));
	write_phases(&w, "a", 9);
	write_phases(&w, "a", 5); /* rewritten whole, not appended */
	char *csv = read_file_in(dir, "phases.csv");
	char want[2048];
	snprintf(want, sizeof(want),
	         "%s\na,spike,1,5,4,1,0,2,3,1,0,0,1.008,297.796,297.796,297.796,300.000\n"
	         "a,recovery,1,0,0,0,7,0,0,0,0,0,,,,,\n",
	         runfolder_phases_header);
	assert_string_equal(csv, want);
	free(csv);
	char *hist = read_file_in(dir, "latency_hist.csv");
	snprintf(want, sizeof(want), "%s\na,spike,1,1015.808,3\na,spike,1,301989.888,1\n",
	         runfolder_latency_hist_header);
	assert_string_equal(hist, want);
	free(hist);
	assert_true(runfolder_writer_close(&w));

	/* a serial run's next generator, for variant b: a's rows stay, b's come after */
	assert_true(runfolder_writer_open(&w, dir, err, sizeof(err)));
	write_phases(&w, "b", 6);
	write_phases(&w, "b", 5);
	csv = read_file_in(dir, "phases.csv");
	assert_int_equal(strstr(csv, "\nb,spike,1,5,") - strstr(csv, "\na,spike,1,5,"),
	                 strlen("\na,spike,1,5,4,1,0,2,3,1,0,0,1.008,297.796,297.796,297.796,"
	                        "300.000") +
	                     strlen("\na,recovery,1,0,0,0,7,0,0,0,0,0,,,,,"));
	assert_null(strstr(csv, "b,spike,1,6,"));
	free(csv);
	hist = read_file_in(dir, "latency_hist.csv");
	assert_non_null(strstr(hist, "a,spike,1,301989.888,1\nb,spike,1,1015.808,3\n"));
	free(hist);

	/* a failed rewrite (a file-size limit here, like a full disk) leaves the files in place as
	 * they were, no temporary file behind, and says so */
	struct rlimit old_limit, limit;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
	limit = old_limit;
	limit.rlim_cur = 16; /* bytes: no header fits */
	signal(SIGXFSZ, SIG_IGN);
	struct runfolder_phases f;
	const char *names[] = {"b"};
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
	runfolder_phases_begin(&w, &f, names, 1);
	bool committed = runfolder_phases_commit(&f);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_limit), 0);
	assert_false(committed);
	assert_non_null(strstr(runfolder_writer_failure(&w), "phases.csv: File too large"));
	assert_int_equal(test_dir_entries_named(dir, ".tmp."), 0);
	csv = read_file_in(dir, "phases.csv");
	assert_non_null(strstr(csv, "\nb,spike,1,5,"));
	free(csv);
	runfolder_writer_close(&w);
	test_dir_remove(dir);
}

static void test_rows_and_events(void **state)
{
	char dir[] = "/tmp/test_runfolder_writer.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char sub[128], err[256];
	snprintf(sub, sizeof(sub), "%s/run/a", dir); /* missing folders are created */
	struct runfolder_writer w;
	assert_true(runfolder_writer_open(&w, sub, err, sizeof(err)));
	struct timeline_row row = {.t_s = 0.1, .variant = "glibc", .phase = "spike", .spike = 2};
	timeline_row_clear(&row);
	row.cells[TIMELINE_COL_offered] = 100;
	row.cells[TIMELINE_COL_lat_p50_ms] = 1.23456;
	row.cells[TIMELINE_COL_cpu_user_s] = 0.5;
	row.cells[TIMELINE_COL_alloc_resident_bytes] = 123456789;
	assert_true(runfolder_writer_row(&w, &row));
	row.variant = "odd,name";
	timeline_row_clear(&row);
	assert_true(runfolder_writer_row(&w, &row));
	assert_true(runfolder_writer_flush(&w));
	json_t *extra = json_pack("{s:s,s:i}", "phase", "spike", "spike", 2);
	assert_true(runfolder_writer_event(&w, 1.5, "_loadgen", "phase", extra));
	runfolder_writer_close(&w);

	/* a second writer appends and does not repeat the header */
	assert_true(runfolder_writer_open(&w, sub, err, sizeof(err)));
	assert_true(runfolder_writer_event(&w, 2.25, "glibc", "gone", NULL));
	runfolder_writer_close(&w);

	char path[256];
	snprintf(path, sizeof(path), "%s/timeline.csv", sub);
	char *csv = read_all(path);
	char want[2048];
	snprintf(want, sizeof(want),
	         "%s\n0.100,glibc,spike,2,100,,,,,,,,1.235,,,,,,,0.50,,,,,,,123456789,,,,,,,,,,,\n"
	         "0.100,\"odd,name\",spike,2,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n",
	         runfolder_timeline_header());
	assert_string_equal(csv, want);
	free(csv);
	snprintf(path, sizeof(path), "%s/events.jsonl", sub);
	char *ev = read_all(path);
	assert_string_equal(ev,
	                    "{\"t_s\":1.5,\"variant\":\"_loadgen\",\"event\":\"phase\",\"phase\":"
	                    "\"spike\",\"spike\":2}\n"
	                    "{\"t_s\":2.25,\"variant\":\"glibc\",\"event\":\"gone\"}\n");
	free(ev);
	test_dir_remove(dir);
}

static void test_other_header_refused(void **state)
{
	char dir[] = "/tmp/test_runfolder_writer.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128], err[512] = "";
	snprintf(path, sizeof(path), "%s/timeline.csv", dir);
	FILE *f = fopen(path, "w");
	fputs("t_s,variant,rss\n1,a,5\n", f);
	fclose(f);
	struct runfolder_writer w;
	assert_false(runfolder_writer_open(&w, dir, err, sizeof(err)));
	assert_non_null(strstr(err, "timeline.csv:1: the header is not"));
	unlink(path);
	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	unlink(path);
	rmdir(dir);
}

static void test_open_failure(void **state)
{
	struct runfolder_writer w;
	char err[256] = "";
	assert_false(runfolder_writer_open(&w, "/proc/self/nope/run", err, sizeof(err)));
	assert_non_null(strstr(err, "/proc/self/nope"));
}

/* A file whose last line was cut off (the writer was stopped mid-row, e.g. on a full disk) is not
 * appended to: the next line would be joined to the cut one. */
static void test_cut_line_refused(void **state)
{
	char dir[] = "/tmp/test_runfolder_writer.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char line[2048], err[512] = "";
	snprintf(line, sizeof(line), "%s\n0.100,glibc,spike,2,1", runfolder_timeline_header());
	test_file_write(dir, "timeline.csv", line);
	struct runfolder_writer w;
	assert_false(runfolder_writer_open(&w, dir, err, sizeof(err)));
	assert_non_null(strstr(err, "timeline.csv:2: the last line was cut off"));
	snprintf(line, sizeof(line), "%s\n", runfolder_timeline_header());
	test_file_write(dir, "timeline.csv", line);
	test_file_write(dir, "events.jsonl", "{\"t_s\":1,\"event\":\"a\"}\n{\"t_s\":2,\"ev");
	assert_false(runfolder_writer_open(&w, dir, err, sizeof(err)));
	assert_non_null(strstr(err, "events.jsonl:2: the last line was cut off"));
	test_dir_remove(dir);
}

/* /dev/full: every write fails with ENOSPC. Opening a new timeline (its header) fails at once; a
 * failed event stops events.jsonl and is said by runfolder_writer_failure and the close. */
static void test_full_disk(void **state)
{
	if (access("/dev/full", W_OK) != 0)
		skip();
	char dir[] = "/tmp/test_runfolder_writer.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256], err[512] = "";
	snprintf(path, sizeof(path), "%s/timeline.csv", dir);
	assert_int_equal(symlink("/dev/full", path), 0);
	struct runfolder_writer w;
	assert_false(runfolder_writer_open(&w, dir, err, sizeof(err)));
	assert_non_null(strstr(err, "timeline.csv: No space left on device"));
	unlink(path);

	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	unlink(path);
	assert_int_equal(symlink("/dev/full", path), 0);
	assert_true(runfolder_writer_open(&w, dir, err, sizeof(err)));
	assert_null(runfolder_writer_failure(&w));
	assert_false(runfolder_writer_event(&w, 1, "_loadgen", "started", NULL));
	assert_non_null(strstr(runfolder_writer_failure(&w), "events.jsonl: No space left"));
	assert_false(runfolder_writer_event(&w, 2, "_loadgen", "phase", NULL));
	/* the timeline still takes its rows */
	struct timeline_row row = {.t_s = 0.1, .variant = "glibc", .phase = "spike"};
	timeline_row_clear(&row);
	assert_true(runfolder_writer_row(&w, &row));
	assert_true(runfolder_writer_flush(&w));
	assert_false(runfolder_writer_close(&w));
	assert_non_null(strstr(runfolder_writer_failure(&w), "events.jsonl"));
	test_dir_remove(dir);
}

/* Several programs opening one new run folder at the same instant (the generator and the
 * controller's collector do): the timeline has one header, not one per program. Each round,
 * four children wait on one pipe and open at once. */
static void test_open_at_once(void **state)
{
	for (int round = 0; round < 30; round++) {
		char dir[] = "/tmp/test_runfolder_writer.XXXXXX";
		assert_non_null(mkdtemp(dir));
		int go[2];
		assert_int_equal(pipe(go), 0);
		pid_t kids[4];
		for (int k = 0; k < 4; k++) {
			kids[k] = fork();
			assert_true(kids[k] >= 0);
			if (kids[k] == 0) {
				char c, err[512];
				struct runfolder_writer w;
				close(go[1]);
				_exit(read(go[0], &c, 1) == 0 &&
				              runfolder_writer_open(&w, dir, err, sizeof(err)) &&
				              runfolder_writer_close(&w)
				          ? 0
				          : 1);
			}
		}
		close(go[0]);
		close(go[1]); /* every child's read returns at once */
		for (int k = 0; k < 4; k++) {
			int status;
			assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
			assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
		char path[256], line[1100];
		snprintf(path, sizeof(path), "%s/timeline.csv", dir);
		char *all = read_all(path);
		assert_non_null(all);
		snprintf(line, sizeof(line), "%s\n", runfolder_timeline_header());
		assert_string_equal(all, line);
		free(all);
		test_dir_remove(dir);
	}
}

/* A zeroed writer (no --out) writes nothing and never fails. */
static void test_unopened(void **state)
{
	struct runfolder_writer w = {0};
	struct timeline_row row = {.t_s = 0.1, .variant = "a", .phase = "spike"};
	timeline_row_clear(&row);
	assert_true(runfolder_writer_row(&w, &row));
	assert_true(runfolder_writer_flush(&w));
	assert_true(runfolder_writer_event(&w, 1, "a", "b", json_object()));
	struct runfolder_phases f;
	assert_true(runfolder_phases_begin(&w, &f, NULL, 0));
	assert_true(runfolder_phases_commit(&f));
	assert_null(runfolder_writer_failure(&w));
	assert_true(runfolder_writer_close(&w));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_header_matches_fixture),
	    cmocka_unit_test(test_rows_and_events),
	    cmocka_unit_test(test_phases_headers_match_fixture),
	    cmocka_unit_test(test_phases),
	    cmocka_unit_test(test_other_header_refused),
	    cmocka_unit_test(test_open_failure),
	    cmocka_unit_test(test_cut_line_refused),
	    cmocka_unit_test(test_full_disk),
	    cmocka_unit_test(test_open_at_once),
	    cmocka_unit_test(test_unopened),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
