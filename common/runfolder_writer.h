/* common/runfolder_writer.h - appends timeline.csv rows and events.jsonl lines to a run folder,
 * flushed. */
#ifndef ALLOCSPIKE_RUNFOLDER_WRITER_H
#define ALLOCSPIKE_RUNFOLDER_WRITER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "latency_hist.h"

#include "timeline_columns.h"

/* One timeline.csv row (docs/run-folder.md). Numeric cells are NAN when empty. */
struct timeline_row {
	double t_s;
	const char *variant;
	const char *phase;
	unsigned spike;
	double cells[TIMELINE_COLUMN_COUNT]; /* indexed by enum timeline_column; from offered on */
};

/* Rows go to a buffer and reach timeline.csv with one write(2) per flush, an event line with one
 * write(2) of its own (O_APPEND: the scenario appends to events.jsonl too). The first write that
 * fails (a full disk, a file-size limit, an I/O error; also a short write) stops all appending to
 * that file at once, so nothing lands after the cut; runfolder_writer_failure says what happened.
 * A zeroed writer (never opened) writes nothing and never fails. */
/* Text formatted before one write(2). */
struct text_buffer {
	char *data;
	size_t len, cap;
};

struct runfolder_writer {
	bool open;
	int timeline, events;    /* file descriptors, -1 once failed or closed */
	struct text_buffer rows; /* formatted rows not yet written */
	char dir[4096];
	char failure[4400]; /* "" while every write succeeded */
};

/* Creates dir if missing and opens both files for appending; the header goes in only when
 * timeline.csv is new or empty (serial runs add their rows to the same file). Refuses a
 * timeline.csv with another header, and a file whose last line was cut off (appending would join
 * the next line to it). */
bool runfolder_writer_open(struct runfolder_writer *w, const char *dir, char *err, size_t err_size);
/* Writes what is buffered and closes both files; false when that, or any write before, failed. */
bool runfolder_writer_close(struct runfolder_writer *w);

/* "PATH: reason" of the first failed write, or NULL while there was none. */
const char *runfolder_writer_failure(const struct runfolder_writer *w);

/* Every numeric cell empty. */
void timeline_row_clear(struct timeline_row *row);

/* Formats one row into the buffer (written by runfolder_writer_flush, once per interval); false
 * once timeline.csv has failed. */
bool runfolder_writer_row(struct runfolder_writer *w, const struct timeline_row *row);
bool runfolder_writer_flush(struct runfolder_writer *w);

/* Appends {"t_s":..,"variant":..,"event":..} plus the keys of extra (taken over, may be NULL)
 * as one line, written at once; false once events.jsonl has failed. */
bool runfolder_writer_event(struct runfolder_writer *w, double t_s, const char *variant,
                            const char *event, json_t *extra);

/* The header line of timeline.csv, without the newline. */
const char *runfolder_timeline_header(void);

/* One row of phases.csv: one target's queries sent in one phase instance (docs/run-folder.md);
 * the non-empty buckets of latency go to latency_hist.csv. */
struct phase_row {
	const char *variant, *phase;
	unsigned spike;
	uint64_t sent, answered, timeouts, pending, late_or_foreign;
	uint64_t noerror, nxdomain, servfail, rcode_other;
	uint64_t max_ns; /* the slowest answer; unused when latency is empty */
	const struct latency_hist *latency;
};

/* phases.csv and latency_hist.csv are rewritten whole, each through a temporary file and
 * rename(2), so a reader sees the last complete pair of files (never half of one):
 * runfolder_phases_begin, a runfolder_phases_row per row, then always runfolder_phases_commit
 * (which also cleans up). The first failure (also in begin) is recorded as
 * runfolder_writer_failure reports it; then nothing more is written and the temporary files are
 * removed, the files in place stay as they were. With a writer never opened nothing is written and
 * nothing fails. */
struct runfolder_phases {
	struct runfolder_writer *w;
	int fds[2];        /* the temporary phases.csv and latency_hist.csv; -1 when failed */
	char tmp[2][4224]; /* their names (unpredictable, atomic_file_create_temp) */
	struct text_buffer text[2];
};

/* variants: the generator's targets. Rows of other variants already in the files are kept (serial
 * runs: one generator per variant, one after the other, into the same folder). */
bool runfolder_phases_begin(struct runfolder_writer *w, struct runfolder_phases *f,
                            const char *const *variants, unsigned count);
void runfolder_phases_row(struct runfolder_phases *f, const struct phase_row *row);
bool runfolder_phases_commit(struct runfolder_phases *f);

/* The header lines of phases.csv and latency_hist.csv, without the newline. */
extern const char runfolder_phases_header[];
extern const char runfolder_latency_hist_header[];

#endif
