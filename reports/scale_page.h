/* reports/scale_page.h - the scale page: the fitted MB per 1,000 requests in flight per variant,
 * the scatter with its lines (inline SVG), and the runs. */
#ifndef ALLOCSPIKE_REPORTS_SCALE_PAGE_H
#define ALLOCSPIKE_REPORTS_SCALE_PAGE_H

#include <jansson.h>

/* The whole HTML text of the page for scale (scale_build's object); caller frees. */
char *scale_page(const json_t *scale);

#endif
