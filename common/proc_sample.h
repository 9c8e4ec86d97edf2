/* common/proc_sample.h - a process's memory and CPU from /proc (status, stat, smaps_rollup),
 * reuse-safe. */
#ifndef ALLOCSPIKE_PROC_SAMPLE_H
#define ALLOCSPIKE_PROC_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct proc_sample {
	long rss_kb, anon_kb, hwm_kb; /* /proc/PID/status VmRSS, RssAnon, VmHWM; -1 if absent */
	long pss_kb;                  /* /proc/PID/smaps_rollup Pss; -1 when not sampled */
	double cpu_user_s, cpu_sys_s; /* /proc/PID/stat utime, stime: cumulative */
};

/* One watched process. The files stay open: reading an open /proc/PID file of a process that has
 * ended fails even when the PID has been given to another process since, and the start time
 * read at open time is compared on every sample as a second guard. */
struct proc_watch {
	pid_t pid;
	unsigned long long start_ticks; /* field 22 of /proc/PID/stat */
	int status_fd, stat_fd, smaps_fd;
	bool gone;
};

enum proc_sample_result {
	PROC_SAMPLE_OK,
	PROC_SAMPLE_GONE, /* ended, a zombie, or the PID now belongs to another process */
};

/* Opens the process's files and records its start time; false with a reason if it is not there. */
bool proc_watch_open(struct proc_watch *w, pid_t pid, char *err, size_t err_size);

/* Samples status and stat, and smaps_rollup too when with_pss (it costs more: it walks every
 * mapping). Once GONE, always GONE. */
enum proc_sample_result proc_watch_sample(struct proc_watch *w, bool with_pss,
                                          struct proc_sample *out);

void proc_watch_close(struct proc_watch *w);

/* This process's own RssAnon in kB, -1 if unreadable: the ceiling for an allocator's footprint. */
long proc_self_anon_kb(void);

#endif
