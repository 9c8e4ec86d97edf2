/* reports/model.h - the run as C structures: per variant its spikes with their figures, filled
 * once by the figures pass (figures.c); the passes after it read fields, not keys, and
 * summary.json's spike objects are written from it (reports/README.md "Layers"). */
#ifndef ALLOCSPIKE_REPORTS_MODEL_H
#define ALLOCSPIKE_REPORTS_MODEL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

/* Every figure of a spike (reports/README.md "spikes[]"), by its summary.json name: NUM a number
 * (NAN when not available), SHARE a share clamped to [0, 1] with its raw value beside it
 * (NAME_raw; summary_set_share), SO_FAR a number of the highest peak so far, written for a spike
 * the variant did not run too. One table, so the struct and its serialisation cannot differ. */
#define MODEL_SPIKE_FIGURES(NUM, SHARE, SO_FAR)                                                    \
	NUM(from_s)                                                                                \
	NUM(to_s)                                                                                  \
	NUM(before_anon_kb)                                                                        \
	NUM(before_beyond_cache_kb)                                                                \
	NUM(peak_anon_kb)                                                                          \
	NUM(peak_t_s)                                                                              \
	NUM(peak_rss_kb)                                                                           \
	NUM(end_anon_kb)                                                                           \
	NUM(end_rss_kb)                                                                            \
	NUM(end_t_s)                                                                               \
	SHARE(given_back_share)                                                                    \
	NUM(end_beyond_cache_kb)                                                                   \
	NUM(before_live_kb)                                                                        \
	NUM(before_held_kb)                                                                        \
	NUM(peak_live_kb)                                                                          \
	NUM(peak_held_kb)                                                                          \
	NUM(peak_attributed_t_s)                                                                   \
	NUM(peak_live_not_resident_kb)                                                             \
	NUM(end_live_kb)                                                                           \
	NUM(end_held_kb)                                                                           \
	NUM(end_live_not_resident_kb)                                                              \
	NUM(end_trimmable_kb)                                                                      \
	NUM(end_fragmented_kb)                                                                     \
	NUM(end_allocator_other_kb)                                                                \
	NUM(end_not_resident_kb)                                                                   \
	NUM(end_unmapped_kb)                                                                       \
	NUM(end_outside_kb)                                                                        \
	NUM(live_growth_kb)                                                                        \
	NUM(held_growth_kb)                                                                        \
	NUM(cache_growth_kb)                                                                       \
	NUM(returned_kb)                                                                           \
	NUM(unmapped_growth_kb)                                                                    \
	NUM(returned_to_system_kb)                                                                 \
	NUM(reused_kb)                                                                             \
	SHARE(held_released_share)                                                                 \
	SHARE(held_returned_share)                                                                 \
	SHARE(held_reused_share)                                                                   \
	NUM(before_inflight)                                                                       \
	NUM(peak_inflight)                                                                         \
	NUM(peak_inflight_t_s)                                                                     \
	NUM(live_bytes_per_inflight)                                                               \
	NUM(highest_heap_kb)                                                                       \
	NUM(end_held_share_of_highest_heap)                                                        \
	SO_FAR(highest_inflight)                                                                   \
	SO_FAR(end_held_mb_per_1000_highest_inflight)

#define MODEL_FIELD_NUM(name) double name;
#define MODEL_FIELD_SHARE(name) double name, name##_raw;
struct model_spike {
	int number;
	bool ran; /* the variant has rows of this spike; without, every figure is NAN */
	MODEL_SPIKE_FIGURES(MODEL_FIELD_NUM, MODEL_FIELD_SHARE, MODEL_FIELD_NUM)
	/* of the queries sent in this spike, counted by send phase (phases.csv; NAN without):
	 * summary.json has it in traffic_by_send.instances, not in the spike's object */
	double answered_share;
	/* the live bytes exceeded the heap at the sample before the spike, at the end of its
	 * recovery: the held figure there is floored at 0, not measured */
	bool before_live_above_heap, end_live_above_heap;
	/* set by the validity pass: every variant that ran this spike beside this one answered
	 * under the line in it too (validity.c, "lost by all"): the machine fell behind, not one
	 * variant's capacity */
	bool lost_by_all;
};
#undef MODEL_FIELD_NUM
#undef MODEL_FIELD_SHARE

