/* upstream/mix.c - the served mix over a query file: rcodes, sizes, TTLs, CNAMEs, referral depth.
 */
#include "mix.h"

#include "answer.h"
#include "atomic_write_file.h"
#include "json_file.h"
#include "queryfile.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

enum { MIX_DATA, MIX_NODATA, MIX_NXDOMAIN, MIX_FAIL, MIX_OUTCOMES };
static const char *const mix_outcome_names[MIX_OUTCOMES] = {"noerror_data", "noerror_nodata",
                                                            "nxdomain", "fail"};
#define MIX_BUCKETS 6
static const unsigned mix_size_edges[MIX_BUCKETS] = {128, 256, 512, 1232, 4096, 65536};
static const unsigned mix_ttl_edges[MIX_BUCKETS] = {60, 300, 3600, 86400, 86401, 0xffffffffu};
static const char *const mix_ttl_names[MIX_BUCKETS] = {"<60",        "60-299", "300-3599",
                                                       "3600-86399", "86400",  ">86400"};
static const char *const mix_size_names[MIX_BUCKETS] = {"<128",     "128-255",   "256-511",
                                                        "512-1231", "1232-4095", ">=4096"};

struct mix_totals {
	unsigned long queries;
	unsigned long outcome[MIX_OUTCOMES];
	unsigned long size[MIX_BUCKETS];
	unsigned long ttl[MIX_BUCKETS]; /* of data answers */
	unsigned long cname;            /* resolutions with at least one CNAME */
	unsigned long cname_len[5];     /* 0, 1, 2, 3, 4+ */
	unsigned long depth[6];         /* referrals followed for the name asked: 0..4, 5+ */
	unsigned long glueless;         /* resolutions that looked up a name server's address */
	unsigned long upstream;         /* packets the walk sent */
	unsigned long aset[5];          /* A answers with 1, 2, 3-4, 5-8, 9+ addresses */
	unsigned long over512, over1232;
	FILE *steps; /* every question asked, "ADDR NAME TYPE", or NULL */
};

struct mix_result {
	int outcome;
	size_t size;
	uint32_t ttl;
	int cnames;
	int depth;
	bool glueless;
	int addresses;
	uint32_t addr; /* first A, for name server lookups */
};

static int mix_bucket(const unsigned *edges, unsigned v)
{
	for (int i = 0; i < MIX_BUCKETS; i++)
		if (v < edges[i])
			return i;
	return MIX_BUCKETS - 1;
}

static ldns_pkt *mix_ask(const struct world *w, const struct server *s, const char *name,
                         uint16_t qtype, enum answer_kind *kind, size_t *size)
{
	ldns_rr *question = ldns_rr_new();
	ldns_rdf *owner = ldns_dname_new_frm_str(name);
	if (!question || !owner) {
		ldns_rr_free(question);
		ldns_rdf_deep_free(owner);
		return NULL;
	}
	ldns_rr_set_owner(question, owner);
	ldns_rr_set_type(question, qtype);
	ldns_rr_set_class(question, LDNS_RR_CLASS_IN);
	ldns_rr_set_question(question, true);
	struct answer_query q = {.question = question,
	                         .qname = name,
	                         .qtype = qtype,
	                         .qclass = LDNS_RR_CLASS_IN,
	                         .id = 1,
	                         .edns = true,
	                         .udp_size = 1232};
	ldns_pkt *p = answer_build(w, s, &q, kind);
	ldns_rr_free(question);
	uint8_t *wire = NULL;
	bool tc;
	*size = 0;
	if (p && answer_wire(p, 65535, &wire, size, &tc))
		free(wire);
	return p;
}

