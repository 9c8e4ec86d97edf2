/* controller/hosts_file.c - the hosts file read and checked (hosts_file.h). */
#include "hosts_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sockaddr_parse.h"

#define HOSTS_FIELDS 3

/* Splits line in place at blanks; the fields (at most max + 1, to tell too many) into f. */
static size_t hosts_split(char *line, char **f, size_t max)
{
	size_t n = 0;
	for (char *save = NULL, *w = strtok_r(line, " \t\r\n", &save); w && n <= max;
	     w = strtok_r(NULL, " \t\r\n", &save))
		f[n++] = w;
	return n;
}

/* One line's fields into e, checked alone and against the lines before; the reason into why. */
static bool hosts_entry_parse(struct hosts_entry *e, char **f, const struct hosts_file *hosts,
                              const struct variants_table *table, int default_port, char *why,
                              size_t why_size)
{
	char reason[256];
	if (!identifier_valid(f[0], reason, sizeof(reason))) {
		snprintf(why, why_size, "host name %s", reason);
		return false;
	}
	if (!sockaddr_parse(f[1], default_port, &e->addr, &e->addr_len, reason, sizeof(reason))) {
		snprintf(why, why_size, "agent address '%.100s': %s", f[1], reason);
		return false;
	}
	bool shard = strcmp(f[2], HOSTS_FILE_SHARD) == 0;
	if (!shard && !variants_table_find(table, f[2])) {
		snprintf(why, why_size, "no variant '%.64s' in %s", f[2], table->path);
		return false;
	}
	snprintf(e->host, sizeof(e->host), "%s", f[0]);
	snprintf(e->row, sizeof(e->row), "%s", shard ? "" : f[2]);
	sockaddr_format((struct sockaddr *)&e->addr, e->addr_text, sizeof(e->addr_text));
	for (size_t i = 0; i < hosts->count + hosts->n_shards; i++) {
		const struct hosts_entry *o =
		    i < hosts->count ? &hosts->entries[i] : &hosts->shards[i - hosts->count];
		if (!shard && strcmp(o->row, e->row) == 0) {
			snprintf(why, why_size, "row %s is placed already, on host %s (line %u)",
			         e->row, o->host, o->line);
			return false;
		}
		if (strcmp(o->addr_text, e->addr_text) == 0) {
			snprintf(why, why_size,
			         "agent %s is on line %u already (an agent starts one row)",
			         e->addr_text, o->line);
			return false;
		}
	}
	return true;
}

bool hosts_file_read(struct hosts_file *hosts, const char *path, const struct variants_table *table,
                     int default_port, char *err, size_t err_size)
{
	*hosts = (struct hosts_file){0};
	FILE *f = fopen(path, "re");
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return false;
	}
	char *line = NULL, why[512];
	size_t cap = 0;
	unsigned number = 0;
	bool ok = true;
	while (ok && getline(&line, &cap, f) >= 0) {
		number++;
		line[strcspn(line, "#")] = '\0'; /* a comment to the line's end */
		char *fields[HOSTS_FIELDS + 1];
		size_t n = hosts_split(line, fields, HOSTS_FIELDS);
		if (n == 0)
			continue;
		struct hosts_entry e = {.line = number};
		if (n != HOSTS_FIELDS) {
			snprintf(why, sizeof(why),
			         "%s fields: a line is HOST AGENT-ADDR[:PORT] ROW (or "
			         "@shard)",
			         n < HOSTS_FIELDS ? "too few" : "too many");
			ok = false;
		} else
			ok = hosts_entry_parse(&e, fields, hosts, table, default_port, why,
			                       sizeof(why));
		/* a generator host's line joins the shards, a row's the rows */
		bool shard = ok && e.row[0] == '\0';
		struct hosts_entry **list = shard ? &hosts->shards : &hosts->entries;
		size_t *count = shard ? &hosts->n_shards : &hosts->count;
		struct hosts_entry *grown =
		    ok ? realloc(*list, (*count + 1) * sizeof(*grown)) : NULL;
		if (ok && !grown)
			snprintf(why, sizeof(why), "out of memory");
		ok = ok && grown;
		if (ok) {
			*list = grown;
			grown[(*count)++] = e;
		} else
			snprintf(err, err_size, "%s:%u: %s", path, number, why);
	}
	if (ok && ferror(f)) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		ok = false;
	}
	if (ok && hosts->count == 0) {
		snprintf(err, err_size, "%s: no row lines (HOST AGENT-ADDR[:PORT] ROW)", path);
		ok = false;
	}
	free(line);
	fclose(f);
	if (!ok)
		hosts_file_free(hosts);
	return ok;
}

bool hosts_rows_have(const char *rows, const char *name, size_t len)
{
	for (const char *p = rows; *p;) {
		size_t item = strcspn(p, ",");
		if (item == len && strncmp(p, name, len) == 0)
			return true;
		p += item + (p[item] != '\0');
	}
	return false;
}

bool hosts_file_keep_rows(struct hosts_file *hosts, const char *rows, char *err, size_t err_size)
{
	for (const char *p = rows; *p;) {
		size_t item = strcspn(p, ","), i = 0;
		while (i < hosts->count && !(strlen(hosts->entries[i].row) == item &&
		                             strncmp(hosts->entries[i].row, p, item) == 0))
			i++;
		if (i == hosts->count) {
			snprintf(err, err_size, "row '%.*s' is not placed by the hosts file",
			         (int)(item > 64 ? 64 : item), p);
			return false;
		}
		p += item + (p[item] != '\0');
	}
	size_t kept = 0;
	for (size_t i = 0; i < hosts->count; i++)
		if (hosts_rows_have(rows, hosts->entries[i].row, strlen(hosts->entries[i].row)))
			hosts->entries[kept++] = hosts->entries[i];
	hosts->count = kept;
	return true;
}

void hosts_file_free(struct hosts_file *hosts)
{
	free(hosts->entries);
	free(hosts->shards);
	*hosts = (struct hosts_file){0};
}
