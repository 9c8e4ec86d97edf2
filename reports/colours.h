/* reports/colours.h - one colour per allocator on every page: a variant's colour follows its
 * allocator (run.json variants[].allocator), never its position. */
#ifndef ALLOCSPIKE_REPORTS_COLOURS_H
#define ALLOCSPIKE_REPORTS_COLOURS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "attribution.h"
#include "model.h"

/* Sets variants.NAME.colour ("#rrggbb") for every variant of summary: the allocator's colour for
 * its first default row (no env), lighter and darker shades of it for its tuning rows. */
void colours_assign(json_t *summary, const struct model *model);

/* A variant's colour as colours_assign set it (the neutral grey if it has none). */
const char *colours_of(const json_t *summary, const char *variant);

/* The grey of a harness row (_loadgen, _upstream, any other). */
const char *colours_harness(const char *target);

/* Colour i of the allocators' palette before shading (each allocator's, the extras an allocator not
 * listed takes, the neutral grey), NULL past the last: for the test that keeps layers apart. */
const char *colours_palette_at(size_t i);

/* The colour of a layer of the "why" panels, never an allocator's (reports/README.md "Colours");
 * split false: the allocator's held memory is one layer (ATTR_OTHER) in a colour of its own. */
const char *colours_layer(enum attr_part part, bool split);

/* Shade k (0: the colour itself) of a "#rrggbb" colour, into out (8 bytes). */
void colours_shade(const char *hex, unsigned k, char out[8]);

#endif
