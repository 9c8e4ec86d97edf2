/* loadgen/threads.h - the generator's helper threads start with every signal blocked: SIGINT and
 * SIGTERM belong to the pacing thread, which stops the run. */
#ifndef ALLOCSPIKE_LOADGEN_THREADS_H
#define ALLOCSPIKE_LOADGEN_THREADS_H

#include <pthread.h>
#include <signal.h>

/* pthread_create's return: 0, or the error number. */
static inline int threads_start(pthread_t *thread, void *(*main_fn)(void *), void *arg)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = pthread_create(thread, NULL, main_fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

#endif
