/* reports/cpu_windows.c - CPU seconds in one-second windows (cpu_windows.h). */
#include "cpu_windows.h"

#include <math.h>
#include <string.h>

#include "grow.h"
#include "harness_saturation.h"

static bool windows_add(struct cpu_windows *ws, int segment, long w, double dt, double dc,
                        bool spike)
{
	struct cpu_window *last = ws->n ? &ws->v[ws->n - 1] : NULL;
	if (!last || last->segment != segment || last->w != w) {
		void *p = grow_room(ws->v, &ws->cap, ws->n, sizeof(*ws->v), 256);
		if (!p)
			return false;
		ws->v = p;
		last = &ws->v[ws->n++];
		*last = (struct cpu_window){.segment = segment, .w = w, .all_spike = true};
	}
	last->dt += dt;
	last->dc += dc;
	last->all_spike = last->all_spike && spike;
	return true;
}

bool cpu_windows_of(const struct runfolder *rf, int target, struct cpu_windows *ws)
{
	double pt = NAN, pc = NAN;
	int segment = 0;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct runfolder_row *r = &rf->rows[i];
		double user = r->v[TIMELINE_COL_cpu_user_s], sys = r->v[TIMELINE_COL_cpu_sys_s];
		if (r->target != target || isnan(user))
			continue;
		double c = user + (isnan(sys) ? 0 : sys);
		if (!isnan(pt) && r->t_s > pt) {
			long w = (long)floor((r->t_s - 1e-6) / HARNESS_WINDOW_S);
			if (!windows_add(ws, segment, w, r->t_s - pt, c - pc,
			                 strcmp(r->phase, "spike") == 0))
				return false;
		} else if (!isnan(pt)) {
			segment++;
		}
		pt = r->t_s;
		pc = c;
	}
	return true;
}

double cpu_window_share(const struct cpu_window *w)
{
	return w->dt > 0 ? w->dc / w->dt : 0;
}
