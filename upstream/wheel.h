/* upstream/wheel.h - a hashed timer wheel with 1 ms slots for delayed answers. */
#ifndef ALLOCSPIKE_UPSTREAM_WHEEL_H
#define ALLOCSPIKE_UPSTREAM_WHEEL_H

#include <stddef.h>
#include <stdint.h>

/* Embedded in whatever waits; the wheel never allocates per item. */
struct wheel_node {
	struct wheel_node *next;
	uint64_t due_ms;
};

struct wheel {
	struct wheel_node **head;
	struct wheel_node **tail;
	size_t nslots;   /* power of two: the horizon in ms */
	uint64_t now_ms; /* every slot up to this time has fired */
	size_t count;
};

/* nslots is rounded up to a power of two; false when out of memory. */
int wheel_init(struct wheel *w, size_t nslots, uint64_t now_ms);

/* Schedules n at due_ms, clamped into (now, now + horizon); O(1). */
void wheel_add(struct wheel *w, struct wheel_node *n, uint64_t due_ms);

/* Fires, in due order, every node due at or before now_ms; returns how many fired. */
size_t wheel_advance(struct wheel *w, uint64_t now_ms, void (*fire)(struct wheel_node *, void *),
                     void *ctx);

void wheel_free(struct wheel *w);

#endif
