/* reports/run_mode.h - how the run ran its variants, from run.json: below every pass, read by the
 * validity pass and the machine's figures alike. */
#ifndef ALLOCSPIKE_REPORTS_RUN_MODE_H
#define ALLOCSPIKE_REPORTS_RUN_MODE_H

#include <stdbool.h>

#include "runfolder_reader.h"

/* Whether the variants ran side by side (run.json parameters.mode; a run that does not say did):
 * in a serial run each ran the spike at another time, apart from the others. */
bool run_mode_side_by_side(const struct runfolder *rf);

#endif