/* Iterates from the root; depth limits nested name-server lookups. */
static void mix_resolve(const struct world *w, const char *qname, uint16_t qtype, int nesting,
                        struct mix_totals *t, struct mix_result *r)
{
	char name[ZONES_NAME_MAX];
	snprintf(name, sizeof(name), "%s", qname);
	memset(r, 0, sizeof(*r));
	r->outcome = MIX_FAIL;
	const struct server *s = &w->plan->servers[w->plan->first[TIER_ROOT]];
	for (int step = 0; step < 40; step++) {
		enum answer_kind kind;
		size_t size;
		ldns_pkt *p = mix_ask(w, s, name, qtype, &kind, &size);
		t->upstream++;
		if (t->steps) {
			char addr[16];
			fprintf(t->steps, "%s %s %u\n", servers_addr_text(s->addr, addr), name,
			        (unsigned)qtype);
		}
		if (!p)
			return;
		ldns_rr_list *an = ldns_pkt_answer(p);
		for (size_t i = 0; i < ldns_rr_list_rr_count(an); i++)
			r->cnames += ldns_rr_get_type(ldns_rr_list_rr(an, i)) == LDNS_RR_TYPE_CNAME;
		if (kind == ANSWER_REFERRAL) {
			if (r->cnames == 0)
				r->depth++;
			ldns_rr_list *ns = ldns_pkt_authority(p);
			ldns_rr_list *add = ldns_pkt_additional(p);
			const struct server *next = NULL;
			for (size_t i = 0; i < ldns_rr_list_rr_count(add) && !next; i++) {
				ldns_rr *rr = ldns_rr_list_rr(add, i);
				if (ldns_rr_get_type(rr) == LDNS_RR_TYPE_A)
					next = servers_find(
					    w->plan, ldns_rdf2native_int32(ldns_rr_rdf(rr, 0)));
			}
			if (!next && ldns_rr_list_rr_count(ns) > 0 && nesting < 3) {
				char *host = ldns_rdf2str(ldns_rr_rdf(ldns_rr_list_rr(ns, 0), 0));
				struct mix_result sub;
				r->glueless = true;
				if (host)
					mix_resolve(w, host, LDNS_RR_TYPE_A, nesting + 1, t, &sub);
				free(host);
				if (host && sub.outcome == MIX_DATA)
					next = servers_find(w->plan, sub.addr);
			}
			ldns_pkt_free(p);
			if (!next)
				return;
			s = next;
			continue;
		}
		if (kind == ANSWER_CNAME) {
			/* restart from the root for the target, as a resolver without cache does */
			ldns_rr *last = ldns_rr_list_rr(an, ldns_rr_list_rr_count(an) - 1);
			char *target = ldns_rdf2str(ldns_rr_rdf(last, 0));
			ldns_pkt_free(p);
			if (!target)
				return;
			snprintf(name, sizeof(name), "%s", target);
			free(target);
			s = &w->plan->servers[w->plan->first[TIER_ROOT]];
			continue;
		}
		r->size = size;
		if (kind == ANSWER_DATA) {
			r->outcome = MIX_DATA;
			r->ttl = UINT32_MAX;
			for (size_t i = 0; i < ldns_rr_list_rr_count(an); i++) {
				ldns_rr *rr = ldns_rr_list_rr(an, i);
				if (ldns_rr_ttl(rr) < r->ttl)
					r->ttl = ldns_rr_ttl(rr);
				if (ldns_rr_get_type(rr) == LDNS_RR_TYPE_A) {
					if (!r->addresses)
						r->addr = ldns_rdf2native_int32(ldns_rr_rdf(rr, 0));
					r->addresses++;
				}
			}
		} else if (kind == ANSWER_NODATA) {
			r->outcome = MIX_NODATA;
		} else if (kind == ANSWER_NXDOMAIN) {
			r->outcome = MIX_NXDOMAIN;
		}
		ldns_pkt_free(p);
		return;
	}
}

static void mix_lower(const char *in, char *out, size_t out_size)
{
	size_t n = 0;
	for (; in[n] && n + 2 < out_size; n++)
		out[n] = (char)tolower((unsigned char)in[n]);
	if (n == 0 || out[n - 1] != '.')
		out[n++] = '.';
	out[n] = '\0';
}

static json_t *mix_hist_json(const char *const *names, const unsigned long *v, int n,
                             unsigned long total)
{
	json_t *o = json_object();
	for (int i = 0; i < n; i++)
		json_object_set_new(o, names[i],
		                    json_real(total ? (double)v[i] / (double)total : 0));
	return o;
}

static void mix_print_hist(FILE *out, const char *title, const char *const *names,
                           const unsigned long *v, int n, unsigned long total)
{
	fprintf(out, "%-22s", title);
	for (int i = 0; i < n; i++)
		fprintf(out, " %s %5.1f%%", names[i],
		        total ? 100.0 * (double)v[i] / (double)total : 0);
	fprintf(out, "\n");
}

