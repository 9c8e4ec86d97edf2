/* tests/common/test_close_stdout.c - a program whose standard output cannot be written exits 1
 * and says why, even when the write fails only as the buffer is flushed at exit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "close_stdout.h"

/* Runs a child with stdout on `device` that prints a line and exits 0; returns its exit status. */
static int child_status(const char *device)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(device, O_WRONLY);
		int null = open("/dev/null", O_WRONLY);
		if (fd < 0 || null < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
		    dup2(null, STDERR_FILENO) < 0)
			_exit(99);
		close_stdout_at_exit("test");
		printf("a line that fits in the buffer\n");
		exit(0);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_full_device_exits_1(void **state)
{
	(void)state;
	assert_int_equal(child_status("/dev/full"), 1);
}

static void test_writable_output_keeps_status(void **state)
{
	(void)state;
	assert_int_equal(child_status("/dev/null"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_full_device_exits_1),
	    cmocka_unit_test(test_writable_output_keeps_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
