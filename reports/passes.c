/* reports/passes.c - summary.json from a run folder: every pass over the model, in one fixed
 * order. A pass reads what the passes before it set and calls no later one: each module has one
 * pass, and includes no module whose pass comes later (tests/reports/layering.sh). */
#include "passes.h"

#include "advisor.h"
#include "agent_reads.h"
#include "aliases.h"
#include "colours.h"
#include "figures.h"
#include "findings.h"
#include "hierarchy_applied.h"
#include "hosts.h"
#include "model.h"
#include "spike_shape.h"
#include "transports.h"
#include "validity.h"
#include "verdict.h"

json_t *passes_run(const struct runfolder *rf)
{
	struct model model;
	json_t *sum = figures_build(rf, &model);
	json_object_set_new(sum, "hierarchy_applied", hierarchy_applied_read(rf->dir));
	/* per variant and transport, from transports.csv (runs with TCP or DoT clients) */
	transports_add(sum, rf, &model);
	/* the host each variant ran on: its agent's, or run.json's */
	hosts_add(sum, rf);
	/* what the agents on other hosts read (agents/NAME.jsonl): coverage, hosts, clock offsets
	 */
	agent_reads_add(sum, rf);
	colours_assign(sum, &model);
	advisor_add_run_figures(sum, &model);
	/* what the spikes left per variant, from the advisor's figures, before any words */
	spike_shape_add_variant_figures(sum, &model);
	/* validity before the words: the findings and the verdict name the variants that did not
	 * run and why */
	json_object_set_new(sum, "validity", validity_build(rf, sum, &model));
	json_object_set_new(sum, "findings", findings_build(sum, &model));
	json_object_set_new(sum, "verdict", verdict_build(sum, &model));
	aliases_add(sum);
	model_free(&model);
	return sum;
}
