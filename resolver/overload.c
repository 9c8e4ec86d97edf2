/* resolver/overload.c - the overload policies (see overload.h). */
#include "overload.h"

#include <string.h>

void overload_init(struct overload *o, enum overload_policy policy, size_t list_size,
                   uint64_t jostle_ms)
{
	memset(o, 0, sizeof(*o));
	o->policy = policy;
	o->list_size = list_size;
	/* unbound lets half the list (rounded up) run to completion whatever its age. */
	o->max_forever = (list_size + 1) / 2;
	o->jostle_ms = jostle_ms;
}

size_t overload_current(const struct overload *o)
{
	return o->n_forever + o->n_jostle;
}

enum overload_verdict overload_admit(struct overload *o, uint64_t now_ms,
                                     struct overload_entry **victim)
{
	*victim = NULL;
	if (o->policy == OVERLOAD_KRESD || overload_current(o) < o->list_size)
		return OVERLOAD_ADMIT;
	/* Only the oldest jostle entry is looked at, as unbound does. */
	struct overload_entry *oldest = o->jostle_first;
	if (oldest && now_ms >= oldest->start_ms && now_ms - oldest->start_ms > o->jostle_ms) {
		o->overwritten++;
		*victim = oldest;
		return OVERLOAD_REPLACE;
	}
	o->exceeded++;
	return OVERLOAD_DROP;
}

void overload_enter(struct overload *o, struct overload_entry *e, uint64_t now_ms)
{
	e->prev = e->next = NULL;
	e->start_ms = now_ms;
	e->half = OVERLOAD_OFF_LIST;
	if (o->policy == OVERLOAD_KRESD)
		return;
	if (o->n_forever < o->max_forever) {
		e->half = OVERLOAD_FOREVER;
		o->n_forever++;
		return;
	}
	e->half = OVERLOAD_JOSTLE;
	e->prev = o->jostle_last;
	if (o->jostle_last)
		o->jostle_last->next = e;
	else
		o->jostle_first = e;
	o->jostle_last = e;
	o->n_jostle++;
}

void overload_leave(struct overload *o, struct overload_entry *e)
{
	if (e->half == OVERLOAD_FOREVER) {
		o->n_forever--;
	} else if (e->half == OVERLOAD_JOSTLE) {
		if (e->prev)
			e->prev->next = e->next;
		else
			o->jostle_first = e->next;
		if (e->next)
			e->next->prev = e->prev;
		else
			o->jostle_last = e->prev;
		o->n_jostle--;
	}
	e->prev = e->next = NULL;
	e->half = OVERLOAD_OFF_LIST;
}

enum overload_policy overload_policy_for_layout(enum memory_layout layout)
{
	return layout == LAYOUT_KRESD ? OVERLOAD_KRESD : OVERLOAD_UNBOUND;
}

static const char *const overload_policy_names[] = {
    [OVERLOAD_UNBOUND] = "unbound",
    [OVERLOAD_KRESD] = "kresd",
};

const char *overload_policy_name(enum overload_policy policy)
{
	return overload_policy_names[policy];
}

int overload_policy_parse(const char *text, enum overload_policy *out)
{
	for (size_t i = 0; i < sizeof(overload_policy_names) / sizeof(overload_policy_names[0]);
	     i++)
		if (strcmp(text, overload_policy_names[i]) == 0) {
			*out = (enum overload_policy)i;
			return 0;
		}
	return -1;
}
