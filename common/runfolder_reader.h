/* common/runfolder_reader.h - the one reader of a run folder (run.json, events.jsonl,
 * timeline.csv). */
#ifndef ALLOCSPIKE_RUNFOLDER_READER_H
#define ALLOCSPIKE_RUNFOLDER_READER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "timeline_columns.h"

/* What a run folder may hold (docs/run-folder.md, "Limits"). A run folder is untrusted input (it
 * may come from another machine, or be damaged), and each of these numbers sizes an allocation or
 * a loop of the reader or of the report, so each is checked where the data enters, and what is
 * out of range is refused with its file, line and column, never read, clamped or skipped. Each is
 * far above what a real run holds. */

/* Spike numbers 0 to this: a schedule has at most 100,000 phases (common/schedule.c), so no run can
 * number a spike higher. The report sizes its per-spike tables by the highest spike number. */
#define RUNFOLDER_MAX_SPIKE 100000
/* Data lines of timeline.csv, phases.csv, latency_hist.csv and lines of events.jsonl, each: a
 * timeline row is held in memory (about 330 bytes), so this is about 3.3 GB. That is 6 targets for
 * 46 hours at the default 100 ms, or 66 targets (64 variants and the harness) for 4 hours; longer
 * soaks record at a longer --interval-ms. */
#define RUNFOLDER_MAX_ROWS 10000000
/* Distinct variant names (not starting with '_') of a run, over run.json, timeline.csv and the
 * per-instance files: variants.tsv has a few dozen rows; one generator takes at most 64 targets
 * (loadgen/main.c), and a serial run (one generator per variant into the folder) may hold a whole
 * table. The report's per-variant work over the rows stays within this factor. */
#define RUNFOLDER_MAX_VARIANTS 256
/* Distinct harness names ('_loadgen', '_upstream', ...): the generator's own row and its at most
 * 64 --watch rows. */
#define RUNFOLDER_MAX_HARNESS 65
/* Bytes in one line of any of the files, newline excluded: a timeline row is a few hundred, an
 * event a few hundred (a failure's reason a few thousand). */
#define RUNFOLDER_MAX_LINE 1048576
/* Bytes of run.json: a few kB (each variant's --version --json, the query file's statistics). */
#define RUNFOLDER_MAX_RUN_JSON (16 * 1048576)
/* |t_s| in seconds, timeline and events: a schedule lasts at most 7 days (common/schedule.c), and
 * a day more covers what a scenario does before it starts (negative t_s) or after it ends. */
#define RUNFOLDER_MAX_T_S (8 * 86400.0)
/* |value| of any other number cell: integers are exact in a double below 2^53 (9e15), and no
 * memory in bytes, count of queries or latency in ms of a run comes near. */
#define RUNFOLDER_MAX_MAGNITUDE 1e15
/* A latency_hist.csv bucket's count: a million answers a second for 11 days; ten million rows of
 * these still add up within a 64-bit counter. */
#define RUNFOLDER_MAX_HIST_COUNT 1e12
/* run.json parameters.interval_ms: the generator records every 10 ms to 60 s. */
#define RUNFOLDER_MIN_INTERVAL_MS 1.0
#define RUNFOLDER_MAX_INTERVAL_MS 3600000.0
/* run.json machine.cores. */
#define RUNFOLDER_MAX_CORES 1000000.0

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

/* The numeric columns of interval_hist.csv (a shard's fragment only): one non-empty bucket of the
 * histogram of one interval's answers, the interval named by its timeline row's t_s. */
enum interval_hist_column {
	IHIST_COL_t_s,
	IHIST_COL_upper_us,
	IHIST_COL_count,
	IHIST_COLUMN_COUNT
};

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

/* The reads of an agent on another host, DIR/agents/NAME.jsonl, placed on the variant NAME's
 * timeline rows (common/runfolder_agents.h). */
