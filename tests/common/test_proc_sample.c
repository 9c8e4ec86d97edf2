/* tests/common/test_proc_sample.c - the /proc sampler, on this test itself and on a child that
 * ends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc_sample.h"

static void test_sample_self(void **state)
{
	struct proc_watch w;
	char err[256];
	assert_true(proc_watch_open(&w, getpid(), err, sizeof(err)));
	struct proc_sample a, b;
	assert_int_equal(proc_watch_sample(&w, true, &a), PROC_SAMPLE_OK);
	assert_true(a.rss_kb > 0 && a.anon_kb > 0 && a.hwm_kb >= a.rss_kb);
	assert_true(a.pss_kb > 0);

	/* touch 64 MB: anonymous RSS and the high-water mark must follow */
	size_t size = 64 << 20;
	char *volatile p = malloc(size); /* volatile: the compiler may not drop the writes */
	for (size_t i = 0; i < size; i += 4096)
		p[i] = 1;
	/* and spend some CPU */
	volatile unsigned long x = 0;
	struct timespec t0, t1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 1000000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	} while ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec) < 150e6);
	assert_true(x > 0); /* used, so the loop stays */
	assert_int_equal(proc_watch_sample(&w, false, &b), PROC_SAMPLE_OK);
	assert_true(b.anon_kb >= a.anon_kb + 60000);
	assert_true(b.hwm_kb >= b.rss_kb);
	assert_int_equal(b.pss_kb, -1); /* not asked for */
	assert_true(b.cpu_user_s + b.cpu_sys_s > a.cpu_user_s + a.cpu_sys_s);
	free(p);
	proc_watch_close(&w);
}

static void test_child_gone(void **state)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	struct proc_watch w;
	char err[256];
	assert_true(proc_watch_open(&w, pid, err, sizeof(err)));
	struct proc_sample s;
	assert_int_equal(proc_watch_sample(&w, true, &s), PROC_SAMPLE_OK);
	kill(pid, SIGKILL);
	/* a zombie counts as gone already; after reaping the files fail to read */
	for (int i = 0; i < 200 && proc_watch_sample(&w, false, &s) == PROC_SAMPLE_OK; i++)
		usleep(10000);
	assert_int_equal(proc_watch_sample(&w, false, &s), PROC_SAMPLE_GONE);
	waitpid(pid, NULL, 0);
	assert_int_equal(proc_watch_sample(&w, false, &s), PROC_SAMPLE_GONE);
	assert_int_equal(s.rss_kb, -1);
	proc_watch_close(&w);
	/* and a PID that is not there cannot be opened */
	assert_false(proc_watch_open(&w, pid, err, sizeof(err)));
	assert_non_null(strstr(err, "no such process"));
}

/* A PID given to another process since: the start time no longer matches, so it is gone. */
static void test_reused_pid(void **state)
{
	struct proc_watch w;
	char err[256];
	assert_true(proc_watch_open(&w, getpid(), err, sizeof(err)));
	struct proc_sample s;
	assert_int_equal(proc_watch_sample(&w, false, &s), PROC_SAMPLE_OK);
	w.start_ticks += 1; /* as if the process we meant had started at another time */
	assert_int_equal(proc_watch_sample(&w, false, &s), PROC_SAMPLE_GONE);
	w.start_ticks -= 1; /* and once gone, always gone */
	assert_int_equal(proc_watch_sample(&w, false, &s), PROC_SAMPLE_GONE);
	proc_watch_close(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sample_self),
	    cmocka_unit_test(test_child_gone),
	    cmocka_unit_test(test_reused_pid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
