/* common/variants_table.h - the variants table (variants.tsv, docs/variants.md) read and
 * checked row by row, and the rows a run chooses (the scenarios' --variants): the one reader of the
 * table outside CMake, for allocspike-run variants (variants_plan.c) and the scenarios through it.
 */
#ifndef ALLOCSPIKE_COMMON_VARIANTS_TABLE_H
#define ALLOCSPIKE_COMMON_VARIANTS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

/* The columns, in the table's order (docs/variants.md). */
enum variant_column {
	VARIANT_NAME,
	VARIANT_KIND,
	VARIANT_ALLOCATOR,
	VARIANT_LIBC,
	VARIANT_LIBRARY,
	VARIANT_BASE,
	VARIANT_ENV,
	VARIANT_DEFAULT,
	VARIANT_NOTE,
	VARIANT_COLUMNS
};

extern const char *const variant_column_names[VARIANT_COLUMNS];

/* A row: every cell non-empty, free of tabs, newlines and NUL bytes (so a tab-separated line of
 * them reads back cell for cell); name, allocator and base (unless "-") identifiers; env "-" or
 * NAME=value words. */
struct variant_row {
	char *cells[VARIANT_COLUMNS];
	char *line; /* the line read, which the cells point into */
};

struct variants_table {
	char *path;
	struct variant_row *rows; /* in table order */
	size_t count;
};

/* Reads and checks the whole table; on the first problem returns false with "FILE:LINE: reason"
 * (or "FILE: reason" for one that is no line's) in err, and the table empty. */
bool variants_table_read(struct variants_table *table, const char *path, char *err,
                         size_t err_size);
void variants_table_free(struct variants_table *table);

/* The row named name, or NULL. */
const struct variant_row *variants_table_find(const struct variants_table *table, const char *name);

/* The rows a run chooses: list NULL, every row; "" the rows whose default cell is "yes"; else
 * "a,b,c" (empty items skipped), each a row, each once, and at least one. Fills chosen
 * (table->count entries at most) with row indexes in the run's order. On failure returns false with
 * the reason in err. */
bool variants_table_select(const struct variants_table *table, const char *list, size_t *chosen,
                           size_t *count, char *err, size_t err_size);

#endif
