/* common/runfolder_writer.h - appends timeline.csv rows and events.jsonl lines to a run folder,
 * flushed. */
#ifndef ALLOCSPIKE_RUNFOLDER_WRITER_H
#define ALLOCSPIKE_RUNFOLDER_WRITER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "timeline_columns.h"

/* One timeline.csv row (docs/run-folder.md). Numeric cells are NAN when empty. */
struct timeline_row {
	double t_s;
	const char *variant;
	const char *phase;
	unsigned spike;
	double cells[TIMELINE_COLUMN_COUNT]; /* indexed by enum timeline_column; from offered on */
};

struct runfolder_writer {
	FILE *timeline; /* NULL when not writing one */
	FILE *events;
};

/* Creates dir if missing and opens both files for appending; the header goes in only when
 * timeline.csv is new or empty (serial runs add their rows to the same file). */
bool runfolder_writer_open(struct runfolder_writer *w, const char *dir, char *err, size_t err_size);
void runfolder_writer_close(struct runfolder_writer *w);

/* Every numeric cell empty. */
void timeline_row_clear(struct timeline_row *row);

/* Writes one row (not yet flushed: call runfolder_writer_flush once per interval). */
bool runfolder_writer_row(struct runfolder_writer *w, const struct timeline_row *row);
bool runfolder_writer_flush(struct runfolder_writer *w);

/* Appends {"t_s":..,"variant":..,"event":..} plus the keys of extra (taken over, may be NULL)
 * as one line, flushed. */
bool runfolder_writer_event(struct runfolder_writer *w, double t_s, const char *variant,
                            const char *event, json_t *extra);

/* The header line of timeline.csv, without the newline. */
const char *runfolder_timeline_header(void);

#endif
