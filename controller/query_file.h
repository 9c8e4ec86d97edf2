/* controller/query_file.h - the query file a run replays (docs/controller.md, "The query file"):
 * the user's --queries, or the embedded default that allocspike-querydata generates from the run's
 * seed and count (the flat world's own mix of names in that world), kept in a cache folder under a
 * name that carries the generator's digest, so that a changed model never reuses an old file and an
 * unchanged one is generated once. */
#ifndef ALLOCSPIKE_CONTROLLER_QUERY_FILE_H
#define ALLOCSPIKE_CONTROLLER_QUERY_FILE_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define QUERY_FILE_MAX_ARGS 16

struct query_file {
	char path[PATH_MAX + 256]; /* the file the run replays */
	bool generated;            /* the default (else the user's --queries) */
	bool flat;                 /* the flat world's mix */
	unsigned long long seed, count;
	char seed_text[32], count_text[32],
	    flat_tlds[32]; /* as the options and the request wrote them */
};

/* The run's file from its options (run.json's parameters.options: queries, query_seed, world,
 * flat_tlds): the user's, its real path; else the default for count queries in cache_dir, made when
 * missing, or in run_dir when cache_dir cannot be made or written. querydata: where the generator
 * is; without it only a user's file can be had. False with why in err. */
bool query_file_choose(struct query_file *q, const json_t *options, const char *count,
                       const char *cache_dir, const char *run_dir, const char *querydata, char *err,
                       size_t err_size);

/* The generator's command for the default file into argv (QUERY_FILE_MAX_ARGS, NULL-terminated,
 * its words q's or querydata): `generate --seed --count [--world flat --flat-tlds] --out PATH`,
 * which writes beside PATH and renames, so a generation stopped midway leaves no half file under
 * the cache's name. Its word count. */
int query_file_generate_argv(const struct query_file *q, const char *querydata, char **argv);

/* run.json's queryfile.generated: {seed, count} (and mix "flat"), or null for the user's file. */
json_t *query_file_generated(const struct query_file *q);

#endif
