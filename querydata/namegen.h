/* querydata/namegen.h - makes one query name of a given form, shaped like the real sample's. */
#ifndef ALLOCSPIKE_QUERYDATA_NAMEGEN_H
#define ALLOCSPIKE_QUERYDATA_NAMEGEN_H

#include <stddef.h>

#include "model.h"
#include "rng.h"

#define NAMEGEN_MAX 400

/* Writes a name of form for class (popular or once) into buf (NAMEGEN_MAX bytes); its length. */
size_t namegen_make(struct rng *r, enum model_form form, enum model_class cls, char *buf);

#endif
