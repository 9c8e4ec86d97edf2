/* controller/query_file.c - the query file a run replays (query_file.h). */
#include "query_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_parse.h"
#include "run_json.h"
#include "sha256_hex.h"

#define QUERY_FILE_DIGEST_CHARS 12 /* of the generator's sha256, in the file's name */

/* The first QUERY_FILE_DIGEST_CHARS hex digits of the file's sha256 into hex; false when it cannot
 * be read. */
static bool qf_digest(const char *path, char *hex, size_t size)
{
	char full[SHA256_HEX_LEN + 1];
	if (!sha256_hex_file(path, full))
		return false;
	snprintf(hex, size, "%.*s", QUERY_FILE_DIGEST_CHARS, full);
	return true;
}

/* dir and its parents made; true when it is a folder this process can write in. */
static bool qf_writable_dir(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s", dir);
	for (char *at = path + 1; (at = strchr(at, '/')) != NULL; at++) {
		*at = '\0';
		mkdir(path, 0777);
		*at = '/';
	}
	mkdir(path, 0777);
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) && access(path, W_OK) == 0;
}

bool query_file_choose(struct query_file *q, const json_t *options, const char *count,
                       const char *cache_dir, const char *run_dir, const char *querydata, char *err,
                       size_t err_size)
{
	*q = (struct query_file){0};
	const char *given = run_json_option_text(options, "queries", err, err_size);
	const char *seed = run_json_option_text(options, "query_seed", err, err_size);
	const char *world = run_json_option_text(options, "world", err, err_size);
	const char *tlds = run_json_option_text(options, "flat_tlds", err, err_size);
	if (!given || !seed || !world || !tlds)
		return false;
	if (given[0]) {
		if (!realpath(given, q->path)) {
			snprintf(err, err_size, "--queries %s: %s", given, strerror(errno));
			return false;
		}
		return true;
	}
	q->generated = true;
	if (access(querydata, X_OK) != 0) {
		const char *slash = strrchr(querydata, '/');
		snprintf(
		    err, err_size,
		    "allocspike-querydata is missing from %.*s (needed to generate the default "
		    "query file); build it or pass --queries FILE",
		    slash ? (int)(slash - querydata) : 1, slash ? querydata : ".");
		return false;
	}
	if (!cli_parse_count("--query-seed", seed, 0, ~0ULL, &q->seed, err, err_size) ||
	    !cli_parse_count("COUNT", count, 1, ~0ULL, &q->count, err, err_size))
		return false;
	snprintf(q->seed_text, sizeof(q->seed_text), "%s", seed);
	snprintf(q->count_text, sizeof(q->count_text), "%s", count);
	char model[QUERY_FILE_DIGEST_CHARS + 1] = "";
	if (!qf_digest(querydata, model, sizeof(model))) {
		snprintf(err, err_size, "%s cannot be read (its digest names the file)", querydata);
		return false;
	}
	/* the flat world asks its own mix of names under its TLDs (allocspike-querydata --world
	 * flat) */
	q->flat = strcmp(world, "flat") == 0;
	snprintf(q->flat_tlds, sizeof(q->flat_tlds), "%s", tlds);
	char kind[64] = "";
	if (q->flat)
		snprintf(kind, sizeof(kind), "flat%s-", tlds);
	const char *dir = qf_writable_dir(cache_dir) ? cache_dir : run_dir;
	snprintf(q->path, sizeof(q->path), "%s/queries-%sseed%s-%s-%s.txt", dir, kind, seed, count,
	         model);
	return true;
}

int query_file_generate_argv(const struct query_file *q, const char *querydata, char **argv)
{
	int n = 0;
	argv[n++] = (char *)querydata;
	argv[n++] = "generate";
	argv[n++] = "--seed";
	argv[n++] = (char *)q->seed_text;
	argv[n++] = "--count";
	argv[n++] = (char *)q->count_text;
	if (q->flat) {
		argv[n++] = "--world";
		argv[n++] = "flat";
		argv[n++] = "--flat-tlds";
		argv[n++] = (char *)q->flat_tlds;
	}
	argv[n++] = "--out";
	argv[n++] = (char *)q->path;
	argv[n] = NULL;
	return n;
}

json_t *query_file_generated(const struct query_file *q)
{
	if (!q->generated)
		return json_null();
	json_t *g =
	    json_pack("{s:I, s:I}", "seed", (json_int_t)q->seed, "count", (json_int_t)q->count);
	if (q->flat)
		json_object_set_new(g, "mix", json_string("flat"));
	return g;
}
