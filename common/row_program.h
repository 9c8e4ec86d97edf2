/* common/row_program.h - whether the program a row of variants.tsv runs is on this host: our
 * resolver's build for a build or env row (an env row runs its base row's binary), the daemon's
 * definition for a preload or external row. The one check rows-check makes before it runs a
 * binary (controller/rows_check.c) and an agent answers for its own host's rows (GET /rows,
 * docs/agent.md), so that a row is judged the same wherever it is to run. */
#ifndef ALLOCSPIKE_ROW_PROGRAM_H
#define ALLOCSPIKE_ROW_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "variants_table.h"

/* Whether row is one of our resolver's (build, env) rather than a daemon's (preload, external). */
bool row_program_ours(const struct variant_row *row);

/* Whether row's program is there and executable: BIN_DIR/allocspike-resolver-NAME (an env row:
 * its base's), or DAEMONS_DIR/BASE.sh. Its path into path either way; when it is not, what is
 * missing into missing ("allocspike-resolver-jemalloc in BIN_DIR", "daemon definition PATH"). */
bool row_program_present(const struct variant_row *row, const char *bin_dir,
                         const char *daemons_dir, char *path, size_t path_size, char *missing,
                         size_t missing_size);

#endif
