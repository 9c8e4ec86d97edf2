/* common/variants_table.c - reading, checking and choosing rows of variants.tsv
 * (variants_table.h). */
#include "variants_table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identifier.h"

const char *const variant_column_names[VARIANT_COLUMNS] = {
    "name", "kind", "allocator", "libc", "library", "base", "env", "default", "note",
};

__attribute__((format(printf, 3, 4))) static bool table_fail(char *err, size_t err_size,
                                                             const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, err_size, fmt, ap);
	va_end(ap);
	return false;
}

/* Splits line in place at runs of tabs, leading and trailing ones ignored (so no cell is empty);
 * returns how many cells there are, the first VARIANT_COLUMNS of them in cells. */
static size_t line_split(char *line, char **cells)
{
	size_t n = 0;
	char *p = line;
	for (;;) {
		while (*p == '\t')
			p++;
		if (!*p)
			return n;
		if (n < VARIANT_COLUMNS)
			cells[n] = p;
		n++;
		p += strcspn(p, "\t");
		if (*p)
			*p++ = '\0';
	}
}

/* A cell as an error shows it: quoted, or, when it holds a control character, in bash's $'...'
 * (what the scenarios' messages have always shown), so that nothing reaches the terminal raw. */
static void cell_shown(const char *cell, char *out, size_t size)
{
	bool control = false;
	for (const unsigned char *p = (const unsigned char *)cell; *p; p++)
		control |= *p < 0x20 || *p == 0x7f;
	if (!control) {
		snprintf(out, size, "'%s'", cell);
		return;
	}
	static const char from[] = "\a\b\f\n\r\t\v\x1b\\'", to[] = "abfnrtvE\\'";
	size_t used = 0;
	used += (size_t)snprintf(out, size, "$'");
	for (const unsigned char *p = (const unsigned char *)cell; *p && used + 6 < size; p++) {
		const char *esc = strchr(from, *p);
		if (esc)
			used += (size_t)snprintf(out + used, size - used, "\\%c", to[esc - from]);
		else if (*p >= 0x20 && *p < 0x7f)
			out[used++] = (char)*p;
		else
			used += (size_t)snprintf(out + used, size - used, "\\%03o", *p);
	}
	snprintf(out + used, size - used, "'");
}

/* Length of the shell variable name (a letter or _, then letters, digits and _) that word starts
 * with; 0 when it starts with none. */
static size_t shell_name_length(const char *word, size_t len)
{
	size_t n = 0;
	while (n < len &&
	       (word[n] == '_' || (word[n] >= 'a' && word[n] <= 'z') ||
	        (word[n] >= 'A' && word[n] <= 'Z') || (n && word[n] >= '0' && word[n] <= '9')))
		n++;
	return n;
}

/* Why an env cell is not "-" or words NAME=value (NAME a shell variable name), which env(1) would
 * otherwise run as a command; true when it is one. */
static bool env_cell_valid(const char *cell, char *why, size_t why_size)
{
	if (strcmp(cell, "-") == 0)
		return true;
	size_t words = 0;
	for (const char *p = cell + strspn(cell, " "); *p; p += strspn(p, " ")) {
		size_t len = strcspn(p, " "), name = shell_name_length(p, len);
		if (!name || name == len || p[name] != '=') {
			snprintf(why, why_size,
			         "word '%.*s' is not NAME=value (NAME: letters, digits and _, not "
			         "first a digit)",
			         (int)len, p);
			return false;
		}
		words++;
		p += len;
	}
	if (!words)
		snprintf(why, why_size, "empty (write - for no environment)");
	return words > 0;
}

/* The row's name, allocator, base (unless "-") and env cells, checked in that order. */
static bool row_cells_valid(char **cells, const char *where, char *err, size_t err_size)
{
	static const enum variant_column checked[] = {VARIANT_NAME, VARIANT_ALLOCATOR, VARIANT_BASE,
	                                              VARIANT_ENV};
	for (size_t i = 0; i < sizeof(checked) / sizeof(checked[0]); i++) {
		enum variant_column c = checked[i];
		const char *cell = cells[c];
		char why[512];
		if (c == VARIANT_BASE && strcmp(cell, "-") == 0)
			continue;
		if (c == VARIANT_ENV ? env_cell_valid(cell, why, sizeof(why))
		                     : identifier_valid(cell, why, sizeof(why)))
			continue;
		char shown[1024];
		cell_shown(cell, shown, sizeof(shown));
		snprintf(err, err_size, "%s: %s %s: %s", where, variant_column_names[c], shown,
		         why);
		return false;
	}
	return true;
}

static bool kind_valid(const char *kind)
{
	return strcmp(kind, "build") == 0 || strcmp(kind, "env") == 0 ||
	       strcmp(kind, "preload") == 0 || strcmp(kind, "external") == 0;
}

/* One data row, checked against itself and the rows before it. */
static bool row_valid(const struct variants_table *table, char **cells, const char *where,
                      char *err, size_t err_size)
{
	if (!row_cells_valid(cells, where, err, err_size))
		return false;
	if (variants_table_find(table, cells[VARIANT_NAME]))
		return table_fail(err, err_size, "%s: variant '%s' appears twice", where,
		                  cells[VARIANT_NAME]);
	if (!kind_valid(cells[VARIANT_KIND]))
		return table_fail(err, err_size,
		                  "%s: kind '%s' is not build, env, preload or external", where,
		                  cells[VARIANT_KIND]);
	if (strcmp(cells[VARIANT_KIND], "build") != 0 && strcmp(cells[VARIANT_BASE], "-") == 0)
		return table_fail(err, err_size, "%s: a row of kind %s needs a base", where,
		                  cells[VARIANT_KIND]);
	return true;
}

