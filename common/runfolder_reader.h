/* common/runfolder_reader.h - the one reader of a run folder (run.json, events.jsonl,
 * timeline.csv). */
#ifndef ALLOCSPIKE_RUNFOLDER_READER_H
#define ALLOCSPIKE_RUNFOLDER_READER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "timeline_columns.h"

/* One timeline.csv row. Numeric cells are in v[] indexed by enum timeline_column; an empty cell or
 * a column the file does not have is NAN ("not available"). The text columns are kept apart. */
struct runfolder_row {
	int target;     /* index into runfolder.targets */
	char phase[16]; /* warmup, baseline, spike, recovery, calibrate, zero (or "" if absent) */
	int spike;      /* spike number, 0 before the first */
	double t_s;     /* same as v[TIMELINE_COL_t_s] */
	double v[TIMELINE_COLUMN_COUNT];
	size_t line; /* line in timeline.csv, for messages */
};

/* The per-query counts of one phase instance of a variant, by the send time of each query
 * (phases.csv, docs/run-folder.md); looked up by name like the timeline's. */


/* The numeric columns of latency_hist.csv: one non-empty bucket of an instance's histogram. */
enum hist_column { HIST_COL_upper_us, HIST_COL_count, HIST_COLUMN_COUNT };

/* A row of phases.csv (v[] by enum phases_column) or of latency_hist.csv (v[] by enum
 * hist_column): one phase instance (phase, spike) of one variant. NAN: empty cell. */
struct runfolder_instance_row {
	int target;
	char phase[16];
	int spike;
	double v[PHASES_COLUMN_COUNT];
	size_t line;
};

struct runfolder_event {
	double t_s;
	const char *variant; /* points into obj */
	const char *event;   /* points into obj */
	json_t *obj;         /* the whole line, for extra keys (code, signal, cpu_share, ...) */
	size_t line;
};

struct runfolder {
	char *dir;
	json_t *run;        /* run.json as read */
	const char *status; /* run.json "status" ("unknown" if absent) */
	struct runfolder_event *events;
	size_t n_events;
	struct runfolder_row *rows; /* in file order */
	size_t n_rows;
	char **
	    targets; /* timeline targets (variants and harness rows) in order of first appearance */
	size_t n_targets;
	/* A last line without its newline that did not parse (the writer was stopped mid-line) is
	 * dropped, not an error; these say it happened. */
	bool events_truncated;
	bool timeline_truncated;
	/* phases.csv and latency_hist.csv, optional (older run folders have neither): has_* says
	 * the file was there. */
	struct runfolder_instance_row *phase_rows;
	size_t n_phase_rows;
	bool has_phases;
	struct runfolder_instance_row *hist_rows;
	size_t n_hist_rows;
	bool has_latency_hist;
};

/* Reads DIR/run.json, DIR/events.jsonl and DIR/timeline.csv (and DIR/phases.csv and
 * DIR/latency_hist.csv when present) into rf. On failure returns false with
 * "FILE:LINE: reason" in err and leaves rf empty (runfolder_free is still safe). */
bool runfolder_read(const char *dir, struct runfolder *rf, char *err, size_t err_size);

/* Reads DIR/timeline.csv only (a calibration pass has no run.json): rf->run is NULL, status
 * "unknown", no events. Same errors as runfolder_read. */
bool runfolder_read_timeline(const char *dir, struct runfolder *rf, char *err, size_t err_size);

void runfolder_free(struct runfolder *rf);

/* Index of target name in rf->targets, or -1. */
int runfolder_target_index(const struct runfolder *rf, const char *name);

/* True for the harness rows (_loadgen, _upstream, ...): names starting with '_' are not variants.
 */
bool runfolder_is_harness(const char *target);

/* Name of a timeline column ("t_s", "anon_kb", ...). */
const char *runfolder_column_name(enum timeline_column col);

#endif
