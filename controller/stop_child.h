/* controller/stop_child.h - stopping a wrapped process through its child: a wrapper such as
 * `perf stat` writes its count only when its child (the resolver) exits, so the child alone gets
 * SIGTERM and the wrapper is waited for (the served request stop-child, cpu.sh). */
#ifndef ALLOCSPIKE_CONTROLLER_STOP_CHILD_H
#define ALLOCSPIKE_CONTROLLER_STOP_CHILD_H

#include "supervisor.h"

/* p's child (the first in its group whose parent it is, pinned by a pidfd and its start time)
 * gets SIGTERM; p is waited for up to grace_s (no longer after a signal came: s->hurry), then
 * stopped on the usual path (supervisor_stop, no grace) if it still runs. p's exit is recorded
 * as asked for. */
void supervisor_stop_child(struct supervisor *s, struct supervised *p, double grace_s);

#endif
