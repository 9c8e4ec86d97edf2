/* loadgen/phase_writer.h - phases.csv and latency_hist.csv rewritten from every target's phase
 * tallies. */
#ifndef ALLOCSPIKE_LOADGEN_PHASE_WRITER_H
#define ALLOCSPIKE_LOADGEN_PHASE_WRITER_H

#include <stdbool.h>

#include "pacer.h"
#include "runfolder_writer.h"

/* Rewrites both files with a row per target and phase instance begun by t (seconds since the
 * schedule started), taken while the pacing thread may go on counting. False when the writing
 * failed (runfolder_writer_failure says why). */
bool phase_writer_write(struct runfolder_writer *w, const struct pacer *p, double t);

#endif