bool mix_run(const struct world *w, const char *path, unsigned long limit, FILE *out,
             const char *json_path, const char *steps_path, char *err, size_t err_size)
{
	struct queryfile *qf = queryfile_open(path, false, NULL, NULL, err, err_size);
	if (!qf)
		return false;
	struct mix_totals t = {0};
	struct atomic_file steps;
	if (steps_path) {
		if (!atomic_file_open(&steps, steps_path, err, err_size)) {
			queryfile_close(qf);
			return false;
		}
		t.steps = steps.f;
	}
	struct queryfile_entry e;
	char name[ZONES_NAME_MAX];
	int rc;
	while ((limit == 0 || t.queries < limit) && (rc = queryfile_next(qf, &e)) == 1) {
		if (e.name_len + 2 > sizeof(name))
			continue;
		mix_lower(e.name, name, sizeof(name));
		struct mix_result r;
		mix_resolve(w, name, e.qtype, 0, &t, &r);
		t.queries++;
		t.outcome[r.outcome]++;
		if (r.outcome != MIX_FAIL) {
			t.size[mix_bucket(mix_size_edges, (unsigned)r.size)]++;
			t.over512 += r.size > 512;
			t.over1232 += r.size > 1232;
		}
		if (r.outcome == MIX_DATA)
			t.ttl[mix_bucket(mix_ttl_edges, r.ttl)]++;
		t.cname += r.cnames > 0;
		t.cname_len[r.cnames < 4 ? r.cnames : 4]++;
		t.depth[r.depth < 5 ? r.depth : 5]++;
		t.glueless += r.glueless;
		if (e.qtype == LDNS_RR_TYPE_A && r.outcome == MIX_DATA)
			t.aset[r.addresses <= 2   ? r.addresses - 1
			       : r.addresses <= 4 ? 2
			       : r.addresses <= 8 ? 3
			                          : 4]++;
	}
	if (rc < 0) {
		snprintf(err, err_size, "%s", queryfile_error(qf));
		queryfile_close(qf);
		char ignored[16];
		if (steps_path) /* removes the partial file */
			atomic_file_commit(&steps, false, ignored, sizeof(ignored));
		return false;
	}
	queryfile_close(qf);
	if (steps_path && !atomic_file_commit(&steps, !ferror(steps.f), err, err_size))
		return false;

	unsigned long answered = t.queries - t.outcome[MIX_FAIL];
	unsigned long adata = 0;
	for (int i = 0; i < 5; i++)
		adata += t.aset[i];
	static const char *const depth_names[6] = {"0", "1", "2", "3", "4", "5+"};
	static const char *const cname_names[5] = {"0", "1", "2", "3", "4+"};
	static const char *const aset_names[5] = {"1", "2", "3-4", "5-8", "9+"};
	fprintf(out, "mix served for %lu queries of %s (seed %llu)\n", t.queries, path,
	        (unsigned long long)w->seed);
	mix_print_hist(out, "outcome", mix_outcome_names, t.outcome, MIX_OUTCOMES, t.queries);
	mix_print_hist(out, "answer size (bytes)", mix_size_names, t.size, MIX_BUCKETS, answered);
	mix_print_hist(out, "answer TTL (s)", mix_ttl_names, t.ttl, MIX_BUCKETS,
	               t.outcome[MIX_DATA]);
	mix_print_hist(out, "CNAMEs in chain", cname_names, t.cname_len, 5, t.queries);
	mix_print_hist(out, "referral depth", depth_names, t.depth, 6, t.queries);
	mix_print_hist(out, "A set size", aset_names, t.aset, 5, adata);
	fprintf(out, "%-22s %.1f%%\n", "with CNAME",
	        100.0 * (double)t.cname / (double)(t.queries ? t.queries : 1));
	fprintf(out, "%-22s %.1f%%\n", "glueless NS lookup",
	        100.0 * (double)t.glueless / (double)(t.queries ? t.queries : 1));
	fprintf(out, "%-22s %.1f%% / %.1f%%\n", "over 512 / 1232 B",
	        100.0 * (double)t.over512 / (double)(answered ? answered : 1),
	        100.0 * (double)t.over1232 / (double)(answered ? answered : 1));
	fprintf(out, "%-22s %.2f\n", "packets per query",
	        (double)t.upstream / (double)(t.queries ? t.queries : 1));

	if (json_path) {
		json_t *o = json_object();
		json_object_set_new(o, "queries", json_integer((json_int_t)t.queries));
		json_object_set_new(o, "seed", json_integer((json_int_t)w->seed));
		json_object_set_new(
		    o, "outcome",
		    mix_hist_json(mix_outcome_names, t.outcome, MIX_OUTCOMES, t.queries));
		json_object_set_new(o, "answer_size",
		                    mix_hist_json(mix_size_names, t.size, MIX_BUCKETS, answered));
		json_object_set_new(
		    o, "ttl",
		    mix_hist_json(mix_ttl_names, t.ttl, MIX_BUCKETS, t.outcome[MIX_DATA]));
		json_object_set_new(o, "cname_chain",
		                    mix_hist_json(cname_names, t.cname_len, 5, t.queries));
		json_object_set_new(o, "referral_depth",
		                    mix_hist_json(depth_names, t.depth, 6, t.queries));
		json_object_set_new(o, "a_set_size", mix_hist_json(aset_names, t.aset, 5, adata));
		json_object_set_new(
		    o, "cname_share",
		    json_real((double)t.cname / (double)(t.queries ? t.queries : 1)));
		json_object_set_new(
		    o, "glueless_share",
		    json_real((double)t.glueless / (double)(t.queries ? t.queries : 1)));
		json_object_set_new(
		    o, "over_512_share",
		    json_real((double)t.over512 / (double)(answered ? answered : 1)));
		json_object_set_new(
		    o, "over_1232_share",
		    json_real((double)t.over1232 / (double)(answered ? answered : 1)));
		json_object_set_new(
		    o, "packets_per_query",
		    json_real((double)t.upstream / (double)(t.queries ? t.queries : 1)));
		bool ok = json_file_write_atomic(json_path, o, err, err_size);
		json_decref(o);
		return ok;
	}
	return true;
}
