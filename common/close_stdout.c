/* common/close_stdout.c - exit status 1 when standard output could not be written (close_stdout.h).
 */
#include "close_stdout.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *close_stdout_program = "allocspike";

static void close_stdout(void)
{
	bool earlier_error = ferror(stdout) != 0;
	errno = 0;
	if (fclose(stdout) == 0 && !earlier_error)
		return;
	/* stdout closed before we started, and nothing was written to it: not our failure */
	if (!earlier_error && errno == EBADF)
		return;
	fprintf(stderr, "%s: cannot write standard output: %s\n", close_stdout_program,
	        errno ? strerror(errno) : "write error");
	_exit(1);
}

void close_stdout_at_exit(const char *program)
{
	static bool registered;
	if (program)
		close_stdout_program = program;
	if (!registered && atexit(close_stdout) == 0)
		registered = true;
}
