/* common/daemon_row.c - a daemon row's command (daemon_row.h). */
#include "daemon_row.h"

#include <libgen.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sockaddr_parse.h"
#include "variant_command.h"

bool daemon_row_is_daemon(const struct variants_table *table, const char *name)
{
	const struct variant_row *r = variants_table_find(table, name);
	return r && (strcmp(r->cells[VARIANT_KIND], "preload") == 0 ||
	             strcmp(r->cells[VARIANT_KIND], "external") == 0);
}

/* The daemon's cache when the plan gives none: our resolver's default (resolver/resolver.c). */
#define DAEMON_ROW_CACHE_DEFAULT "64M"

/* A port free for both UDP and TCP on addr (a daemon serves both), into addr's port. The port may
 * be taken by another before the daemon binds it: the daemon then fails to start, said as such. */
static bool pick_free_port(struct sockaddr_storage *addr, socklen_t len)
{
	for (int attempt = 0; attempt < 20; attempt++) {
		int udp = socket(addr->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		int tcp = socket(addr->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_storage bound = *addr;
		socklen_t blen = len;
		bool ok = udp >= 0 && tcp >= 0 && bind(udp, (struct sockaddr *)&bound, len) == 0 &&
		          getsockname(udp, (struct sockaddr *)&bound, &blen) == 0 &&
		          bind(tcp, (struct sockaddr *)&bound, blen) == 0;
		if (udp >= 0)
			close(udp);
		if (tcp >= 0)
			close(tcp);
		if (ok) {
			*addr = bound;
			return true;
		}
	}
	return false;
}

/* The value of the plan's --cache-size (as "--cache-size V" or "--cache-size=V"), or NULL. */
static const char *plan_cache_size(const struct row_plan *plan)
{
	for (size_t i = 0; i < plan->n_options; i++) {
		const char *w = plan->options[i];
		if (strncmp(w, "--cache-size=", 13) == 0)
			return w + 13;
		if (strcmp(w, "--cache-size") == 0 && i + 1 < plan->n_options)
			return plan->options[i + 1];
	}
	return NULL;
}

/* --tls-listen on a free port of the listen address, the certificate and the key: the launcher
 * keeps them where the definition serves DNS over TLS (row.sh says when it does not). */
static bool daemon_tls_add(char ***argv, size_t *n, const struct sockaddr_storage *listen,
                           socklen_t len, const struct row_plan *plan)
{
	struct sockaddr_storage tls = *listen;
	char text[96];
	if (tls.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&tls)->sin6_port = 0;
	else
		((struct sockaddr_in *)&tls)->sin_port = 0;
	if (!pick_free_port(&tls, len))
		return true; /* no port: its DoT clients speak plain TCP, as for any row without TLS
		              */
	sockaddr_format((struct sockaddr *)&tls, text, sizeof(text));
	return variant_words_add_list(argv, n, "--tls-listen", text, "--tls-cert", plan->tls_cert,
	                              "--tls-key", plan->tls_key);
}

bool daemon_row_command(const struct row_plan *plan, const char *ready, const char *bin_dir,
                        char ***argv, bool *refused, char *err, size_t err_size)
{
	*argv = NULL;
	*refused = true;
	if (plan->upstream_port && strcmp(plan->upstream_port, "53") != 0) {
		snprintf(err, err_size,
		         "row %s is a daemon, which sends upstream to port 53 only (the plan's "
		         "upstream port is %s)",
		         plan->row, plan->upstream_port);
		return false;
	}
	if (!plan->root_hints) {
		snprintf(err, err_size, "row %s is a daemon: it needs the hierarchy's root hints",
		         plan->row);
		return false;
	}
	struct sockaddr_storage addr;
	socklen_t len;
	char listen[96], why[128];
	if (!sockaddr_parse(plan->listen ? plan->listen : "127.0.0.1", 0, &addr, &len, why,
	                    sizeof(why))) {
		snprintf(err, err_size, "row %s: listen address: %s", plan->row, why);
		return false;
	}
	*refused = false;
	if (sockaddr_port((struct sockaddr *)&addr) == 0 && !pick_free_port(&addr, len)) {
		snprintf(err, err_size, "row %s: no free port on %s for the daemon", plan->row,
		         plan->listen ? plan->listen : "127.0.0.1");
		return false;
	}
	sockaddr_format((struct sockaddr *)&addr, listen, sizeof(listen));
	char launcher[4200], workdir[4200], build[4096];
	snprintf(launcher, sizeof(launcher), "%s/lib/row.sh", plan->daemons_dir);
	if (plan->workdir)
		snprintf(workdir, sizeof(workdir), "%s", plan->workdir);
	else
		snprintf(workdir, sizeof(workdir), "%s.daemon", plan->control);
	snprintf(build, sizeof(build), "%s", bin_dir);
	const char *cache = plan_cache_size(plan);
	const char *words[] = {launcher,       plan->row,
	                       "--ready-file", ready,
	                       "--listen",     listen,
	                       "--root-hints", plan->root_hints,
	                       "--cache-size", cache ? cache : DAEMON_ROW_CACHE_DEFAULT,
	                       "--workdir",    workdir,
	                       "--build",      dirname(build),
	                       "--variants",   plan->table,
	                       "--sampler",    plan->control};
	size_t n = 0;
	bool ok = variant_words_add_n(argv, &n, words, sizeof(words) / sizeof(*words));
	if (ok && plan->upstream_source)
		ok = variant_words_add_list(argv, &n, "--upstream-source", plan->upstream_source);
	/* an address off loopback was the agent's operator's to give: the definition may serve it
	 */
	if (ok && !sockaddr_is_loopback((struct sockaddr *)&addr))
		ok = variant_words_add_list(argv, &n, "--remote", "yes");
	if (ok && plan->tls_cert && plan->tls_key)
		ok = daemon_tls_add(argv, &n, &addr, len, plan);
	if (!ok) {
		daemon_row_free(*argv);
		*argv = NULL;
		snprintf(err, err_size, "out of memory");
	}
	return ok;
}

void daemon_row_free(char **argv)
{
	variant_words_free(argv);
}