/* A spike figure chosen by a pass at run time (a basis, a peak or an end): its place in struct
 * model_spike, read with model_spike_figure. */
#define MODEL_SPIKE_FIGURE(name) offsetof(struct model_spike, name)

/* Per spike, not a mean no spike had (summary.json "give_back_per_spike", set by spike_shape.c):
 * of the spikes with a share (held_returned_share where attributed, else given_back_share), how
 * many gave back to the system what they freed, the range of the shares and of the shares the
 * allocator reused (NAN unattributed), how many were clamped by at least SHARE_MIN_GROWTH_KB
 * (judgement.h; a smaller excess is a few pages' noise). */
struct model_give_back {
	size_t spikes, given_back_spikes, clamped_spikes;
	/* the words state the reused share: a spike's allocator reused at least
	 * SHARE_MIN_GROWTH_KB (below, a share rounding to 1 % is a few pages' noise) and the
	 * highest share rounds to 1 % or more */
	bool reuse_worth_saying;
	double share_min, share_max, reused_share_min, reused_share_max;
};

/* Every variant-level figure of summary.json's variant object (reports/README.md "variants"), by
 * its summary.json name, each a number (NAN when not available), in the order the object has them;
 * its group says which part of the object it belongs to, which the pass that sets the group writes
 * at its place (model_variant_json). One table, so the struct and its serialisation cannot
 * differ. */
#define MODEL_VARIANT_FIGURES(X)                                                                   \
	X(ROWS, intervals)                                                                         \
	X(SPIKES, peak_growth_first_to_last_mb)                                                    \
	X(SPIKES, recovery_growth_mb_per_spike)                                                    \
	X(SPIKES, recovery_growth_first_to_last_mb)                                                \
	X(SPIKES, beyond_cache_growth_mb_per_spike)                                                \
	X(SPIKES, beyond_cache_growth_first_to_last_mb)                                            \
	X(SPIKES, mean_given_back_share)                                                           \
	X(ATTRIBUTED, peak_live_growth_first_to_last_mb)                                           \
	X(ATTRIBUTED, peak_held_growth_first_to_last_mb)                                           \
	X(ATTRIBUTED, recovery_live_growth_mb_per_spike)                                           \
	X(ATTRIBUTED, recovery_live_growth_first_to_last_mb)                                       \
	X(ATTRIBUTED, recovery_held_growth_mb_per_spike)                                           \
	X(ATTRIBUTED, recovery_held_growth_first_to_last_mb)                                       \
	X(ATTRIBUTED, mean_held_released_share)                                                    \
	X(ATTRIBUTED, mean_held_returned_share)                                                    \
	X(ATTRIBUTED, mean_held_reused_share)                                                      \
	X(ATTRIBUTED, mean_live_bytes_per_inflight)                                                \
	X(ATTRIBUTED, mean_end_held_share_of_highest_heap)                                         \
	X(ATTRIBUTED, mean_end_held_mb_per_1000_highest_inflight)                                  \
	X(ATTRIBUTED, max_held_growth_kb)                                                          \
	X(ATTRIBUTED, spikes_live_growth_kb)                                                       \
	X(ATTRIBUTED, spikes_held_growth_kb)                                                       \
	X(ATTRIBUTED, spikes_cache_growth_kb)                                                      \
	X(ATTRIBUTED, final_attributed_t_s)                                                        \
	X(ATTRIBUTED, final_live_kb)                                                               \
	X(ATTRIBUTED, final_held_kb)                                                               \
	X(ATTRIBUTED, final_live_not_resident_kb)                                                  \
	X(ATTRIBUTED, final_trimmable_kb)                                                          \
	X(ATTRIBUTED, final_fragmented_kb)                                                         \
	X(ATTRIBUTED, final_allocator_other_kb)                                                    \
	X(ATTRIBUTED, final_not_resident_kb)                                                       \
	X(ATTRIBUTED, final_unmapped_kb)                                                           \
	X(ATTRIBUTED, final_outside_kb)                                                            \
	X(MEMORY, final_anon_kb)                                                                   \
	X(MEMORY, final_rss_kb)                                                                    \
	X(MEMORY, final_t_s)                                                                       \
	X(MEMORY, max_anon_kb)                                                                     \
	X(MEMORY, max_anon_t_s)                                                                    \
	X(MEMORY, max_rss_kb)                                                                      \
	X(MEMORY, warmup_end_anon_kb)                                                              \
	X(MEMORY, cpu_s)                                                                           \
	X(MEMORY, answered)                                                                        \
	X(MEMORY, cpu_s_per_million_answered)                                                      \
	X(RATIOS, ratios_t_s)                                                                      \
	X(RATIOS, final_cache_bytes)                                                               \
	X(RATIOS, final_alloc_allocated_bytes)                                                     \
	X(RATIOS, anon_over_cache)                                                                 \
	X(RATIOS, anon_over_allocated)                                                             \
	X(RATIOS, beyond_cache_final_kb)                                                           \
	X(RATIOS, crash_count)

