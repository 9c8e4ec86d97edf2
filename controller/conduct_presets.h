/* controller/conduct_presets.h - what each load scenario's steps do of their own
 * (docs/controller.md, "The steps"): the queries its file needs, its schedule, whether it
 * calibrates, the words its drives add (footprint's sampler and poller, cpu.sh's tools), and what
 * it does after the drive (ramp's capacities, footprint's report). The order they share is
 * conduct_steps.c's. */
#ifndef ALLOCSPIKE_CONTROLLER_CONDUCT_PRESETS_H
#define ALLOCSPIKE_CONTROLLER_CONDUCT_PRESETS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* At most this many extensions of the `auto` calibration's ramp (each one ramp of --calibrate-len,
 * the top doubling each time: 6000 qps becomes at most 48000): at most 1 + this many ramps. */
#define CONDUCT_CALIBRATE_EXTENSIONS 3

enum conduct_preset {
	PRESET_SPIKE,     /* spike.sh: warm-up, baseline, spikes; calibrated when auto */
	PRESET_FOOTPRINT, /* footprint.sh: spike.sh's run with the size-class sampler and poller */
	PRESET_RAMP,      /* ramp.sh: a warm-up and one ramp, then each row's capacity */
	PRESET_STEADY,    /* steady.sh: a warm-up and one rate */
	PRESET_CPU,       /* cpu.sh: a pass per tool, each row alone under it */
};

/* The preset of a scenario's name; false for one the controller has no steps for. */
bool conduct_preset_of(const char *scenario, enum conduct_preset *preset);

/* How long a build or env row has to print its ready line (callgrind slows a start ~50 times). */
unsigned conduct_preset_ready_timeout_s(enum conduct_preset p);

/* The queries the run's file needs, from the run's options (--query-count's own when given). */
bool conduct_preset_query_count(enum conduct_preset p, const json_t *options,
                                unsigned long long *count, char *err, size_t err_size);

/* The spike rate of a spike run: "auto" (calibrate first), else the option's. NULL for another. */
const char *conduct_preset_spike_rate(enum conduct_preset p, const json_t *options);

/* The measured schedule, given the spike rate a spike run uses (NULL for another), and what else
 * run.json's parameters record beside it (KEY=TEXT and KEY:=JSON words, a line each; "" none). */
bool conduct_preset_schedule(enum conduct_preset p, const json_t *options, const char *spike_rate,
                             char *schedule, size_t size, char *parameters, size_t psize, char *err,
                             size_t err_size);

/* cpu.sh's tools, in order, from --tools: their count, each into tools (at most max). */
size_t conduct_preset_tools(const json_t *options, char tools[][16], size_t max);

/* A cpu.sh pass's wrap of row name under tool, its words a line each, its output in dir. */
void conduct_preset_tool_wrap(const char *tool, const char *dir, const char *name, char *out,
                              size_t size);

/* spike.sh --clients: the test certificate and key (self-signed, ECDSA P-256, two days) made in
 * RUN/tls (its path into tls), which the rows serve DNS over TLS with (docs/loadgen.md, "Clients
 * and transports"); false with why in err. */
bool conduct_preset_certificate(const char *run_dir, char *tls, size_t size, char *err,
                                size_t err_size);

/* footprint.sh's live sampler: in the lib/ beside the programs' folder. */
void conduct_preset_sampler(const char *bin, char *path, size_t size);

/* footprint.sh: drive's wrap of our row name (allocator its allocator): the sampler preloaded, its
 * socket in ctl_dir; its poller, drive's during= words ($FOOTPRINT_POLL_PERIOD_S, default 0.5 s).
 */
void conduct_preset_footprint_wrap(const char *bin, const char *ctl_dir, const char *name,
                                   const char *allocator, char *out, size_t size);
void conduct_preset_footprint_poller(const char *bin, const char *run_dir, char *out, size_t size);

/* footprint.sh after the drive: the poller's clock is the wall clock, the timeline's starts with
 * the schedule at origin (RUN/sizes/origin_unix_s); then its report, footprint.json and
 * footprint.md, whose path is printed. False with why in err. */
bool conduct_preset_sizes_origin(const char *run_dir, const char *origin, char *err,
                                 size_t err_size);
bool conduct_preset_footprint_report(const char *bin, const char *run_dir, char *err,
                                     size_t err_size);

#endif
