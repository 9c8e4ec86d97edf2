/* upstream/wheel.c - timer wheel: O(1) insert, O(elapsed ms + due items) advance, one event timer.
 */
#include "wheel.h"

#include <stdlib.h>

int wheel_init(struct wheel *w, size_t nslots, uint64_t now_ms)
{
	size_t n = 1;
	while (n < nslots)
		n *= 2;
	w->head = calloc(n, sizeof(*w->head));
	w->tail = calloc(n, sizeof(*w->tail));
	w->nslots = n;
	w->now_ms = now_ms;
	w->count = 0;
	return w->head && w->tail;
}

void wheel_add(struct wheel *w, struct wheel_node *n, uint64_t due_ms)
{
	/* a slot holds one round only: everything lies within the horizon */
	if (due_ms <= w->now_ms)
		due_ms = w->now_ms + 1;
	if (due_ms >= w->now_ms + w->nslots)
		due_ms = w->now_ms + w->nslots - 1;
	n->due_ms = due_ms;
	n->next = NULL;
	size_t i = due_ms & (w->nslots - 1);
	if (w->tail[i])
		w->tail[i]->next = n;
	else
		w->head[i] = n;
	w->tail[i] = n;
	w->count++;
}

size_t wheel_advance(struct wheel *w, uint64_t now_ms, void (*fire)(struct wheel_node *, void *),
                     void *ctx)
{
	size_t fired = 0;
	if (now_ms <= w->now_ms)
		return 0;
	uint64_t steps = now_ms - w->now_ms;
	if (steps > w->nslots)
		steps = w->nslots; /* every node is within one horizon, so one turn reaches all */
	for (uint64_t k = 1; k <= steps && w->count; k++) {
		size_t i = (w->now_ms + k) & (w->nslots - 1);
		struct wheel_node *n = w->head[i];
		w->head[i] = w->tail[i] = NULL;
		while (n) {
			struct wheel_node *next = n->next;
			w->count--;
			fired++;
			fire(n, ctx);
			n = next;
		}
	}
	w->now_ms = now_ms;
	return fired;
}

void wheel_free(struct wheel *w)
{
	free(w->head);
	free(w->tail);
	w->head = w->tail = NULL;
}
