/* reports/machine_busy.h - how busy the run's processes kept the machine in the spikes: the CPU
 * of every sampled process (variants and harness) over the machine's cores, per one-second window
 * (summary.json "machine_busy", reports/README.md). Near 1, a short stall of the machine piles
 * requests up at every variant at once, so how high a spike's pile-up goes, and the memory that
 * follows it, varies from run to run more than the allocators do. */
#ifndef ALLOCSPIKE_REPORTS_MACHINE_BUSY_H
#define ALLOCSPIKE_REPORTS_MACHINE_BUSY_H

#include <jansson.h>

#include "runfolder_reader.h"

/* From this share of the machine at the 95th percentile of the spikes' windows on, the page says
 * that the pile-ups were the machine's. */
#define MACHINE_BUSY_SHARE 0.9

/* {"cores", "processes", "windows", "spikes_mean", "spikes_p95"} (shares of the machine's cores),
 * or null where the figure would mislead: no cores in run.json, a variant sampled on another host
 * (agents), the variants run one after the other (--serial), or no window wholly in a spike. */
json_t *machine_busy_figures(const struct runfolder *rf);

#endif
