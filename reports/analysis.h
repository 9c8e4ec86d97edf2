/* reports/analysis.h - what the scenarios ask of a run folder while it is being written: the
 * capacity knee of a calibration ramp, the harness's CPU windows, the warm-up check, and one
 * properly escaped events.jsonl line. Each is a subcommand of allocspike-report printing JSON
 * (reports/README.md, "Run-folder analysis"). */
#ifndef ALLOCSPIKE_REPORTS_ANALYSIS_H
#define ALLOCSPIKE_REPORTS_ANALYSIS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "runfolder_reader.h"

/* How the subcommands print reals (10 significant digits); the controller records the same
 * figures with it. */
#define ANALYSIS_REAL_PRECISION JSON_REAL_PRECISION(10)

/* The knee of a calibration ramp per variant (analysis_knee.c). */
json_t *analysis_knee(const struct runfolder *rf);

/* The harness rows' CPU share per one-second window: mean and maximum per harness row, and one
 * harness_saturated event per stretch of saturated windows of the hierarchy (analysis_harness.c).
 */
json_t *analysis_harness(const struct runfolder *rf);

/* Whether each variant's cache reached a steady state by the end of the warm-up, for a cache
 * capped at cap_bytes (analysis_warmup.c). */
json_t *analysis_warmup(const struct runfolder *rf, double cap_bytes);

/* The request footprint of every variant of a footprint run (analysis_footprint.c): per spike its
 * live bytes and requests in flight, bytes per request two ways, the fit over the sampler's polls
 * (RUN/sizes/NAME.jsonl, placed on the timeline by origin, the wall-clock second of t = 0; none
 * read when has_origin is false) and the size mix; NULL when out of memory. */
json_t *analysis_footprint(const struct runfolder *rf, const char *run, double origin,
                           bool has_origin);
/* RUN/footprint.json and RUN/footprint.md from analysis_footprint's result; false with the path in
 * err when one cannot be written. */
bool analysis_footprint_write(const char *run, const json_t *result, char *err, size_t err_size);

/* What the calibration's ramps so far decide (analysis_calibration.c): the knees of every pass
 * (RUN/calibration, RUN/calibration/extend-K) merged per variant, the slowest, the spike rate
 * (its capacity times multiple), and whether to ramp again (at most `extensions` times); NULL with
 * err filled when a pass cannot be read or no variant was sampled. */
json_t *analysis_calibration(const char *run, double multiple, int extensions, char *err,
                             size_t err_size);

/* The CPU cost per allocator of a cpu.sh run (analysis_cpu.c): per row of variants (run.json's,
 * name and allocator) its callgrind figures (RUN/callgrind/NAME.callgrind.txt, callgrind_annotate's
 * listing) and perf figures (RUN/perf/NAME.perf.csv), null where the file is missing, answers from
 * each pass's timeline; NULL with err filled when the registry's patterns do not compile. */
json_t *analysis_cpu(const char *run, const json_t *variants, char *err, size_t err_size);
/* cpu.md's text of analysis_cpu's result; false when the output failed. */
bool analysis_cpu_markdown(FILE *out, const json_t *cpu, const char *status, const char *schedule);

/* The subcommands: arguments after the subcommand's name; exit status 0, 1 (unreadable run
 * folder) or 2 (usage) (analysis_cli.c). */
int analysis_cmd_knee(int argc, char **argv);
int analysis_cmd_harness(int argc, char **argv);
int analysis_cmd_warmup(int argc, char **argv);
int analysis_cmd_event(int argc, char **argv);
int analysis_cmd_footprint(int argc, char **argv);
int analysis_cmd_calibration(int argc, char **argv);
int analysis_cmd_cpu(int argc, char **argv);

#endif
