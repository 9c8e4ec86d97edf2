/* loadgen/phase_writer.c - phases.csv and latency_hist.csv rewritten from every target's phase
 * tallies. */
#include "phase_writer.h"

#include <stdlib.h>

static bool phase_begun(const struct pacer *p, const struct phase_instance *in, double t)
{
	return in->start_s == 0 || (in->start_s <= t && in->start_s < p->end_s);
}

bool phase_writer_write(struct runfolder_writer *w, const struct pacer *p, double t)
{
	if (!w->open)
		return true;
	const char **names = calloc(p->count ? p->count : 1, sizeof(*names));
	/* a tally's histogram is 9 kB: not on the stack */
	struct phase_tally *snap = malloc(sizeof(*snap));
	if (!names || !snap) {
		free(names);
		free(snap);
		return false;
	}
	for (unsigned i = 0; i < p->count; i++)
		names[i] = p->targets[i].spec.name;
	struct runfolder_phases f;
	runfolder_phases_begin(w, &f, names, p->count);
	for (unsigned i = 0; i < p->count; i++) {
		for (size_t j = 0; j < p->plan->count; j++) {
			const struct phase_instance *in = &p->plan->instances[j];
			if (!phase_begun(p, in, t))
				break; /* instances are in schedule order */
			phase_tally_snapshot(&p->targets[i].tallies[j], snap);
			uint64_t done = snap->answered + snap->timeouts;
			uint64_t pending = snap->sent > done ? snap->sent - done : 0;
			struct phase_row row = {.variant = names[i],
			                        .phase = schedule_kind_name(in->kind),
			                        .spike = in->spike,
			                        .sent = snap->sent,
			                        .answered = snap->answered,
			                        .timeouts = snap->timeouts,
			                        .pending = pending,
			                        .late_or_foreign = snap->late_or_foreign,
			                        .noerror = snap->rcodes[RCODE_NOERROR],
			                        .nxdomain = snap->rcodes[RCODE_NXDOMAIN],
			                        .servfail = snap->rcodes[RCODE_SERVFAIL],
			                        .rcode_other = snap->rcodes[RCODE_OTHER],
			                        .max_ns = snap->max_ns,
			                        .latency = &snap->latency};
			runfolder_phases_row(&f, &row);
		}
	}
	free(snap);
	free(names);
	return runfolder_phases_commit(&f);
}
