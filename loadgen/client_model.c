/* loadgen/client_model.c - which client sends each query: the spans of a connection spike. */
#include "client_model.h"

#include <math.h>
#include <stdlib.h>

#include "schedule.h"

bool client_model_spans(struct client_model *m, const struct schedule *s, uint64_t total)
{
	m->clients_max = m->clients;
	if (!s->clients_max)
		return true;
	struct client_span *spans = calloc(s->count, sizeof(*spans));
	if (!spans)
		return false;
	size_t n = 0;
	for (size_t i = 0; i < s->count; i++) {
		const struct schedule_phase *ph = &s->phases[i];
		uint64_t clients = ph->clients ? ph->clients : m->clients;
		/* the phase's first query: the first whose slot's middle lies past its start (as
		 * schedule_due counts) */
		uint64_t first_k = (uint64_t)floor(ph->count_before + 0.5);
		if (first_k >= total)
			break;
		if (n && spans[n - 1].first_k == first_k) /* the previous phase sent nothing */
			n--;
		if (n && spans[n - 1].clients == clients)
			continue;
		spans[n++] = (struct client_span){.first_k = first_k, .clients = clients};
	}
	for (size_t i = 0; i < n; i++)
		if (spans[i].clients > m->clients_max)
			m->clients_max = spans[i].clients;
	if (n == 0 || (n == 1 && spans[0].clients == m->clients)) {
		free(spans); /* every query among --clients after all (the run ends before) */
		return true;
	}
	spans[0].first_k = 0;
	m->spans = spans;
	m->nspans = n;
	return true;
}

void client_model_free(struct client_model *m)
{
	free((void *)m->spans);
	m->spans = NULL;
	m->nspans = 0;
}
