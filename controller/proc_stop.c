/* controller/proc_stop.c - the one stop path (proc_stop.h). */
#include "proc_stop.h"

#include <signal.h>
#include <stdio.h>

#include "monotonic.h"

static double stop_now_s(void)
{
	return (double)monotonic_ns() / 1e9;
}

static bool stop_all_ended(struct proc_target *const *targets, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (!proc_target_ended(targets[i]))
			return false;
	return true;
}

/* Until every target has ended, the deadline, or (when hurry_ends) a hurry. */
static void stop_wait(struct proc_target *const *targets, size_t count, double deadline,
                      bool hurry_ends, const struct proc_stop_waiter *w)
{
	for (;;) {
		double left = deadline - stop_now_s();
		if (stop_all_ended(targets, count) || left <= 0 || (hurry_ends && *w->hurry))
			return;
		w->wait(w->ctx, left < 0.05 ? left : 0.05);
	}
}

void proc_stop_targets(struct proc_target *const *targets, size_t count, double grace_s,
                       const struct proc_stop_waiter *w)
{
	bool termed = false;
	for (size_t i = 0; i < count && !*w->hurry; i++)
		if (!proc_target_ended(targets[i]))
			termed = proc_target_signal(targets[i], SIGTERM) || termed;
	if (termed)
		stop_wait(targets, count, stop_now_s() + grace_s, true, w);
	bool killed = false;
	for (size_t i = 0; i < count; i++) {
		if (proc_target_ended(targets[i]))
			continue;
		if (!*w->hurry)
			fprintf(
			    stderr,
			    "allocspike-run: %s (pid %ld) ignored SIGTERM for %gs; killing it\n",
			    targets[i]->name, (long)targets[i]->pid, grace_s);
		killed = proc_target_signal(targets[i], SIGKILL) || killed;
	}
	if (killed)
		stop_wait(targets, count, stop_now_s() + PROC_STOP_KILL_WAIT_S, false, w);
}

bool proc_stop_leftovers(struct proc_target *const *targets, size_t count,
                         const struct proc_stop_waiter *w, char *text, size_t size)
{
	double deadline = stop_now_s() + PROC_STOP_KILL_WAIT_S;
	for (;;) {
		bool any = false;
		for (size_t i = 0; i < count && !any; i++)
			any = proc_target_left(targets[i]);
		if (!any || stop_now_s() >= deadline)
			break;
		w->wait(w->ctx, 0.05);
	}
	size_t used = 0;
	text[0] = '\0';
	for (size_t i = 0; i < count; i++) {
		if (!proc_target_left(targets[i]) || used >= size)
			continue;
		int n = snprintf(text + used, size - used, "%s:%ld\n", targets[i]->name,
		                 (long)targets[i]->pid);
		used += n > 0 ? (size_t)n : 0;
	}
	return text[0] != '\0';
}
