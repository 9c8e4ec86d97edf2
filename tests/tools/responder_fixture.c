/* tests/tools/responder_fixture.c - parses fixture files and turns a matching block into a reply.
 */
#include "responder_fixture.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const fixture_section_names[3] = {"answer", "authority", "additional"};

static const struct {
	const char *name;
	int bit;
} fixture_flag_names[] = {
    {"aa", FIXTURE_FLAG_AA}, {"tc", FIXTURE_FLAG_TC}, {"rd", FIXTURE_FLAG_RD},
    {"ra", FIXTURE_FLAG_RA}, {"ad", FIXTURE_FLAG_AD}, {"cd", FIXTURE_FLAG_CD},
    {"qr", FIXTURE_FLAG_QR},
};

static char *fixture_lower_name(const char *name)
{
	size_t n = strlen(name);
	char *out = malloc(n + 2);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)name[i]);
	/* names are compared with the trailing dot, as ldns prints them */
	if (strcmp(name, "*") != 0 && (n == 0 || name[n - 1] != '.'))
		out[n++] = '.';
	out[n] = '\0';
	return out;
}

static int fixture_parse_type(const char *text)
{
	if (strcmp(text, "*") == 0)
		return -1;
	ldns_rr_type t = ldns_get_rr_type_by_name(text);
	if (t == 0)
		return -2;
	return (int)t;
}

static bool fixture_parse_rcode(const char *text, int *rcode)
{
	char *end = NULL;
	long v = strtol(text, &end, 10);
	if (*text && *end == '\0' && v >= 0 && v <= 15) {
		*rcode = (int)v;
		return true;
	}
	ldns_lookup_table *lt = ldns_lookup_by_name(ldns_rcodes, text);
	if (!lt)
		return false;
	*rcode = lt->id;
	return true;
}

static bool fixture_parse_flags(struct fixture_entry *e, char *args)
{
	for (char *tok = strtok(args, " \t"); tok; tok = strtok(NULL, " \t")) {
		bool clear = tok[0] == '-';
		const char *name = (tok[0] == '-' || tok[0] == '+') ? tok + 1 : tok;
		int bit = 0;
		for (size_t i = 0; i < sizeof(fixture_flag_names) / sizeof(fixture_flag_names[0]);
		     i++)
			if (strcasecmp(name, fixture_flag_names[i].name) == 0)
				bit = fixture_flag_names[i].bit;
		if (!bit)
			return false;
		if (clear) {
			e->flags_clear |= bit;
			e->flags_set &= ~bit;
		} else {
			e->flags_set |= bit;
			e->flags_clear &= ~bit;
		}
	}
	return true;
}

static bool fixture_parse_hex(struct fixture_entry *e, const char *text)
{
	size_t n = 0, cap = strlen(text) / 2 + 1;
	uint8_t *buf = malloc(cap);
	int high = -1;
	if (!buf)
		return false;
	for (const char *p = text; *p; p++) {
		if (isspace((unsigned char)*p))
			continue;
		if (!isxdigit((unsigned char)*p)) {
			free(buf);
			return false;
		}
		int v =
		    isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
		if (high < 0) {
			high = v;
		} else {
			buf[n++] = (uint8_t)(high << 4 | v);
			high = -1;
		}
	}
	if (high >= 0) {
		free(buf);
		return false;
	}
	free(e->raw);
	e->raw = buf;
	e->raw_len = n;
	return true;
}

static struct fixture_entry *fixture_add(struct fixture_set *set)
{
	struct fixture_entry *grown =
	    realloc(set->entries, (set->count + 1) * sizeof(*set->entries));
	if (!grown)
		return NULL;
	set->entries = grown;
	struct fixture_entry *e = &set->entries[set->count++];
	memset(e, 0, sizeof(*e));
	for (int s = 0; s < 3; s++)
		e->sections[s] = ldns_rr_list_new();
	return e;
}

