/* controller/clock_history.c - an agent's clock measurements over a run (clock_history.h). */
#include "clock_history.h"
#include "grow.h"

#include <math.h>
#include <stdlib.h>

bool clock_history_add(struct clock_history *h, uint64_t at_ns, const struct clock_offset *off)
{
	struct clock_point *p = grow_room(h->points, &h->cap, h->n, sizeof(*p), 64);
	if (!p)
		return false;
	h->points = p;
	h->points[h->n++] = (struct clock_point){at_ns, *off};
	return true;
}

const struct clock_point *clock_history_nearest(const struct clock_history *h, uint64_t agent_ns)
{
	const struct clock_point *best = NULL;
	double best_distance = INFINITY;
	for (size_t i = 0; i < h->n; i++) {
		/* the read on our clock by this measurement, against when it was made */
		double ours = (double)agent_ns - h->points[i].offset.offset_ms * 1e6;
		double distance = fabs(ours - (double)h->points[i].at_ns);
		if (distance < best_distance) {
			best_distance = distance;
			best = &h->points[i];
		}
	}
	return best;
}

void clock_history_free(struct clock_history *h)
{
	free(h->points);
	*h = (struct clock_history){0};
}
