/* agent/lease.c - a plan's lease (lease.h). */
#include "lease.h"

#include "monotonic.h"

bool agent_lease_init(struct agent_lease *l, struct event_base *base,
                      void (*expired)(evutil_socket_t, short, void *), void *arg)
{
	*l = (struct agent_lease){.timer = evtimer_new(base, expired, arg)};
	return l->timer != NULL;
}

bool agent_lease_start(struct agent_lease *l, double lease_s, double first_s)
{
	struct timeval first = seconds_timeval(first_s);
	l->lease_s = lease_s;
	l->since_ns = monotonic_ns();
	return evtimer_add(l->timer, &first) == 0;
}

void agent_lease_heard(struct agent_lease *l)
{
	if (l->lease_s <= 0)
		return;
	/* adding a pending timer again moves its deadline: one timer, however many requests */
	struct timeval lease = seconds_timeval(l->lease_s);
	l->since_ns = monotonic_ns();
	evtimer_add(l->timer, &lease);
}

void agent_lease_stop(struct agent_lease *l)
{
	l->lease_s = 0;
	evtimer_del(l->timer);
}

double agent_lease_silent_s(const struct agent_lease *l)
{
	return (double)(monotonic_ns() - l->since_ns) / 1e9;
}

void agent_lease_free(struct agent_lease *l)
{
	if (l->timer)
		event_free(l->timer);
	l->timer = NULL;
}