/* Parses one non-query line of a block into e; false with the reason in err. */
static bool fixture_parse_line(struct fixture_entry *e, const char *keyword, char *args, char *err,
                               size_t err_size)
{
	for (int s = 0; s < 3; s++) {
		if (strcmp(keyword, fixture_section_names[s]) != 0)
			continue;
		ldns_rr *rr = NULL;
		ldns_status st = ldns_rr_new_frm_str(&rr, args, 3600, NULL, NULL);
		if (st != LDNS_STATUS_OK) {
			snprintf(err, err_size, "bad record '%s': %s", args,
			         ldns_get_errorstr_by_id(st));
			return false;
		}
		ldns_rr_list_push_rr(e->sections[s], rr);
		return true;
	}
	if (strcmp(keyword, "rcode") == 0) {
		if (!fixture_parse_rcode(args, &e->rcode)) {
			snprintf(err, err_size, "unknown rcode '%s'", args);
			return false;
		}
	} else if (strcmp(keyword, "flags") == 0) {
		if (!fixture_parse_flags(e, args)) {
			snprintf(err, err_size,
			         "flags takes aa tc rd ra ad cd qr, each with + or -");
			return false;
		}
	} else if (strcmp(keyword, "id") == 0) {
		char *end = NULL;
		long v = strtol(args, &end, 10);
		if (!*args || *end || v < -65535 || v > 65535) {
			snprintf(err, err_size, "id takes N (0..65535) or +K/-K, got '%s'", args);
			return false;
		}
		e->id_absolute = args[0] != '+' && args[0] != '-';
		if (e->id_absolute && v < 0) {
			snprintf(err, err_size, "bad id '%s'", args);
			return false;
		}
		e->id_value = (int)v;
	} else if (strcmp(keyword, "question") == 0) {
		char text[600];
		char name[300], type[32];
		if (sscanf(args, "%299s %31s", name, type) != 2) {
			snprintf(err, err_size, "question takes NAME TYPE");
			return false;
		}
		snprintf(text, sizeof(text), "%s IN %s", name, type);
		ldns_rr_free(e->question);
		e->question = NULL;
		if (ldns_rr_new_question_frm_str(&e->question, text, NULL, NULL) !=
		    LDNS_STATUS_OK) {
			snprintf(err, err_size, "bad question '%s'", args);
			return false;
		}
		e->has_question = true;
	} else if (strcmp(keyword, "delay") == 0) {
		char *end = NULL;
		long v = strtol(args, &end, 10);
		if (!*args || *end || v < 0 || v > 600000) {
			snprintf(err, err_size, "delay takes milliseconds (0..600000), got '%s'",
			         args);
			return false;
		}
		e->delay_ms = (int)v;
	} else if (strcmp(keyword, "noedns") == 0) {
		e->noedns = true;
	} else if (strcmp(keyword, "drop") == 0) {
		e->drop = true;
	} else if (strcmp(keyword, "raw") == 0) {
		if (!fixture_parse_hex(e, args)) {
			snprintf(err, err_size, "raw takes an even number of hex digits");
			return false;
		}
	} else {
		snprintf(err, err_size, "unknown keyword '%s'", keyword);
		return false;
	}
	return true;
}

static bool fixture_parse_query(struct fixture_entry *e, char *args, char *err, size_t err_size)
{
	char *name = strtok(args, " \t");
	char *type = name ? strtok(NULL, " \t") : NULL;
	char *transport = type ? strtok(NULL, " \t") : NULL;
	if (!name || !type) {
		snprintf(err, err_size, "query takes NAME TYPE [udp|tcp] (* for any)");
		return false;
	}
	e->qtype = fixture_parse_type(type);
	if (e->qtype == -2) {
		snprintf(err, err_size, "unknown type '%s'", type);
		return false;
	}
	if (transport && strcasecmp(transport, "udp") == 0) {
		e->transport = FIXTURE_UDP;
	} else if (transport && strcasecmp(transport, "tcp") == 0) {
		e->transport = FIXTURE_TCP;
	} else if (transport) {
		snprintf(err, err_size, "transport must be udp or tcp, got '%s'", transport);
		return false;
	}
	e->qname = fixture_lower_name(name);
	return e->qname != NULL;
}

bool fixture_load(struct fixture_set *set, const char *path, char *err, size_t err_size)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return false;
	}
	char line[8192];
	char reason[512];
	int lineno = 0;
	struct fixture_entry *cur = NULL;
	bool ok = true;
	while (ok && fgets(line, sizeof(line), f)) {
		lineno++;
		size_t n = strlen(line);
		if (n == sizeof(line) - 1 && line[n - 1] != '\n') {
			snprintf(reason, sizeof(reason), "line longer than %zu bytes",
			         sizeof(line) - 2);
			ok = false;
			break;
		}
		while (n > 0 && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		char *p = line;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		char *keyword = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (strcmp(keyword, "query") == 0) {
			cur = fixture_add(set);
			if (!cur) {
				snprintf(reason, sizeof(reason), "out of memory");
				ok = false;
				break;
			}
			snprintf(cur->where, sizeof(cur->where), "%s:%d", path, lineno);
			ok = fixture_parse_query(cur, p, reason, sizeof(reason));
		} else if (!cur) {
			snprintf(reason, sizeof(reason), "'%s' before the first 'query' line",
			         keyword);
			ok = false;
		} else {
			ok = fixture_parse_line(cur, keyword, p, reason, sizeof(reason));
		}
	}
	fclose(f);
	if (!ok)
		snprintf(err, err_size, "%s:%d: %s", path, lineno, reason);
	return ok;
}

