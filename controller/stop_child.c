/* controller/stop_child.c - a wrapped process stopped through its child (stop_child.h). */
#include "stop_child.h"

#include <signal.h>
#include <stdio.h>

#include "monotonic.h"
#include "proc_group.h"
#include "proc_stat.h"

void supervisor_stop_child(struct supervisor *s, struct supervised *p, double grace_s)
{
	if (p->reaped)
		return;
	p->asked = true;
	struct proc_target child = {.pidfd = -1};
	struct proc_stat f;
	child.pid = proc_group_child(p->target.pid, p->target.start_ticks);
	if (child.pid > 0 && proc_stat_read(child.pid, &f)) {
		snprintf(child.name, sizeof(child.name), "%s", p->spec->name);
		child.start_ticks = f.start_ticks;
		if (proc_target_open(&child)) {
			proc_target_signal_alone(&child, SIGTERM);
			proc_target_close(&child);
		}
	}
	double deadline = (double)monotonic_ns() / 1e9 + grace_s;
	for (;;) { /* bounded by the deadline; each poll wakes at an exit or a signal */
		double left = deadline - (double)monotonic_ns() / 1e9;
		if (p->reaped || s->hurry || left <= 0)
			break;
		supervisor_poll(s, left);
	}
	if (!p->reaped)
		supervisor_stop(s, p, 0);
}
