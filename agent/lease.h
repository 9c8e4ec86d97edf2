/* agent/lease.h - a plan's lease (docs/agent.md, "The lease"): an agent that took a plan withdraws
 * it by itself once its controller has not been heard from (a request carrying the token) for the
 * lease, so that a row does not outlive a controller that went without a word (SIGKILLed, its host
 * rebooted, the network cut). */
#ifndef ALLOCSPIKE_AGENT_LEASE_H
#define ALLOCSPIKE_AGENT_LEASE_H

#include <event2/event.h>
#include <stdbool.h>
#include <stdint.h>

struct agent_lease {
	struct event *timer; /* fires the expiry callback; pending while the lease runs */
	double lease_s;      /* 0: not running (no plan taken yet) */
	uint64_t since_ns;   /* monotonic: the controller last heard from, or the plan answered */
};

/* The timer, calling expired(arg) when the lease runs out; false when libevent cannot make it. */
bool agent_lease_init(struct agent_lease *l, struct event_base *base,
                      void (*expired)(evutil_socket_t, short, void *), void *arg);

/* The plan answered: the lease runs, first for first_s (the lease and the time the controller may
 * wait for other hosts' rows before it speaks again), then lease_s from each request heard. */
bool agent_lease_start(struct agent_lease *l, double lease_s, double first_s);

/* A request carrying the token came: the lease starts again (nothing before a plan). */
void agent_lease_heard(struct agent_lease *l);

/* The plan withdrawn: the lease no longer runs (nothing to protect until the next plan). */
void agent_lease_stop(struct agent_lease *l);
/* Seconds since the controller was last heard from (or the plan answered). */
double agent_lease_silent_s(const struct agent_lease *l);

void agent_lease_free(struct agent_lease *l);

#endif
