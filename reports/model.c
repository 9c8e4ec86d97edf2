/* reports/model.c - the run as C structures, and their summary.json objects. */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "summary_json.h"

const char *const model_traffic_phases[MODEL_TRAFFIC_PHASE_COUNT] = {"spike", "recovery",
                                                                     "baseline"};

/* A variant without spikes or traffic, every figure NAN. */
#define NONE_FIGURE(group, name) .name = NAN,
#define NONE_NAMED(name) .name = NAN,
static const struct model_variant variant_none = {
    MODEL_VARIANT_FIGURES(NONE_FIGURE).spikes_left = {.held_before_spikes_mb = NAN,
                                                      .held_after_spikes_mb = NAN,
                                                      .spikes_left_mb = NAN},
    .spike_traffic = {MODEL_ARRIVAL_TRAFFIC_FIGURES(NONE_NAMED)},
    .baseline_traffic = {MODEL_ARRIVAL_TRAFFIC_FIGURES(NONE_NAMED)},
    .traffic_by_send = {.baseline_answered_share = NAN},
    .advisor = {MODEL_ADVISOR_FIGURES(NONE_NAMED)}};
#undef NONE_FIGURE
#undef NONE_NAMED

void model_variant_init(struct model_variant *mv, char *name)
{
	*mv = variant_none;
	mv->name = name;
}

double model_variant_figure(const struct model_variant *mv, size_t offset)
{
	double x;
	memcpy(&x, (const char *)mv + offset, sizeof(x));
	return x;
}

void model_variant_set_figure(struct model_variant *mv, size_t offset, double x)
{
	memcpy((char *)mv + offset, &x, sizeof(x));
}

