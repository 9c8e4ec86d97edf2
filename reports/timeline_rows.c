/* reports/timeline_rows.c - what the timeline's rows mean to every figure and chart: the interval
 * between rows, the phases left out of spike figures, a row's CPU seconds. */
#include "timeline_rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int timeline_rows_phase_is_preamble(const char *phase)
{
	return strcmp(phase, "warmup") == 0 || strcmp(phase, "calibrate") == 0;
}

double timeline_rows_cpu_s(const struct runfolder_row *row)
{
	double u = row->v[TIMELINE_COL_cpu_user_s], s = row->v[TIMELINE_COL_cpu_sys_s];
	if (isnan(u) && isnan(s))
		return NAN;
	return (isnan(u) ? 0 : u) + (isnan(s) ? 0 : s);
}

double timeline_rows_interval_s(const struct runfolder *rf)
{
	json_t *ms = json_object_get(json_object_get(rf->run, "parameters"), "interval_ms");
	if (json_is_number(ms) && json_number_value(ms) > 0)
		return json_number_value(ms) / 1000.0;
	/* the shortest step between two rows of a target: each row against its target's last */
	double best = NAN;
	double *prev = malloc((rf->n_targets ? rf->n_targets : 1) * sizeof(*prev));
	for (size_t t = 0; prev && t < rf->n_targets; t++)
		prev[t] = NAN;
	for (size_t i = 0; prev && i < rf->n_rows; i++) {
		double d = rf->rows[i].t_s - prev[rf->rows[i].target];
		if (d > 0 && (isnan(best) || d < best))
			best = d;
		prev[rf->rows[i].target] = rf->rows[i].t_s;
	}
	free(prev);
	return isnan(best) ? 1.0 : best;
}