const struct fixture_entry *fixture_match(const struct fixture_set *set, const char *qname,
                                          int qtype, enum fixture_transport transport)
{
	/* rank 0 is best: exact name+type, exact name, exact type, catch-all */
	const struct fixture_entry *best = NULL;
	int best_rank = 4;
	for (size_t i = 0; i < set->count; i++) {
		const struct fixture_entry *e = &set->entries[i];
		if (e->transport != FIXTURE_ANY && e->transport != transport)
			continue;
		bool any_name = strcmp(e->qname, "*") == 0;
		if (!any_name && strcasecmp(e->qname, qname) != 0)
			continue;
		if (e->qtype != -1 && e->qtype != qtype)
			continue;
		int rank = (any_name ? 2 : 0) + (e->qtype == -1 ? 1 : 0);
		if (rank < best_rank) {
			best = e;
			best_rank = rank;
		}
	}
	return best;
}

static uint16_t fixture_reply_id(const struct fixture_entry *e, uint16_t query_id)
{
	if (e->id_absolute)
		return (uint16_t)e->id_value;
	return (uint16_t)(query_id + e->id_value);
}

static void fixture_apply_flags(ldns_pkt *p, int bits, bool on)
{
	if (bits & FIXTURE_FLAG_AA)
		ldns_pkt_set_aa(p, on);
	if (bits & FIXTURE_FLAG_TC)
		ldns_pkt_set_tc(p, on);
	if (bits & FIXTURE_FLAG_RD)
		ldns_pkt_set_rd(p, on);
	if (bits & FIXTURE_FLAG_RA)
		ldns_pkt_set_ra(p, on);
	if (bits & FIXTURE_FLAG_AD)
		ldns_pkt_set_ad(p, on);
	if (bits & FIXTURE_FLAG_CD)
		ldns_pkt_set_cd(p, on);
	if (bits & FIXTURE_FLAG_QR)
		ldns_pkt_set_qr(p, on);
}

bool fixture_reply(const struct fixture_entry *e, const ldns_pkt *query, uint8_t **wire,
                   size_t *wire_len)
{
	if (e->drop)
		return false;
	uint16_t id = fixture_reply_id(e, ldns_pkt_id(query));
	if (e->raw) {
		*wire = malloc(e->raw_len ? e->raw_len : 1);
		if (!*wire)
			return false;
		memcpy(*wire, e->raw, e->raw_len);
		if (e->raw_len >= 2) {
			(*wire)[0] = (uint8_t)(id >> 8);
			(*wire)[1] = (uint8_t)id;
		}
		*wire_len = e->raw_len;
		return true;
	}
	ldns_pkt *p = ldns_pkt_new();
	if (!p)
		return false;
	ldns_pkt_set_id(p, id);
	ldns_pkt_set_qr(p, true);
	ldns_pkt_set_opcode(p, ldns_pkt_get_opcode(query));
	ldns_pkt_set_rd(p, ldns_pkt_rd(query));
	ldns_pkt_set_cd(p, ldns_pkt_cd(query));
	fixture_apply_flags(p, e->flags_set, true);
	fixture_apply_flags(p, e->flags_clear, false);
	ldns_pkt_set_rcode(p, (uint8_t)e->rcode);
	if (e->has_question) {
		ldns_pkt_push_rr(p, LDNS_SECTION_QUESTION, ldns_rr_clone(e->question));
	} else {
		ldns_rr_list *q = ldns_pkt_question(query);
		for (size_t i = 0; i < ldns_rr_list_rr_count(q); i++)
			ldns_pkt_push_rr(p, LDNS_SECTION_QUESTION,
			                 ldns_rr_clone(ldns_rr_list_rr(q, i)));
	}
	static const ldns_pkt_section secs[3] = {LDNS_SECTION_ANSWER, LDNS_SECTION_AUTHORITY,
	                                         LDNS_SECTION_ADDITIONAL};
	for (int s = 0; s < 3; s++)
		for (size_t i = 0; i < ldns_rr_list_rr_count(e->sections[s]); i++)
			ldns_pkt_push_rr(p, secs[s],
			                 ldns_rr_clone(ldns_rr_list_rr(e->sections[s], i)));
	if (ldns_pkt_edns(query) && !e->noedns)
		ldns_pkt_set_edns_udp_size(p, 1232);
	bool ok = ldns_pkt2wire(wire, p, wire_len) == LDNS_STATUS_OK;
	ldns_pkt_free(p);
	return ok;
}

void fixture_free(struct fixture_set *set)
{
	for (size_t i = 0; i < set->count; i++) {
		struct fixture_entry *e = &set->entries[i];
		free(e->qname);
		ldns_rr_free(e->question);
		for (int s = 0; s < 3; s++)
			ldns_rr_list_deep_free(e->sections[s]);
		free(e->raw);
	}
	free(set->entries);
	set->entries = NULL;
	set->count = 0;
}