void model_variant_json(json_t *o, const struct model_variant *mv, enum model_variant_group group)
{
#define JSON_FIGURE(g, name)                                                                       \
	if (group == MODEL_VARIANT_##g)                                                            \
		json_object_set_new(o, #name, summary_json_number(mv->name));
	MODEL_VARIANT_FIGURES(JSON_FIGURE)
#undef JSON_FIGURE
}

void model_spike_init(struct model_spike *sp, int number)
{
#define INIT_NUM(name) sp->name = NAN;
#define INIT_SHARE(name) sp->name = sp->name##_raw = NAN;
	MODEL_SPIKE_FIGURES(INIT_NUM, INIT_SHARE, INIT_NUM)
#undef INIT_NUM
#undef INIT_SHARE
	sp->number = number;
	sp->ran = false;
	sp->answered_share = NAN;
	sp->before_live_above_heap = sp->end_live_above_heap = false;
	sp->lost_by_all = false;
}

void model_set_share(double *share, double *raw, double value)
{
	*raw = value;
	*share = summary_share_clamped(value);
}

bool model_share_clamped(double share, double raw)
{
	return !isnan(raw) && raw != share;
}

double model_spike_figure(const struct model_spike *sp, size_t offset)
{
	double x;
	memcpy(&x, (const char *)sp + offset, sizeof(x));
	return x;
}

static int spike_number_cmp(const void *key, const void *spike)
{
	int k = *(const int *)key, n = ((const struct model_spike *)spike)->number;
	return (k > n) - (k < n);
}

long model_spike_index(const struct model_variant *mv, int number)
{
	if (!mv->n_spikes)
		return -1;
	const struct model_spike *sp =
	    bsearch(&number, mv->spikes, mv->n_spikes, sizeof(*mv->spikes), spike_number_cmp);
	return sp ? (long)(sp - mv->spikes) : -1;
}

const struct model_variant *model_variant_named(const struct model *m, const char *name)
{
	for (size_t i = 0; m && i < m->n_variants; i++)
		if (strcmp(m->variants[i].name, name) == 0)
			return &m->variants[i];
	return &variant_none;
}

json_t *model_spike_json(const struct model_spike *sp)
{
	json_t *o = json_object();
	json_object_set_new(o, "spike", json_integer(sp->number));
#define JSON_NUM(name)                                                                             \
	if (sp->ran)                                                                               \
		json_object_set_new(o, #name, summary_json_number(sp->name));
#define JSON_SHARE(name)                                                                           \
	if (sp->ran)                                                                               \
		summary_set_share(o, #name, sp->name##_raw);
#define JSON_SO_FAR(name) json_object_set_new(o, #name, summary_json_number(sp->name));
	MODEL_SPIKE_FIGURES(JSON_NUM, JSON_SHARE, JSON_SO_FAR)
#undef JSON_NUM
#undef JSON_SHARE
#undef JSON_SO_FAR
	return o;
}

/* A shape's summary.json object: per_spike_mb, step_spike, step_mb, trend_mb_per_spike, trend. */
static json_t *shape_json(const struct model_shape *sh)
{
	json_t *o = json_object(), *each = json_array();
	for (size_t k = 0; k < sh->n; k++)
		json_array_append_new(each, summary_json_real(sh->per_spike_mb[k]));
	json_object_set_new(o, "per_spike_mb", each);
	json_object_set_new(o, "step_spike",
	                    sh->step_spike ? json_integer(sh->step_spike) : json_null());
	json_object_set_new(o, "step_mb", summary_json_real(sh->step_mb));
	json_object_set_new(o, "trend_mb_per_spike", summary_json_real(sh->trend_mb_per_spike));
	json_object_set_new(o, "trend", sh->trend ? json_string(sh->trend) : json_null());
	return o;
}

json_t *model_peaks_shape_json(const struct model_variant *mv)
{
	const struct model_peaks_shape *p = &mv->peaks;
	if (!p->shape.n)
		return json_null();
	json_t *o = shape_json(&p->shape);
	json_object_set_new(o, "live_trend_mb_per_spike",
	                    summary_json_real(p->live_trend_mb_per_spike));
	json_object_set_new(o, "held_trend_mb_per_spike",
	                    summary_json_real(p->held_trend_mb_per_spike));
	return o;
}

void model_spikes_left_json(json_t *o, const struct model_variant *mv)
{
	const struct model_spikes_left *l = &mv->spikes_left;
	bool has = l->basis && l->shape.n;
	json_object_set_new(o, "spikes_left_basis", has ? json_string(l->basis) : json_null());
	json_object_set_new(o, "held_before_spikes_mb",
	                    has ? summary_json_real(l->held_before_spikes_mb) : json_null());
	json_object_set_new(o, "held_after_spikes_mb",
	                    has ? summary_json_real(l->held_after_spikes_mb) : json_null());
	json_object_set_new(o, "spikes_left_mb",
	                    has ? summary_json_real(l->spikes_left_mb) : json_null());
	json_object_set_new(o, "spikes_left_shape", has ? shape_json(&l->shape) : json_null());
	if (l->na_reason) {
		json_object_set_new(o, "spikes_left_basis", json_string(l->basis));
		json_object_set_new(o, "spikes_left_na_reason", json_string(l->na_reason));
	}
}

json_t *model_give_back_json(const struct model_variant *mv)
{
	const struct model_give_back *g = &mv->give_back;
	json_t *o = json_object();
	json_object_set_new(
	    o, "share_key",
	    json_string(mv->attributed ? "held_returned_share" : "given_back_share"));
	json_object_set_new(o, "spikes", json_integer((json_int_t)g->spikes));
	json_object_set_new(o, "given_back_spikes", json_integer((json_int_t)g->given_back_spikes));
	json_object_set_new(o, "share_min", summary_json_real(g->share_min));
	json_object_set_new(o, "share_max", summary_json_real(g->share_max));
	json_object_set_new(o, "reused_share_min", summary_json_real(g->reused_share_min));
	json_object_set_new(o, "reused_share_max", summary_json_real(g->reused_share_max));
	json_object_set_new(o, "clamped_spikes", json_integer((json_int_t)g->clamped_spikes));
	return o;
}

json_t *model_arrival_traffic_json(const struct model_arrival_traffic *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "intervals", json_integer((json_int_t)t->intervals));
#define JSON_FIGURE(name) json_object_set_new(o, #name, summary_json_number(t->name));
	MODEL_ARRIVAL_TRAFFIC_FIGURES(JSON_FIGURE)
#undef JSON_FIGURE
	return o;
}

const struct model_send_traffic *model_send_phase(const struct model_variant *mv,
                                                  enum model_traffic_phase p)
{
	return mv->traffic_by_send.phases[p].seen ? &mv->traffic_by_send.phases[p].t : NULL;
}

/* A phase's or an instance's counts, shares and quantiles into o. */
static void send_traffic_json(json_t *o, const struct model_send_traffic *t)
{
#define JSON_FIGURE(name) json_object_set_new(o, #name, summary_json_number(t->name));
	MODEL_SEND_TRAFFIC_FIGURES(JSON_FIGURE, JSON_FIGURE, JSON_FIGURE)
#undef JSON_FIGURE
}

json_t *model_traffic_by_send_json(const struct model_traffic_by_send *t)
{
	json_t *phases = json_object(), *instances = json_array();
	for (size_t p = 0; p < MODEL_TRAFFIC_PHASE_COUNT; p++) {
		if (!t->phases[p].seen)
			continue;
		json_t *o = json_object();
		/* phases.csv has a row per instance, the timeline one per interval */
		json_object_set_new(o, t->from_phases_csv ? "instances" : "intervals",
		                    json_integer((json_int_t)t->phases[p].seen));
		send_traffic_json(o, &t->phases[p].t);
		if (t->from_phases_csv)
			json_object_set_new(o, "latency_answers",
			                    summary_json_number(t->phases[p].t.latency_answers));
		json_object_set_new(phases, model_traffic_phases[p], o);
	}
	for (size_t i = 0; i < t->n_instances; i++) {
		const struct model_send_instance *in = &t->instances[i];
		json_t *o = json_object();
		json_object_set_new(o, "phase", json_string(in->phase));
		json_object_set_new(o, "spike", json_integer(in->spike));
		send_traffic_json(o, &in->t);
		json_array_append_new(instances, o);
	}
	json_t *o = json_object();
	json_object_set_new(o, "source",
	                    json_string(t->from_phases_csv ? "phases.csv" : "timeline.csv"));
	json_object_set_new(o, "counted_by", json_string(t->from_phases_csv ? "send" : "receive"));
	json_object_set_new(o, "phases", phases);
	json_object_set_new(o, "instances", instances);
	json_object_set_new(o, "baseline_answered_share",
	                    summary_json_number(t->baseline_answered_share));
	return o;
}

const char *model_held_na_reason(const struct model_variant *mv, const char *basis)
{
	if (!basis || strcmp(basis, "allocator_held") != 0 || !mv->n_spikes)
		return NULL;
	return mv->spikes[0].before_live_above_heap ||
	               mv->spikes[mv->n_spikes - 1].end_live_above_heap
	           ? MODEL_HELD_NA_LIVE_ABOVE_HEAP
	           : NULL;
}

json_t *model_advisor_json(const struct model_advisor *a)
{
	json_t *o = json_object();
#define JSON_FIGURE(name) json_object_set_new(o, #name, summary_json_real(a->name));
	MODEL_ADVISOR_FIGURES(JSON_FIGURE)
#undef JSON_FIGURE
	json_object_set_new(o, "held_basis", json_string(a->held_basis));
	return o;
}

static char *row_cell(const char *cell)
{
	if (!cell || !*cell || strcmp(cell, "-") == 0)
		return NULL;
	char *copy = strdup(cell);
	if (!copy)
		abort();
	return copy;
}

void model_variant_set_row(struct model_variant *mv, const char *allocator, const char *env)
{
	mv->allocator = row_cell(allocator);
	mv->env = row_cell(env);
}

void model_variant_label(struct strbuf *b, const struct model_variant *mv, bool own_name_enough)
{
	bool own = own_name_enough && mv->allocator && strcmp(mv->allocator, mv->name) == 0;
	strbuf_append(b, mv->name);
	if (own && !mv->env)
		return;
	strbuf_printf(b, " (%s%s%s)",
	              own             ? ""
	              : mv->allocator ? mv->allocator
	                              : "allocator unknown",
	              !own && mv->env ? ", " : "", mv->env ? mv->env : "");
}

void model_free(struct model *m)
{
	for (size_t i = 0; i < m->n_variants; i++) {
		const struct model_traffic_by_send *t = &m->variants[i].traffic_by_send;
		for (size_t k = 0; k < t->n_instances; k++)
			free(t->instances[k].phase);
		free(t->instances);
		free(m->variants[i].name);
		free(m->variants[i].allocator);
		free(m->variants[i].env);
		free(m->variants[i].spikes);
		free(m->variants[i].peaks.shape.per_spike_mb);
		free(m->variants[i].spikes_left.shape.per_spike_mb);
	}
	free(m->variants);
	*m = (struct model){0};
}
