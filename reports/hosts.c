/* reports/hosts.c - the host each variant ran on (hosts.h). */
#include "hosts.h"

#include <stdlib.h>
#include <string.h>

#include "identifier.h"

const char *hosts_of_agent(const struct runfolder *rf, const char *name)
{
	for (size_t i = 0; i < rf->n_events; i++) {
		const struct runfolder_event *e = &rf->events[i];
		if (strcmp(e->event, "clock") != 0 || strcmp(e->variant, name) != 0)
			continue;
		/* the agent's word, carried by the collector: used only when it is a name */
		const char *host = json_string_value(json_object_get(e->obj, "host"));
		if (host && identifier_valid(host, NULL, 0))
			return host;
	}
	return NULL;
}

static int hosts_compare(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void hosts_add(json_t *summary, const struct runfolder *rf)
{
	json_t *variants = json_object_get(summary, "variants");
	size_t n = json_object_size(variants), count = 0;
	const char **names = calloc(n + 1, sizeof(*names));
	const char *name;
	json_t *v;
	json_object_foreach(variants, name, v)
	{
		const char *host = hosts_of_agent(rf, name);
		if (!host)
			host = runfolder_row_host(rf, name);
		json_object_set_new(v, "host", host ? json_string(host) : json_null());
		bool seen = !host || !names;
		for (size_t i = 0; !seen && i < count; i++)
			seen = strcmp(names[i], host) == 0;
		if (!seen)
			names[count++] = host;
	}
	json_t *hosts = json_array();
	if (names)
		qsort(names, count, sizeof(*names), hosts_compare);
	for (size_t i = 0; i < count; i++)
		json_array_append_new(hosts, json_string(names[i]));
	json_object_set_new(summary, "hosts", hosts);
	free(names);
}
