/* reports/analysis_warmup.c - did the warm-up bring every cache to a steady state before the
 * spikes that count (allocspike-report warmup)? A cache still filling raises every variant's
 * peaks spike after spike whatever the allocator, and hides the allocator's own drift. */
#include "analysis.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Steady: the cache holds this share of its cap or more... */
#define WARMUP_FULL_SHARE 0.9
/* ...or its entry count grew less than this over the warm-up's last fifth (entries expiring as
 * fast as they arrive). */
#define WARMUP_STEADY_GROWTH 0.02
#define WARMUP_LAST_PART 0.8

/* What a variant's warm-up rows say: the count that measures growth is cache_entries where the
 * variant reports it (our builds, the daemons through their sampler), else anon_kb (a daemon that
 * reports no cache figure: memory that stopped growing is the next best sign). */
struct warmup_rows {
	enum timeline_column basis;
	size_t first, last, from; /* row indexes into rf->rows */
	bool any;
};

static bool warmup_row(const struct runfolder_row *r, int target, enum timeline_column basis)
{
	return r->target == target && strcmp(r->phase, "warmup") == 0 && !isnan(r->v[basis]);
}

static bool warmup_rows(const struct runfolder *rf, int target, enum timeline_column basis,
                        struct warmup_rows *w)
{
	*w = (struct warmup_rows){.basis = basis};
	for (size_t i = 0; i < rf->n_rows; i++) {
		if (!warmup_row(&rf->rows[i], target, basis))
			continue;
		if (!w->any)
			w->first = i;
		w->last = i;
		w->any = true;
	}
	if (!w->any)
		return false;
	/* The first row at or after WARMUP_LAST_PART of the warm-up. */
	double end = rf->rows[w->last].t_s;
	w->from = w->last;
	for (size_t i = w->first; i <= w->last; i++) {
		if (warmup_row(&rf->rows[i], target, basis) &&
		    rf->rows[i].t_s >= WARMUP_LAST_PART * end) {
			w->from = i;
			break;
		}
	}
	return true;
}

static json_t *number_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *warmup_of(const struct runfolder *rf, int target, double cap_bytes)
{
	struct warmup_rows w;
	if (!warmup_rows(rf, target, TIMELINE_COL_cache_entries, &w) &&
	    !warmup_rows(rf, target, TIMELINE_COL_anon_kb, &w))
		return NULL;
	const struct runfolder_row *last = &rf->rows[w.last], *from = &rf->rows[w.from];
	double start = from->v[w.basis], end = last->v[w.basis];
	double growth = start > 0 ? (end - start) / start : 1;
	growth = round(growth * 10000) / 10000;
	double bytes = last->v[TIMELINE_COL_cache_bytes];
	double share = !isnan(bytes) && cap_bytes > 0 ? bytes / cap_bytes : NAN;
	bool steady =
	    (!isnan(share) && share >= WARMUP_FULL_SHARE) || growth < WARMUP_STEADY_GROWTH;
	json_t *o = json_object();
	json_object_set_new(o, "cache_bytes_end",
	                    isnan(bytes) ? json_null() : json_integer((json_int_t)bytes));
	double entries = last->v[TIMELINE_COL_cache_entries];
	json_object_set_new(o, "cache_entries_end",
	                    isnan(entries) ? json_null() : json_integer((json_int_t)entries));
	json_object_set_new(o, "cap_bytes", json_integer((json_int_t)cap_bytes));
	json_object_set_new(o, "share_of_cap", number_or_null(share));
	json_object_set_new(o, "entries_growth_last_fifth",
	                    w.basis == TIMELINE_COL_cache_entries ? json_real(growth)
	                                                          : json_null());
	json_object_set_new(o, "growth_basis", json_string(runfolder_column_name(w.basis)));
	json_object_set_new(o, "growth_last_fifth", json_real(growth));
	json_object_set_new(o, "steady", json_boolean(steady));
	return o;
}

json_t *analysis_warmup(const struct runfolder *rf, double cap_bytes)
{
	json_t *out = json_object();
	for (size_t t = 0; t < rf->n_targets; t++) {
		if (runfolder_is_harness(rf->targets[t]))
			continue;
		json_t *o = warmup_of(rf, (int)t, cap_bytes);
		if (o)
			json_object_set_new(out, rf->targets[t], o);
	}
	return out;
}