struct runfolder_agent {
	int target;         /* the variant, an index into runfolder.targets */
	size_t reads;       /* lines that were reads of a running target ("up" not 0) */
	size_t intervals;   /* the variant's timeline rows */
	size_t with_read;   /* of them, those a read's start fell in */
	double gap_start_s; /* the longest run of rows without a read: where it starts (t_s) */
	double gap_s;       /* and how long it is (s); 0 when there is none */
	char error[640];    /* why the file was not used at all ("" when it was): no start to place
	                     * it by, not a regular file, or "agents/NAME.jsonl:LINE: why; the file
	                     * is refused" for a line that is no read */
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
	json_t *target_index; /* name -> index into targets, so a lookup costs no scan */
	size_t n_variants;    /* distinct variant names (not harness) of run.json and the files */
	size_t n_harness;     /* targets that are harness rows */
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
	/* interval_hist.csv, written only by a generator with --shard (its fragment) */
	struct runfolder_instance_row *interval_hist_rows;
	size_t n_interval_hist_rows;
	bool has_interval_hist;
	/* DIR/agents/NAME.jsonl, one per variant that has one (runfolder_read only) */
	struct runfolder_agent *agents;
	size_t n_agents;
};

/* Reads DIR/run.json, DIR/events.jsonl and DIR/timeline.csv (and DIR/phases.csv and
 * DIR/latency_hist.csv when present) into rf. Names (variants, targets, phases) must be
 * identifiers (common/identifier.h) and every number within the limits above. On failure returns
 * false with "FILE:LINE: reason" (with the column where one is at fault) in err and leaves rf
 * empty (runfolder_free is still safe). */
bool runfolder_read(const char *dir, struct runfolder *rf, char *err, size_t err_size);

/* Reads DIR/run.json only (a run whose timelines are in folders of their passes, cpu.sh's): no
 * events, no rows. Same errors as runfolder_read. */
bool runfolder_read_run(const char *dir, struct runfolder *rf, char *err, size_t err_size);

/* Reads DIR/timeline.csv only (a calibration pass has no run.json): rf->run is NULL, status
 * "unknown", no events. Same errors as runfolder_read. */
bool runfolder_read_timeline(const char *dir, struct runfolder *rf, char *err, size_t err_size);

/* Reads what a generator writes (events.jsonl, timeline.csv, and phases.csv and latency_hist.csv
 * when present), without run.json: a shard's fragment (allocspike-report merge). rf->run is NULL,
 * status "unknown". Same errors as runfolder_read. */
bool runfolder_read_fragment(const char *dir, struct runfolder *rf, char *err, size_t err_size);

/* The files of a fragment (NULL-terminated): what a generator with --shard --out writes and
 * allocspike-report merge reads; what a shard's agent serves and its controller fetches. */
extern const char *const runfolder_fragment_files[];

void runfolder_free(struct runfolder *rf);

/* For the run folder's other readers (common/runfolder_agents.c): one line of at most
 * RUNFOLDER_MAX_LINE bytes, its length without the newline (-1 at end of file, -2 out of memory)
 * and whether it had one; a longer line or one holding a NUL byte is read to its end and said in
 * fault. runfolder_line_refused: whether such a line must be refused, with err "PATH:LINE: why". */
enum line_fault { LINE_OK, LINE_TOO_LONG, LINE_NUL };
ssize_t runfolder_line_read(FILE *f, char **buf, size_t *cap, bool *had_newline,
                            enum line_fault *fault);
bool runfolder_line_refused(ssize_t n, enum line_fault fault, const char *path, size_t lineno,
                            char *err, size_t err_size);

/* The host run.json's row of variant names (its "host"), or for a row without one (runs from before
 * it was recorded) the machine's (machine.hostname, when it is an identifier); NULL when neither is
 * known. A row sampled by an agent on another host is named by the collector's clock events instead
 * (reports/hosts.c; docs/run-folder.md, "run.json"). */
const char *runfolder_row_host(const struct runfolder *rf, const char *variant);

/* Index of target name in rf->targets, or -1. */
int runfolder_target_index(const struct runfolder *rf, const char *name);

/* True for the harness rows (_loadgen, _upstream, ...): names starting with '_' are not variants.
 */
bool runfolder_is_harness(const char *target);

/* True for a generator's row: _loadgen, or _loadgen_I for shard I of a merged run
 * (docs/run-folder.md, "Fragments and merge"). */
bool runfolder_is_generator(const char *target);

/* A generator's start_realtime ("S.NNNNNNNNN": its started event's, fragment.json's, run.json's)
 * in nanoseconds on CLOCK_REALTIME; false for NULL or any other form. */
bool runfolder_realtime_ns(const char *text, int64_t *ns);

/* Name of a timeline column ("t_s", "anon_kb", ...). */
const char *runfolder_column_name(enum timeline_column col);

#endif
