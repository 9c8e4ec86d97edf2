/* controller/run_words.h - the words a load scenario's run gives the rows and the placement, made
 * from the run's options: one builder for the run's steps (conduct_steps.c) and its --dry-run
 * (dry_run.c), so that what the dry run shows is what the run starts. */
#ifndef ALLOCSPIKE_CONTROLLER_RUN_WORDS_H
#define ALLOCSPIKE_CONTROLLER_RUN_WORDS_H

#include <jansson.h>
#include "variants_table.h"
#include <stdbool.h>
#include <stddef.h>

/* What the rows' settings name beside the options. */
struct run_words_rows {
	const char *root;  /* the source tree: variants.tsv and scenarios/daemons */
	const char *bin;   /* the programs */
	const char *rows;  /* the run's rows, "a,b,c" */
	const char *hints; /* the hierarchy's root hints */
	const char *port;  /* its port */
	const char *tls;   /* spike.sh --clients' certificate folder, "" without */
};

/* The source tree's variants table and daemon definitions' folder. */
void run_words_source(const char *root, char *table, size_t table_size, char *daemons,
                      size_t daemons_size);

/* The rows the run's options choose (--variants, else the table's defaults) of table: their
 * indexes in chosen (room for table->count), *n of them, and "a,b,c" in rows; false with why in
 * err. */
bool run_words_chosen(const struct variants_table *table, const json_t *options, size_t *chosen,
                      size_t *n, char *rows, size_t size, char *err, size_t err_size);

/* Appends our resolver's settings from the run's options (--cache-size BYTES --max-inflight N
 * --memory-layout L): the same for its launch and its --version --json. False with why in err. */
bool run_words_resolver(char ***list, size_t *n, const json_t *options, char *err, size_t err_size);

/* Appends the rows' settings (rows-setup's, row-command's and dry-run's words: docs/controller.md,
 * "A run's rows"): the table, the programs, the daemons' folder, the rows, the hints, the port,
 * the certificate folder, `--`, our resolver's settings. False with why in err. */
bool run_words_rows(char ***list, size_t *n, const json_t *options, const struct run_words_rows *r,
                    char *err, size_t err_size);

/* spike.sh --hosts: allocspike-run place's options a line each into out (drive's place=): the
 * hosts file and token, the run's id (the run folder's name), the run folder's root hints (every
 * row plan carries them; the same for each pass, whose drive's folder is another), the agents
 * reading twice per timeline interval (the report looks for a read in each), each row answering
 * this host, our resolver's settings. False with why in err. */
bool run_words_place(char *out, size_t size, const json_t *options, const char *run_dir, char *err,
                     size_t err_size);

/* The room a pass's suffix (`-cal17`) has within an identifier after the run's id. */
#define RUN_WORDS_PASS_ROOM 8

/* A pass of the run placed apart (a calibration's ramp: pass `cal1`, `cal2`...): place's words
 * (run_words_place's) into out with the run's id made ID-PASS, so that each placement has an id
 * of its own (its agents' labels, a shard's fragment folder). False when words name no run or
 * out is too small. */
bool run_words_place_pass(const char *words, const char *pass, char *out, size_t size);

#endif
