/* reports/machine_busy.c - the machine's busy share in the spikes (machine_busy.h). */
#include "machine_busy.h"

#include <math.h>
#include <stdlib.h>

#include "cpu_windows.h"
#include "spread.h"
#include "run_mode.h"

/* Windows of every target, summed where all of them are wholly in a spike: the windows of the
 * first target with rows say which windows there are; a window some target lacks is left out
 * (a process not yet or no longer sampled). */
static size_t busy_windows(const struct cpu_windows *per_target, size_t n_targets, double *busy)
{
	const struct cpu_windows *first = NULL;
	for (size_t t = 0; t < n_targets && !first; t++)
		if (per_target[t].n)
			first = &per_target[t];
	if (!first)
		return 0;
	size_t n = 0;
	size_t *at =
	    calloc(n_targets, sizeof(*at)); /* each target's cursor: windows are in order */
	if (!at)
		abort();
	for (size_t k = 0; k < first->n; k++) {
		const struct cpu_window *w = &first->v[k];
		double sum = 0;
		bool whole = w->all_spike;
		for (size_t t = 0; t < n_targets && whole; t++) {
			const struct cpu_windows *ws = &per_target[t];
			if (!ws->n)
				continue;
			while (at[t] < ws->n &&
			       (ws->v[at[t]].segment < w->segment ||
			        (ws->v[at[t]].segment == w->segment && ws->v[at[t]].w < w->w)))
				at[t]++;
			const struct cpu_window *o = at[t] < ws->n ? &ws->v[at[t]] : NULL;
			whole = o && o->segment == w->segment && o->w == w->w && o->all_spike;
			if (whole)
				sum += cpu_window_share(o);
		}
		if (whole)
			busy[n++] = sum;
	}
	free(at);
	return n;
}

json_t *machine_busy_figures(const struct runfolder *rf)
{
	double cores =
	    json_number_value(json_object_get(json_object_get(rf->run, "machine"), "cores"));
	if (!(cores > 0) || rf->n_agents > 0 || !run_mode_side_by_side(rf) || rf->n_targets == 0)
		return json_null();
	struct cpu_windows *per_target = calloc(rf->n_targets, sizeof(*per_target));
	if (!per_target)
		abort();
	size_t most = 0, processes = 0;
	for (size_t t = 0; t < rf->n_targets; t++) {
		if (!cpu_windows_of(rf, (int)t, &per_target[t]))
			abort();
		most = per_target[t].n > most ? per_target[t].n : most;
		processes += per_target[t].n > 0;
	}
	double *busy = calloc(most + 1, sizeof(*busy));
	if (!busy)
		abort();
	size_t n = busy_windows(per_target, rf->n_targets, busy);
	json_t *out = json_null();
	if (n > 0) {
		double sum = 0;
		for (size_t k = 0; k < n; k++) {
			/* a process's ticks can land in the next window: no more than every core */
			busy[k] = fmin(busy[k] / cores, 1);
			sum += busy[k];
		}
		qsort(busy, n, sizeof(*busy), spread_cmp_double);
		/* nearest rank */
		size_t rank = (size_t)ceil(0.95 * (double)n);
		out = json_pack("{s:f, s:I, s:I, s:f, s:f}", "cores", cores, "processes",
		                (json_int_t)processes, "windows", (json_int_t)n, "spikes_mean",
		                round(sum / (double)n * 1000) / 1000, "spikes_p95",
		                round(busy[rank ? rank - 1 : 0] * 1000) / 1000);
	}
	for (size_t t = 0; t < rf->n_targets; t++)
		free(per_target[t].v);
	free(per_target);
	free(busy);
	return out;
}
