/* common/proc_stat.h - the fields of /proc/PID/stat the harness reads: state, parent, process group,
 * CPU time and start time (what tells one process from a later one given the same PID). */
#ifndef ALLOCSPIKE_PROC_STAT_H
#define ALLOCSPIKE_PROC_STAT_H

#include <stdbool.h>
#include <sys/types.h>

struct proc_stat {
	char state;                      /* field 3: R S D Z X ... */
	long ppid;                       /* field 4: the parent */
	long pgrp;                       /* field 5: the process group */
	unsigned long long utime, stime; /* fields 14, 15: clock ticks */
	unsigned long long start_ticks;  /* field 22: clock ticks after boot */
};

/* Parses the text of /proc/PID/stat (the command name, in parentheses, may hold ") "). */
bool proc_stat_parse(const char *text, struct proc_stat *f);

/* Reads /proc/PID/stat; false when there is no such process (or it cannot be read). */
bool proc_stat_read(pid_t pid, struct proc_stat *f);

/* true while PID is the process that started at START_TICKS (a zombie counts: its PID is held). */
bool proc_stat_same(pid_t pid, unsigned long long start_ticks);

#endif