/* The parts of a variant's object MODEL_VARIANT_FIGURES groups its figures in, in the object's
 * order: the rows (written first), the figures over its spikes and over its attributed samples
 * (only when its rows could be read), its memory and CPU over the run, the memory ratios and
 * crashes (after the traffic, which traffic.c writes). */
enum model_variant_group {
	MODEL_VARIANT_ROWS,
	MODEL_VARIANT_SPIKES,
	MODEL_VARIANT_ATTRIBUTED,
	MODEL_VARIANT_MEMORY,
	MODEL_VARIANT_RATIOS,
};

/* The shape of a spike figure over the spikes (reports/README.md "spikes_left_shape", set by
 * spike_shape.c): each spike's change in MB (n of them, NAN where a spike has none), the step of
 * the second spike and the robust trend from it on (NAN, step_spike 0, trend NULL with too few
 * spikes) and the word the trend is judged by. n is 0 when the variant has no such shape. */
struct model_shape {
	double *per_spike_mb;
	size_t n;
	int step_spike;
	double step_mb, trend_mb_per_spike;
	const char *trend; /* judgement_of_trend's word */
};

/* Why a variant's held figures are n/a on the allocator-held basis (summary.json
 * spikes_left_na_reason): its live counter exceeds its heap, so heap - live is no measure. */
#define MODEL_HELD_NA_LIVE_ABOVE_HEAP "live bytes exceed the heap"

/* What the spikes left on the best held-memory basis the variant has (summary.json
 * spikes_left_basis ...; NULL basis and NAN figures when it has none) and its shape; the basis's
 * place in the advisor's order (advisor_model_held_mb's rank). na_reason: the basis is the
 * allocator's but its figures cannot be formed (NAN, no shape; NULL when they can). */
struct model_spikes_left {
	const char *basis, *na_reason;
	size_t basis_rank;
	double held_before_spikes_mb, held_after_spikes_mb, spikes_left_mb;
	struct model_shape shape;
};

/* The shape of the spikes' peaks (summary.json "peaks_shape"; shape.n 0 without spikes) and the
 * robust trends of live and allocator-held memory at them. */
struct model_peaks_shape {
	struct model_shape shape;
	double live_trend_mb_per_spike, held_trend_mb_per_spike;
};

/* Traffic of a group of phases counted by the interval its answers arrived in (timeline.csv;
 * summary.json spike_traffic, baseline_traffic), each a number (NAN when not available), in the
 * object's order after its intervals. One table, so the struct and its serialisation cannot
 * differ. */
#define MODEL_ARRIVAL_TRAFFIC_FIGURES(X)                                                           \
	X(offered)                                                                                 \
	X(answered)                                                                                \
	X(timeouts)                                                                                \
	X(answered_per_offered_by_arrival)                                                         \
	X(lat_p50_ms_of_intervals)                                                                 \
	X(lat_p90_ms_of_intervals)                                                                 \
	X(lat_p99_ms_of_intervals)                                                                 \
	X(lat_p99_max_ms)

#define MODEL_FIELD_TRAFFIC(name) double name;
struct model_arrival_traffic {
	size_t intervals;
	MODEL_ARRIVAL_TRAFFIC_FIGURES(MODEL_FIELD_TRAFFIC)
};

/* Traffic of a phase or a phase instance counted by the phase each query was sent in
 * (summary.json traffic_by_send; reports/README.md): the counts, their shares of the queries sent,
 * the latency quantiles (COUNT, SHARE and QUANTILE, each a number, NAN when not available), in the
 * object's order. One table, so the struct and its serialisation cannot differ. */
