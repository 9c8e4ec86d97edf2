/* reports/spike_find.c - a variant's spike by its number, for every reader of the spikes arrays. */
#include "spike_find.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"

/* The number of element i of a spikes array; found is false when it has none. */
static json_int_t spike_number_at(const json_t *spikes, size_t i, bool *found)
{
	json_t *n = json_object_get(json_array_get(spikes, i), "spike");
	*found = json_is_integer(n);
	return *found ? json_integer_value(n) : 0;
}

json_t *spike_find(const json_t *spikes, json_int_t number)
{
	/* A summary lists each variant's spikes in ascending order, and a page looks up every
	 * spike of every variant: a binary search keeps that from growing with the square of the
	 * spikes. An array out of order (a summary.json edited by hand) is searched in full. */
	size_t lo = 0, hi = json_array_size(spikes);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		bool found;
		json_int_t x = spike_number_at(spikes, mid, &found);
		if (!found)
			break;
		if (x == number)
			return json_array_get(spikes, mid);
		if (x < number)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t i;
	json_t *sp;
	json_array_foreach(spikes, i, sp)
	{
		json_t *n = json_object_get(sp, "spike");
		if (json_is_integer(n) && json_integer_value(n) == number)
			return sp;
	}
	return NULL;
}

json_t *spike_find_key(const json_t *spikes, const char *key)
{
	size_t n = json_array_size(spikes);
	if (strcmp(key, "last") == 0)
		return n ? json_array_get(spikes, n - 1) : NULL;
	unsigned long long number;
	char err[160]; /* a key that is no number names no spike; the caller says which path */
	if (!cli_parse_count("spikes.N", key, 1, LLONG_MAX, &number, err, sizeof(err)))
		return NULL;
	return spike_find(spikes, (json_int_t)number);
}

static int number_cmp(const void *a, const void *b)
{
	json_int_t x = *(const json_int_t *)a, y = *(const json_int_t *)b;
	return (x > y) - (x < y);
}

size_t spike_find_numbers(const json_t *summary, json_int_t **numbers)
{
	const json_t *variants = json_object_get(summary, "variants");
	size_t total = 0, n = 0, i;
	const char *name;
	json_t *v, *sp;
	json_object_foreach((json_t *)variants, name, v)
	{
		total += json_array_size(json_object_get(v, "spikes"));
	}
	json_int_t *out = total ? malloc(total * sizeof(*out)) : NULL;
	if (!out) {
		*numbers = NULL;
		return 0;
	}
	json_object_foreach((json_t *)variants, name, v)
	{
		json_array_foreach(json_object_get(v, "spikes"), i, sp)
		{
			json_t *num = json_object_get(sp, "spike");
			if (json_is_integer(num))
				out[n++] = json_integer_value(num);
		}
	}
	/* sorted, then each number once */
	qsort(out, n, sizeof(*out), number_cmp);
	size_t unique = 0;
	for (size_t j = 0; j < n; j++)
		if (unique == 0 || out[unique - 1] != out[j])
			out[unique++] = out[j];
	*numbers = out;
	return unique;
}
