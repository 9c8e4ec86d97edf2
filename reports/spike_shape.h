/* reports/spike_shape.h - what the spikes left per variant, how its peaks moved and how many spikes
 * gave back what they freed (a pass: reports/README.md "Layers"). */
#ifndef ALLOCSPIKE_REPORTS_SPIKE_SHAPE_H
#define ALLOCSPIKE_REPORTS_SPIKE_SHAPE_H

#include <jansson.h>

#include "model.h"

/* Sets each variant's give_back_per_spike (in model too), peaks_shape, spikes_left_basis,
 * held_before_spikes_mb, held_after_spikes_mb, spikes_left_mb and spikes_left_shape
 * (reports/README.md) from its spikes in model and its advisor figures, which must be set. */
void spike_shape_add_variant_figures(json_t *summary, struct model *model);

#endif