#define MODEL_SEND_TRAFFIC_FIGURES(COUNT, SHARE, QUANTILE)                                         \
	COUNT(sent)                                                                                \
	COUNT(answered)                                                                            \
	COUNT(lost)                                                                                \
	COUNT(late)                                                                                \
	COUNT(pending)                                                                             \
	COUNT(noerror)                                                                             \
	COUNT(nxdomain)                                                                            \
	COUNT(servfail)                                                                            \
	COUNT(rcode_other)                                                                         \
	SHARE(answered_share)                                                                      \
	SHARE(lost_share)                                                                          \
	QUANTILE(lat_p50_ms)                                                                       \
	QUANTILE(lat_p90_ms)                                                                       \
	QUANTILE(lat_p99_ms)                                                                       \
	QUANTILE(lat_p999_ms)                                                                      \
	QUANTILE(lat_max_ms)

struct model_send_traffic {
	MODEL_SEND_TRAFFIC_FIGURES(MODEL_FIELD_TRAFFIC, MODEL_FIELD_TRAFFIC, MODEL_FIELD_TRAFFIC)
	/* the answers the merged histogram holds (a phase from phases.csv only) */
	double latency_answers;
};
#undef MODEL_FIELD_TRAFFIC

/* The phases traffic is reported for, in reading order (model_traffic_phases their names). */
enum model_traffic_phase {
	MODEL_TRAFFIC_SPIKE,
	MODEL_TRAFFIC_RECOVERY,
	MODEL_TRAFFIC_BASELINE,
	MODEL_TRAFFIC_PHASE_COUNT
};
extern const char *const model_traffic_phases[MODEL_TRAFFIC_PHASE_COUNT];

/* One row of phases.csv: a phase instance's traffic. */
struct model_send_instance {
	char *phase;
	int spike;
	struct model_send_traffic t;
};

/* A variant's traffic by send phase (set by traffic.c): per phase its rows summed (seen: how
 * many, 0 when the phase has none: left out of summary.json), per phase instance its row, and the
 * answered share of the queries sent at the baseline rate. Without phases.csv, the timeline's
 * intervals summed by the phase answers arrived in (counted_by "receive", no instances). */
struct model_traffic_by_send {
	bool from_phases_csv;
	struct {
		size_t seen;
		struct model_send_traffic t;
	} phases[MODEL_TRAFFIC_PHASE_COUNT];
	struct model_send_instance *instances;
	size_t n_instances;
	double baseline_answered_share;
};

/* The advisor's figures of one run (summary.json "advisor", set by advisor.c's pass), each a
 * number (NAN when not available), with the basis its held memory is measured on. One table, so
 * the struct and its serialisation cannot differ. */
#define MODEL_ADVISOR_FIGURES(X)                                                                   \
	X(held_after_spikes_mb)                                                                    \
	X(held_growth_mb_per_spike)                                                                \
	X(peak_anon_mb)                                                                            \
	X(cpu_s_per_million_answered)                                                              \
	X(spike_lat_p99_ms)

#define MODEL_FIELD_ADVISOR(name) double name;
struct model_advisor {
	MODEL_ADVISOR_FIGURES(MODEL_FIELD_ADVISOR)
	const char *held_basis; /* NULL until the advisor's pass sets it */
};
#undef MODEL_FIELD_ADVISOR

#define MODEL_FIELD_VARIANT(group, name) double name;
struct model_variant {
	MODEL_VARIANT_FIGURES(MODEL_FIELD_VARIANT)
	char *name;
	/* run.json's row of the variant: the allocator it must run on (NULL: unknown) and the
	 * settings its env cell asks for (NULL: none, the cell "-" or empty) */
	char *allocator, *env;
	struct model_spike *spikes; /* every spike number of the run, ascending */
	size_t n_spikes;            /* 0 when the variant has no rows */
	/* a row has live bytes and the allocator's heap (summary.json "attribution") */
	bool attributed;
	/* at the last attributed sample the live bytes exceeded the heap: final_held_kb is floored
	 * at 0, not measured */
	bool final_live_above_heap;
	struct model_give_back give_back;
	struct model_peaks_shape peaks;                               /* set by spike_shape.c */
	struct model_spikes_left spikes_left;                         /* set by spike_shape.c */
	struct model_arrival_traffic spike_traffic, baseline_traffic; /* set by figures.c */
	struct model_traffic_by_send traffic_by_send;                 /* set by traffic.c */
	struct model_advisor advisor;                                 /* set by advisor.c */
};
#undef MODEL_FIELD_VARIANT