/* Every env row runs a build row's binary. */
static bool env_bases_valid(const struct variants_table *table, char *err, size_t err_size)
{
	for (size_t i = 0; i < table->count; i++) {
		char **cells = table->rows[i].cells;
		if (strcmp(cells[VARIANT_KIND], "env") != 0)
			continue;
		const struct variant_row *base = variants_table_find(table, cells[VARIANT_BASE]);
		if (!base || strcmp(base->cells[VARIANT_KIND], "build") != 0) {
			snprintf(err, err_size,
			         "%s: env row '%s' has base '%s', which is not a build row",
			         table->path, cells[VARIANT_NAME], cells[VARIANT_BASE]);
			return false;
		}
	}
	return true;
}

static bool table_add(struct variants_table *table, char *line, char **cells)
{
	struct variant_row *grown = realloc(table->rows, (table->count + 1) * sizeof(*grown));
	if (!grown)
		return false;
	table->rows = grown;
	struct variant_row *row = &grown[table->count++];
	memcpy(row->cells, cells, sizeof(row->cells));
	row->line = line;
	return true;
}

/* Reads the lines of f into table; false with err on the first problem. */
static bool table_read_lines(struct variants_table *table, FILE *f, char *err, size_t err_size)
{
	char *line = NULL, where[4200];
	size_t cap = 0;
	unsigned long lineno = 0;
	bool header_seen = false, ok = true;
	ssize_t n;
	while (ok && (n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%lu", table->path, lineno);
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (strlen(line) != (size_t)n) {
			ok = table_fail(err, err_size, "%s: a NUL byte", where);
			break;
		}
		if (!*line || *line == '#')
			continue;
		char *cells[VARIANT_COLUMNS];
		size_t columns = line_split(line, cells);
		if (columns != VARIANT_COLUMNS) {
			snprintf(err, err_size, "%s: %zu columns, expected %d (tab-separated)",
			         where, columns, VARIANT_COLUMNS);
			ok = false;
		} else if (!header_seen) {
			header_seen = true;
		} else if (!row_valid(table, cells, where, err, err_size)) {
			ok = false;
		} else if (!table_add(table, line, cells)) {
			ok = table_fail(err, err_size, "%s: out of memory", where);
		} else {
			line = NULL; /* the row owns it now */
			cap = 0;
		}
	}
	free(line);
	if (ok && ferror(f))
		ok = table_fail(err, err_size, "cannot read the variants table %s", table->path);
	return ok && env_bases_valid(table, err, err_size);
}

bool variants_table_read(struct variants_table *table, const char *path, char *err, size_t err_size)
{
	memset(table, 0, sizeof(*table));
	table->path = strdup(path);
	FILE *f = fopen(path, "r");
	if (!table->path || !f) {
		if (f)
			fclose(f);
		variants_table_free(table);
		return table_fail(err, err_size, "cannot read the variants table %s", path);
	}
	bool ok = table_read_lines(table, f, err, err_size);
	fclose(f);
	if (!ok)
		variants_table_free(table);
	return ok;
}

void variants_table_free(struct variants_table *table)
{
	for (size_t i = 0; i < table->count; i++)
		free(table->rows[i].line);
	free(table->rows);
	free(table->path);
	memset(table, 0, sizeof(*table));
}

const struct variant_row *variants_table_find(const struct variants_table *table, const char *name)
{
	for (size_t i = 0; i < table->count; i++)
		if (strcmp(table->rows[i].cells[VARIANT_NAME], name) == 0)
			return &table->rows[i];
	return NULL;
}

/* The table's row names, comma-separated, for the message naming an unknown one. */
static void table_names(const struct variants_table *table, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < table->count && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s", i ? "," : "",
		                         table->rows[i].cells[VARIANT_NAME]);
}

/* Appends the row named by the list item p[0..len) to chosen; false with err when there is none or
 * it is there already. */
static bool select_item(const struct variants_table *table, const char *p, size_t len,
                        size_t *chosen, size_t *count, char *err, size_t err_size)
{
	size_t index = 0;
	while (index < table->count &&
	       (strlen(table->rows[index].cells[VARIANT_NAME]) != len ||
	        memcmp(table->rows[index].cells[VARIANT_NAME], p, len) != 0))
		index++;
	if (index == table->count) {
		char names[4096];
		table_names(table, names, sizeof(names));
		return table_fail(err, err_size, "no variant '%.*s' in %s (rows: %s)", (int)len, p,
		                  table->path, names);
	}
	for (size_t i = 0; i < *count; i++)
		if (chosen[i] == index)
			return table_fail(err, err_size, "'%.*s' given twice", (int)len, p);
	chosen[(*count)++] = index;
	return true;
}

bool variants_table_select(const struct variants_table *table, const char *list, size_t *chosen,
                           size_t *count, char *err, size_t err_size)
{
	*count = 0;
	if (!list || !*list) {
		for (size_t i = 0; i < table->count; i++)
			if (!list || strcmp(table->rows[i].cells[VARIANT_DEFAULT], "yes") == 0)
				chosen[(*count)++] = i;
	}
	for (const char *p = list ? list : ""; *p;) {
		size_t len = strcspn(p, ",");
		if (len && !select_item(table, p, len, chosen, count, err, err_size))
			return false;
		p += len + (p[len] == ',');
	}
	if (list && !*count)
		return table_fail(err, err_size, "no variant chosen");
	return true;
}
