/* reports/colours.c - the fixed colour of each allocator, shades for its tuning rows, grey for the
 * harness (reports/README.md "Colours"). */
#include "colours.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocators/allocator.h"

/* Each allocator's own colour is its adapter's (common/allocators/, Okabe-Ito colours,
 * distinguishable with the common colour-vision deficiencies); an allocator without one takes one
 * of the extras by a hash of its name, so it keeps its colour from one report to the next as well.
 */
static const char *const EXTRA_COLOURS[] = {"#8c564b", "#bcbd22", "#17becf", "#9467bd", "#000000"};
#define N_EXTRA (sizeof(EXTRA_COLOURS) / sizeof(*EXTRA_COLOURS))
#define NEUTRAL "#777777"

/* The layers of the "why" panels, from Paul Tol's colour-blind-safe schemes and chosen apart from
 * every colour above and their first shades, so no layer reads as a variant: indigo for the
 * program's own memory, yellow for what the allocator could return, wine for what it cannot,
 * dark teal for its overhead, pale grey for memory outside it; rose for an allocator's held memory
 * that is not broken down (it replaces the three allocator layers). */
static const char *const LAYER_COLOURS[ATTR_PART_COUNT] = {"#332288", "#ddaa33", "#882255",
                                                           "#225555", "#dddddd"};
#define UNSPLIT_COLOUR "#cc6677"

static const char *allocator_colour(const char *allocator)
{
	if (!allocator || !*allocator || strcmp(allocator, "-") == 0)
		return NEUTRAL;
	const struct allocator_adapter *a = allocator_by_name(allocator);
	if (a)
		return a->colour;
	unsigned h = 5381;
	for (const char *p = allocator; *p; p++)
		h = h * 33 + (unsigned char)*p;
	return EXTRA_COLOURS[h % N_EXTRA];
}

const char *colours_palette_at(size_t i)
{
	size_t n_allocators = allocator_count();
	if (i < n_allocators)
		return allocator_at(i)->colour;
	if (i < n_allocators + N_EXTRA)
		return EXTRA_COLOURS[i - n_allocators];
	return i == n_allocators + N_EXTRA ? NEUTRAL : NULL;
}

const char *colours_layer(enum attr_part part, bool split)
{
	if (!split && part == ATTR_OTHER)
		return UNSPLIT_COLOUR;
	return LAYER_COLOURS[part < ATTR_PART_COUNT ? part : ATTR_OUTSIDE];
}

const char *colours_harness(const char *target)
{
	if (runfolder_is_generator(target))
		return "#555555";
	if (strcmp(target, "_upstream") == 0)
		return "#999999";
	return "#bbbbbb";
}

/* Shades alternate lighter and darker, each step further from the colour: 1 lighter by 35 %,
 * 2 darker by 30 %, 3 lighter by 60 %, 4 darker by 50 %, ... */
void colours_shade(const char *hex, unsigned k, char out[8])
{
	unsigned rgb[3] = {0, 0, 0};
	if (sscanf(hex, "#%02x%02x%02x", &rgb[0], &rgb[1], &rgb[2]) != 3 || k == 0) {
		snprintf(out, 8, "%s", hex);
		return;
	}
	bool lighter = k % 2 == 1;
	unsigned step = (k + 1) / 2;
	double f = lighter ? 0.35 + 0.25 * (step - 1) : 0.30 + 0.20 * (step - 1);
	if (f > 0.85)
		f = 0.85;
	for (int c = 0; c < 3; c++) {
		double v = rgb[c];
		v = lighter ? v + (255 - v) * f : v * (1 - f);
		rgb[c] = (unsigned)(v + 0.5);
	}
	snprintf(out, 8, "#%02x%02x%02x", rgb[0] & 255, rgb[1] & 255, rgb[2] & 255);
}

void colours_assign(json_t *summary, const struct model *model)
{
	json_t *variants = json_object_get(summary, "variants");
	size_t n = model->n_variants;
	/* The shade of a row: its rank among the rows of its allocator, default rows (no env)
	 * first, then in variant order; so the allocator's own colour goes to its default row
	 * whatever the order of the rows. */
	for (size_t i = 0; i < n; i++) {
		const struct model_variant *v = &model->variants[i];
		const char *alloc = v->allocator ? v->allocator : "";
		unsigned rank = 0;
		for (size_t j = 0; j < n; j++) {
			const struct model_variant *w = &model->variants[j];
			if (j == i || strcmp(alloc, w->allocator ? w->allocator : "") != 0)
				continue;
			if ((!w->env && v->env) || (!w->env == !v->env && j < i))
				rank++;
		}
		char shade[8];
		colours_shade(allocator_colour(v->allocator), rank, shade);
		json_object_set_new(json_object_get(variants, v->name), "colour",
		                    json_string(shade));
	}
}

const char *colours_of(const json_t *summary, const char *variant)
{
	const char *c = json_string_value(json_object_get(
	    json_object_get(json_object_get(summary, "variants"), variant), "colour"));
	return c ? c : NEUTRAL;
}
