/* resolver/hints.c - reads root hints (". NS name" + "name A addr") with ldns's zone-file reader.
 */
#include "hints.h"

#include <errno.h>
#include <ldns/ldns.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "resolver.h"
#include "sockaddr_parse.h"

int hints_load(struct resolver_config *cfg, const char *path, char *err, size_t err_size)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, err_size, "--root-hints %s: %s", path, strerror(errno));
		return -1;
	}
	ldns_rr_list *ns = ldns_rr_list_new(), *addrs = ldns_rr_list_new();
	uint32_t ttl = 3600;
	ldns_rdf *origin = NULL, *prev = NULL;
	int line = 1, added = 0, rc = 0;
	while (!feof(f)) {
		ldns_rr *rr = NULL;
		int before = line;
		ldns_status st = ldns_rr_new_frm_fp_l(&rr, f, &ttl, &origin, &prev, &line);
		if (st == LDNS_STATUS_SYNTAX_EMPTY || st == LDNS_STATUS_SYNTAX_TTL ||
		    st == LDNS_STATUS_SYNTAX_ORIGIN)
			continue;
		if (st != LDNS_STATUS_OK) {
			/* ldns has counted the newline that ended the bad line already */
			snprintf(err, err_size, "%s:%d: %s", path, line > before ? line - 1 : line,
			         ldns_get_errorstr_by_id(st));
			rc = -1;
			break;
		}
		ldns_rr_type t = ldns_rr_get_type(rr);
		if (t == LDNS_RR_TYPE_NS)
			ldns_rr_list_push_rr(ns, rr);
		else if (t == LDNS_RR_TYPE_A || t == LDNS_RR_TYPE_AAAA)
			ldns_rr_list_push_rr(addrs, rr);
		else
			ldns_rr_free(rr);
	}
	fclose(f);
	for (size_t i = 0; rc == 0 && i < ldns_rr_list_rr_count(addrs); i++) {
		ldns_rr *a = ldns_rr_list_rr(addrs, i);
		bool is_root_server = ldns_rr_list_rr_count(ns) == 0;
		for (size_t j = 0; j < ldns_rr_list_rr_count(ns); j++)
			if (ldns_dname_compare(ldns_rr_rdf(ldns_rr_list_rr(ns, j), 0),
			                       ldns_rr_owner(a)) == 0)
				is_root_server = true;
		if (!is_root_server)
			continue;
		if (cfg->n_roots >= RESOLVER_MAX_ROOTS) {
			snprintf(err, err_size, "%s: more than %d root server addresses", path,
			         RESOLVER_MAX_ROOTS);
			rc = -1;
			break;
		}
		const ldns_rdf *rd = ldns_rr_rdf(a, 0);
		struct resolver_addr *ra = &cfg->roots[cfg->n_roots];
		memset(ra, 0, sizeof(*ra));
		size_t size = ldns_rdf_size(rd);
		if ((ldns_rr_get_type(a) == LDNS_RR_TYPE_A) != (size == 4) ||
		    !(ra->len = sockaddr_from_bytes(ldns_rdf_data(rd), size,
		                                    (uint16_t)cfg->upstream_port, &ra->sa)))
			continue;
		cfg->n_roots++;
		added++;
	}
	ldns_rr_list_deep_free(ns);
	ldns_rr_list_deep_free(addrs);
	ldns_rdf_deep_free(origin);
	ldns_rdf_deep_free(prev);
	if (rc == 0 && added == 0) {
		snprintf(err, err_size, "%s: no root server addresses (A/AAAA of the . NS names)",
		         path);
		return -1;
	}
	return rc < 0 ? -1 : added;
}
