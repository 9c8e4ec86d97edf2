/* agent/sampler.h - one target process read at the run's interval: its memory and CPU from /proc
 * and, where it has one, its control socket's stats (live bytes, allocator, requests in flight). */
#ifndef ALLOCSPIKE_AGENT_SAMPLER_H
#define ALLOCSPIKE_AGENT_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "control_client.h"
#include "proc_sample.h"

/* One read of the target. Times are the agent's CLOCK_REALTIME at the read's start and end: the
 * controller places samples on its own clock from them and the measured offset (docs/agent.md). */
struct agent_sample {
	uint64_t read_start_ns, read_end_ns;
	bool up;         /* the process was there (same PID, same start time) */
	bool control_ok; /* its control socket answered this read */
	struct proc_sample proc;
	struct control_stats stats;
};

struct agent_sampler {
	struct proc_watch watch;
	const char *control; /* NULL: /proc only (a daemon without our control socket) */
	int control_timeout_ms;
	struct agent_sample last;
	unsigned long long samples;          /* reads made */
	unsigned long long control_failures; /* reads whose control socket did not answer */
	char control_error[256];             /* the latest failure's reason, "" if none */
};

/* Opens the target's /proc files (false with the reason in err when it is not there). control:
 * its control socket's path or NULL. */
bool agent_sampler_open(struct agent_sampler *s, pid_t pid, const char *control,
                        int control_timeout_ms, char *err, size_t err_size);

/* One read into s->last. Once the target has gone it stays down: a PID given to another process
 * is never read as the target. */
void agent_sampler_read(struct agent_sampler *s);

/* The reads go on from another process (a systemd unit's after its restart), the counts kept;
 * false with the reason in err, the old target kept, when pid is not there. */
bool agent_sampler_retarget(struct agent_sampler *s, pid_t pid, char *err, size_t err_size);

void agent_sampler_close(struct agent_sampler *s);

#endif
