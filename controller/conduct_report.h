/* controller/conduct_report.h - what a conducted run makes once it is finished, whatever its end
 * (docs/controller.md, "A conducted run"): the run's report (summary.json and report.html), or
 * cpu.sh's own (cpu.json and cpu.md, from callgrind's profiles listed first). */
#ifndef ALLOCSPIKE_CONTROLLER_CONDUCT_REPORT_H
#define ALLOCSPIKE_CONTROLLER_CONDUCT_REPORT_H

#include <stdbool.h>

enum conduct_report_kind { CONDUCT_REPORT_RUN, CONDUCT_REPORT_CPU, CONDUCT_REPORT_NONE };

/* "run", "cpu" or "none" into *kind; false for anything else. */
bool conduct_report_kind_parse(const char *text, enum conduct_report_kind *kind);

/* The report of the run in dir made with report (allocspike-report's path, NULL when it is
 * missing), its path printed on stdout; what went wrong said on stderr, starting with scenario.
 * False when no report was made. */
bool conduct_report_make(enum conduct_report_kind kind, const char *report, const char *dir,
                         const char *scenario);

#endif
