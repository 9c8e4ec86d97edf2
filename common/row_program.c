/* common/row_program.c - whether a row's program is on this host (row_program.h). */
#include "row_program.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool row_program_ours(const struct variant_row *row)
{
	const char *kind = row->cells[VARIANT_KIND];
	return strcmp(kind, "build") == 0 || strcmp(kind, "env") == 0;
}

bool row_program_present(const struct variant_row *row, const char *bin_dir,
                         const char *daemons_dir, char *path, size_t path_size, char *missing,
                         size_t missing_size)
{
	bool ours = row_program_ours(row);
	const char *kind = row->cells[VARIANT_KIND];
	if (ours)
		snprintf(path, path_size, "%s/allocspike-resolver-%s", bin_dir,
		         strcmp(kind, "env") == 0 ? row->cells[VARIANT_BASE]
		                                  : row->cells[VARIANT_NAME]);
	else
		snprintf(path, path_size, "%s/%s.sh", daemons_dir, row->cells[VARIANT_BASE]);
	if (access(path, X_OK) == 0)
		return true;
	if (ours)
		snprintf(missing, missing_size, "%s in %s", strrchr(path, '/') + 1, bin_dir);
	else
		snprintf(missing, missing_size, "daemon definition %s", path);
	return false;
}
