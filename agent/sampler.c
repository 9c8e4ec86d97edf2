/* agent/sampler.c - one target process read at the run's interval: /proc and its control socket. */
#include "sampler.h"

#include <stdio.h>
#include <string.h>

#include "monotonic.h"

bool agent_sampler_open(struct agent_sampler *s, pid_t pid, const char *control,
                        int control_timeout_ms, char *err, size_t err_size)
{
	memset(s, 0, sizeof(*s));
	s->control = control;
	s->control_timeout_ms = control_timeout_ms;
	return proc_watch_open(&s->watch, pid, err, err_size);
}

void agent_sampler_read(struct agent_sampler *s)
{
	struct agent_sample *a = &s->last;
	a->read_start_ns = realtime_ns();
	a->up = proc_watch_sample(&s->watch, false, &a->proc) == PROC_SAMPLE_OK;
	a->control_ok = false;
	if (a->up && s->control) {
		a->control_ok = control_stats(s->control, s->control_timeout_ms, &a->stats,
		                              s->control_error, sizeof(s->control_error));
		s->control_failures += !a->control_ok;
	}
	a->read_end_ns = realtime_ns();
	s->samples++;
}

bool agent_sampler_retarget(struct agent_sampler *s, pid_t pid, char *err, size_t err_size)
{
	struct proc_watch next;
	if (!proc_watch_open(&next, pid, err, err_size))
		return false;
	proc_watch_close(&s->watch);
	s->watch = next;
	return true;
}

void agent_sampler_close(struct agent_sampler *s)
{
	proc_watch_close(&s->watch);
}
