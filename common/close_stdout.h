/* common/close_stdout.h - a program whose standard output could not be written exits 1, even when
 * the failure shows only at exit (a full disk, /dev/full, a closed pipe): stdout is buffered, so a
 * printf that "succeeded" may fail when the buffer is flushed after main returns. */
#ifndef ALLOCSPIKE_COMMON_CLOSE_STDOUT_H
#define ALLOCSPIKE_COMMON_CLOSE_STDOUT_H

/* Registers, once, an exit handler that flushes and closes stdout and, if that or any earlier
 * write to it failed, says so on stderr as "PROGRAM: cannot write standard output: REASON" and
 * ends the process with status 1. Call it first in main. */
void close_stdout_at_exit(const char *program);

#endif
