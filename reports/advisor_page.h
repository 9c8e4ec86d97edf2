/* reports/advisor_page.h - the advisor's page: per group of settings a table, a Pareto chart of
 * held memory against CPU (inline SVG) and the computed sentence. */
#ifndef ALLOCSPIKE_REPORTS_ADVISOR_PAGE_H
#define ALLOCSPIKE_REPORTS_ADVISOR_PAGE_H

#include <jansson.h>

/* The whole HTML text of the page for advice (advisor_build's object); caller frees. */
char *advisor_page(const json_t *advice);

#endif
