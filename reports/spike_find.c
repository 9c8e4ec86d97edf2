/* reports/spike_find.c - a variant's spike by its number, for every reader of the spikes arrays. */
#include "spike_find.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"

json_t *spike_find(const json_t *spikes, json_int_t number)
{
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
			bool seen = !json_is_integer(num);
			for (size_t j = 0; j < n && !seen; j++)
				seen = out[j] == json_integer_value(num);
			if (!seen)
				out[n++] = json_integer_value(num);
		}
	}
	qsort(out, n, sizeof(*out), number_cmp);
	*numbers = out;
	return n;
}
