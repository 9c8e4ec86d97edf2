/* agent/rows_answer.c - the rows an agent's host can run (rows_answer.h). */
#include "rows_answer.h"

#include <stdio.h>

#include "row_program.h"
#include "variant_command.h"
#include "variants_table.h"

json_t *rows_answer_list(const char *table_path, const char *daemons_dir, char *err,
                         size_t err_size)
{
	char bin_dir[4096];
	if (!variant_command_bin_dir(bin_dir, sizeof(bin_dir))) {
		snprintf(err, err_size, "cannot find the agent's own folder (/proc/self/exe)");
		return NULL;
	}
	struct variants_table table; /* read again: the host's build may have changed since */
	if (!variants_table_read(&table, table_path, err, err_size))
		return NULL;
	json_t *rows = json_array();
	for (size_t i = 0; rows && i < table.count; i++) {
		const struct variant_row *row = &table.rows[i];
		char path[4096], missing[4200];
		bool present = row_program_present(row, bin_dir, daemons_dir, path, sizeof(path),
		                                   missing, sizeof(missing));
		json_t *r = json_pack("{s:s, s:s, s:b}", "row", row->cells[VARIANT_NAME], "kind",
		                      row->cells[VARIANT_KIND], "runnable", present);
		if (r && !present)
			json_object_set_new(r, "missing", json_string(missing));
		json_array_append_new(rows, r);
	}
	variants_table_free(&table);
	if (!rows)
		snprintf(err, err_size, "out of memory");
	return rows;
}
