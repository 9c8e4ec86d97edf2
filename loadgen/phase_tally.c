/* loadgen/phase_tally.c - every query counted in the phase instance it was sent in (answered,
 * timed out, rcodes, latency histogram), for phases.csv and latency_hist.csv. */
#include "phase_tally.h"

#include <stdlib.h>

#include "counters.h"

bool phase_plan_init(struct phase_plan *pl, const struct schedule *s)
{
	*pl = (struct phase_plan){0};
	pl->instances = calloc(s->count ? s->count : 1, sizeof(*pl->instances));
	pl->of_phase = calloc(s->count ? s->count : 1, sizeof(*pl->of_phase));
	if (!pl->instances || !pl->of_phase) {
		phase_plan_free(pl);
		return false;
	}
	/* spike numbers never decrease along the schedule, so a pair seen before is among the
	 * instances of the current spike number: a short search even for 100,000 phases */
	size_t same_spike = 0; /* the first instance with the current spike number */
	for (size_t i = 0; i < s->count; i++) {
		const struct schedule_phase *ph = &s->phases[i];
		if (pl->count && pl->instances[pl->count - 1].spike != ph->spike)
			same_spike = pl->count;
		size_t j = same_spike;
		while (j < pl->count && pl->instances[j].kind != ph->kind)
			j++;
		if (j == pl->count)
			pl->instances[pl->count++] = (struct phase_instance){
			    .kind = ph->kind, .spike = ph->spike, .start_s = ph->start_s};
		pl->of_phase[i] = (uint32_t)j;
	}
	return true;
}

void phase_plan_free(struct phase_plan *pl)
{
	free(pl->instances);
	free(pl->of_phase);
	*pl = (struct phase_plan){0};
}

void phase_tally_answer(struct phase_tally *t, unsigned rcode, uint64_t latency_ns)
{
	counters_add(&t->answered, 1);
	counters_add(&t->rcodes[rcode_class_of(rcode)], 1);
	if (latency_ns > t->max_ns)
		__atomic_store_n(&t->max_ns, latency_ns, __ATOMIC_RELAXED);
	latency_hist_add(&t->latency, latency_ns);
}

void phase_tally_snapshot(const struct phase_tally *t, struct phase_tally *out)
{
	/* a query is counted sent before its answer or timeout, and x86 keeps stores and loads
	 * in order: reading sent last keeps sent >= answered + timeouts */
	out->answered = counters_read(&t->answered);
	out->timeouts = counters_read(&t->timeouts);
	out->late_or_foreign = counters_read(&t->late_or_foreign);
	for (int i = 0; i < 4; i++)
		out->rcodes[i] = counters_read(&t->rcodes[i]);
	out->max_ns = counters_read(&t->max_ns);
	out->sent = counters_read(&t->sent);
	latency_hist_snapshot(&t->latency, &out->latency);
}
