/* querydata/generate.c - the embedded default: a query file of any length from a seed. */
#include "generate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hashcount.h"
#include "model.h"
#include "namegen.h"
#include "nameshape.h"
#include "queryfile.h"
#include "rng.h"

/* One (name, type) of the popular part and how many queries it gets. */
struct generate_popular {
	char *name; /* owned by the first entry of a name */
	bool owns_name;
	uint16_t qtype;
	uint64_t count;
};

/*
 * A name of form for class that no earlier query used (so names seen once stay seen once) and
 * that the parser accepts (so no query is lost on the way to a resolver); not yet marked seen.
 */
static size_t generate_candidate(struct rng *r, enum model_form form, enum model_class cls,
                                 const struct hashcount *seen, char *buf)
{
	for (int tries = 0;; tries++) {
		size_t n = namegen_make(r, form, cls, buf);
		uint8_t wire[QUERYFILE_WIRE_NAME_MAX + 1];
		const char *reason;
		if (queryfile_name_to_wire(buf, n, wire, &reason) == 0)
			continue;
		/* the root is one name whatever happens; anything else must be new */
		if (hashcount_get(seen, hashcount_name_key(buf, n)) && form != MODEL_ROOT &&
		    tries < 1000)
			continue;
		return n;
	}
}

static size_t generate_fresh_name(struct rng *r, enum model_form form, enum model_class cls,
                                  struct hashcount *seen, char *buf)
{
	size_t n = generate_candidate(r, form, cls, seen, buf);
	hashcount_add(seen, hashcount_name_key(buf, n));
	return n;
}

/*
 * A popular host name asked count times. A few names carry a large share of the queries, so
 * lengths drawn at random would move the median from seed to seed; instead the best of 8
 * candidates is the one whose length is furthest behind its share of the queries so far.
 */
static size_t generate_popular_host(struct rng *r, struct hashcount *seen, double *len_assigned,
                                    double *host_total, uint64_t count, char *buf)
{
	const double *target = model_host_shapes[MODEL_POPULAR]->length;
	double sum = 0;
	for (size_t i = 0; i <= MODEL_HOST_LENGTH_MAX; i++)
		sum += target[i];
	*host_total += (double)count;
	char cand[NAMEGEN_MAX + 1];
	size_t best_n = 0, best_len = 0;
	double best_deficit = -INFINITY;
	for (int k = 0; k < 8; k++) {
		size_t n = generate_candidate(r, MODEL_HOST, MODEL_POPULAR, seen, cand);
		size_t len = nameshape_length(cand, n);
		if (len > MODEL_HOST_LENGTH_MAX)
			len = MODEL_HOST_LENGTH_MAX;
		double deficit = target[len] / sum * *host_total - len_assigned[len];
		if (deficit > best_deficit) {
			best_deficit = deficit;
			best_n = n;
			best_len = len;
			memcpy(buf, cand, n + 1);
		}
	}
	len_assigned[best_len] += (double)count;
	hashcount_add(seen, hashcount_name_key(buf, best_n));
	return best_n;
}

/*
 * Each popular rank gets the (form, type) cell furthest behind its share of the queries
 * assigned so far, so the type mix of the popular part is exact even though a handful of
 * names carry a third of all queries.
 */
static size_t generate_pick_cell(const double *assigned, const bool *usable, double total_so_far)
{
	const struct model_cell *cells = model_cells[MODEL_POPULAR];
	size_t n = model_ncells[MODEL_POPULAR];
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += cells[i].weight;
	size_t best = SIZE_MAX;
	double best_deficit = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (!usable[i])
			continue;
		double deficit = cells[i].weight / sum * total_so_far - assigned[i];
		if (deficit > best_deficit) {
			best_deficit = deficit;
			best = i;
		}
	}
	return best;
}

/* How many of a popular name's count queries go to other types than its first (0: none). */
static uint64_t generate_secondary(struct rng *r, uint64_t count)
{
	for (size_t i = 0; i < model_nmultitypes; i++) {
		const struct model_multitype *m = &model_multitypes[i];
		if (count > m->max_count)
			continue;
		if (rng_uniform(r) >= m->multi_share)
			return 0;
		uint64_t s = (uint64_t)llround((double)count * m->secondary_share);
		/* at least one query each way, or the name has one type after all */
		return s < 1 ? 1 : s > count - 1 ? count - 1 : s;
	}
	return 0;
}