/* A variant figure chosen by a pass at run time: its place in struct model_variant, read with
 * model_variant_figure. */
#define MODEL_VARIANT_FIGURE(name) offsetof(struct model_variant, name)

struct model {
	struct model_variant *variants; /* summary.json's variant_order */
	size_t n_variants;
};

/* A variant of that name (taken over: model_free frees it) without spikes, every figure NAN. */
void model_variant_init(struct model_variant *mv, char *name);

/* Sets the variant's allocator and env from its run.json row's cells (either NULL); an env of "-"
 * or "" is none. */
void model_variant_set_row(struct model_variant *mv, const char *allocator, const char *env);

/* "NAME (ALLOCATOR, ENV)" into b, the way the verdict and the findings name a variant: the
 * allocator left out where own_name_enough and it is the variant's name ("glibc"), ENV only where
 * the row sets one; "allocator unknown" where the row names none. */
void model_variant_label(struct strbuf *b, const struct model_variant *mv, bool own_name_enough);

/* The figure at offset (MODEL_VARIANT_FIGURE) of a variant. */
double model_variant_figure(const struct model_variant *mv, size_t offset);

/* Sets the figure at offset (MODEL_VARIANT_FIGURE) of a variant to x. */
void model_variant_set_figure(struct model_variant *mv, size_t offset, double x);

/* Sets the figures of group in o, the variant's summary.json object. */
void model_variant_json(json_t *o, const struct model_variant *mv, enum model_variant_group group);

/* Spike number's figures, every one NAN (not run). */
void model_spike_init(struct model_spike *sp, int number);

/* Sets a share (clamped to [0, 1], NAN for NAN) and its raw value. */
void model_set_share(double *share, double *raw, double value);

/* Whether a share was clamped: its raw value lies outside [0, 1]. */
bool model_share_clamped(double share, double raw);

/* The figure at offset (MODEL_SPIKE_FIGURE) of a spike. */
double model_spike_figure(const struct model_spike *sp, size_t offset);

/* The index of spike number in mv->spikes (ascending: bsearch), -1 when it has none. */
long model_spike_index(const struct model_variant *mv, int number);

/* The variant of that name; one without spikes or figures (model_variant_init) when the model
 * has none of that name. */
const struct model_variant *model_variant_named(const struct model *m, const char *name);

/* The spike's summary.json object: its number and SO_FAR figures, and its others when it ran. */
json_t *model_spike_json(const struct model_spike *sp);

/* The variant's peaks_shape object, null without spikes. */
json_t *model_peaks_shape_json(const struct model_variant *mv);

/* Why the variant's held figures on BASIS cannot be formed (MODEL_HELD_NA_LIVE_ABOVE_HEAP: the
 * basis is allocator_held and the live counter exceeds the heap before the first spike or after
 * the last recovery, where heap - live is floored at 0), NULL when they can. */
const char *model_held_na_reason(const struct model_variant *mv, const char *basis);

/* Sets the variant's spikes_left_basis, held_before_spikes_mb, held_after_spikes_mb,
 * spikes_left_mb and spikes_left_shape in o (each null without a basis or spikes). */
void model_spikes_left_json(json_t *o, const struct model_variant *mv);

/* The variant's give_back_per_spike object, with the share_key its shares are of. */
json_t *model_give_back_json(const struct model_variant *mv);

/* The variant's spike_traffic or baseline_traffic object. */
json_t *model_arrival_traffic_json(const struct model_arrival_traffic *t);

/* The send phase p's traffic of the variant, NULL when the variant has none of that phase. */
const struct model_send_traffic *model_send_phase(const struct model_variant *mv,
                                                  enum model_traffic_phase p);

/* The variant's traffic_by_send object. */
json_t *model_traffic_by_send_json(const struct model_traffic_by_send *t);

/* The variant's advisor object. */
json_t *model_advisor_json(const struct model_advisor *a);

void model_free(struct model *m);

#endif