bool generate_write(uint64_t seed, uint64_t count, FILE *out, char *err, size_t err_size)
{
	struct rng r;
	rng_seed(&r, seed);
	double scale = (double)count / model_sample_queries;

	/* 1. popular names: the sample's rank/count curve scaled to count (rounded at random so
	 * small files keep the expected totals); a name may be asked with up to three types */
	size_t nranks = model_popular_ranks, npop = 0;
	struct generate_popular *pop = calloc(nranks * 3, sizeof(*pop));
	uint32_t *slots = NULL; /* 4 bytes a query: 40 MB for 10 million */
	struct hashcount seen = {0};
	bool ok = false;
	if (!pop || !hashcount_init(&seen, (size_t)(count < 1000000 ? count : 1000000)))
		goto oom;
	uint64_t pop_total = 0;
	size_t ncells = model_ncells[MODEL_POPULAR];
	const struct model_cell *cells = model_cells[MODEL_POPULAR];
	double assigned[32] = {0};
	bool usable[32];
	size_t root_cell = SIZE_MAX;
	double len_assigned[MODEL_HOST_LENGTH_MAX + 1] = {0}, host_total = 0;
	for (size_t i = 0; i < ncells; i++) {
		usable[i] = cells[i].form != MODEL_ROOT;
		if (cells[i].form == MODEL_ROOT)
			root_cell = i;
	}
	for (size_t rank = 1; rank <= nranks; rank++) {
		double x = model_popular_count(rank) * scale;
		uint64_t c = (uint64_t)floor(x);
		if (rng_uniform(&r) < x - floor(x))
			c++;
		if (pop_total + c > count)
			c = count - pop_total;
		if (c == 0)
			continue;
		pop_total += c;
		size_t cell;
		if (root_cell != SIZE_MAX && (double)c <= cells[root_cell].weight * scale) {
			/* the root is one name: it takes the rank its count has in the sample */
			cell = root_cell;
			root_cell = SIZE_MAX;
		} else {
			cell = generate_pick_cell(assigned, usable, (double)pop_total);
		}
		char buf[NAMEGEN_MAX + 1];
		size_t n =
		    cells[cell].form == MODEL_HOST
		        ? generate_popular_host(&r, &seen, len_assigned, &host_total, c, buf)
		        : generate_fresh_name(&r, cells[cell].form, MODEL_POPULAR, &seen, buf);
		char *name = strndup(buf, n);
		if (!name)
			goto oom;
		uint64_t secondary =
		    cells[cell].form == MODEL_HOST && c >= 2 ? generate_secondary(&r, c) : 0;
		uint64_t parts[3] = {c - secondary, secondary, 0};
		if (secondary >= 2 && rng_uniform(&r) < model_three_types) {
			parts[2] = secondary / 2;
			parts[1] -= parts[2];
		}
		bool used_here[32] = {false};
		for (int p = 0; p < 3 && parts[p]; p++) {
			size_t pc = cell;
			if (p > 0) {
				/* other types of the same form, again the one furthest behind */
				bool allowed[32];
				for (size_t i = 0; i < ncells; i++)
					allowed[i] = usable[i] && !used_here[i] &&
					             cells[i].form == cells[cell].form;
				pc = generate_pick_cell(assigned, allowed, (double)pop_total);
				if (pc == SIZE_MAX) {
					pop[npop - 1].count += parts[p];
					assigned[cell] += (double)parts[p];
					continue;
				}
			}
			used_here[pc] = true;
			assigned[pc] += (double)parts[p];
			pop[npop].name = name;
			pop[npop].owns_name = p == 0;
			pop[npop].qtype = cells[pc].qtype;
			pop[npop].count = parts[p];
			npop++;
		}
	}

	/* 2. one slot per query: a popular entry, or UINT32_MAX for a name seen once; shuffled */
	slots = malloc((count ? count : 1) * sizeof(*slots));
	if (!slots)
		goto oom;
	uint64_t k = 0;
	for (size_t i = 0; i < npop; i++)
		for (uint64_t j = 0; j < pop[i].count; j++)
			slots[k++] = (uint32_t)i;
	while (k < count)
		slots[k++] = UINT32_MAX;
	for (uint64_t i = count; i > 1; i--) {
		uint64_t j = rng_below(&r, i);
		uint32_t t = slots[i - 1];
		slots[i - 1] = slots[j];
		slots[j] = t;
	}

	/* 3. write; names seen once are made as they are needed */
	const struct model_cell *once = model_cells[MODEL_ONCE];
	size_t nonce = model_ncells[MODEL_ONCE];
	double once_w[32];
	for (size_t i = 0; i < nonce; i++)
		once_w[i] = once[i].weight;
	for (uint64_t i = 0; i < count; i++) {
		char type[16];
		if (slots[i] != UINT32_MAX) {
			const struct generate_popular *p = &pop[slots[i]];
			queryfile_type_format(p->qtype, type, sizeof(type));
			fprintf(out, "%s\t%s\n", p->name, type);
		} else {
			const struct model_cell *mc = &once[rng_pick(&r, once_w, nonce)];
			char buf[NAMEGEN_MAX + 1];
			generate_fresh_name(&r, mc->form, MODEL_ONCE, &seen, buf);
			queryfile_type_format(mc->qtype, type, sizeof(type));
			fprintf(out, "%s\t%s\n", buf, type);
		}
	}
	if (fflush(out) != 0 || ferror(out)) {
		snprintf(err, err_size, "write error");
		goto done;
	}
	ok = true;
	goto done;
oom:
	snprintf(err, err_size, "out of memory generating %llu queries", (unsigned long long)count);
done:
	if (pop)
		for (size_t i = 0; i < npop; i++)
			if (pop[i].owns_name)
				free(pop[i].name);
	free(pop);
	free(slots);
	hashcount_free(&seen);
	return ok;
}
