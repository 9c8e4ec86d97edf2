/* controller/variants_plan.c - allocspike-run variants (variants_plan.h). */
#include "variants_plan.h"

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli_parse.h"
#include "variants_table.h"

/* The table of the build this controller belongs to (CMake's ALLOCSPIKE_VARIANTS_FILE). */
#ifndef ALLOCSPIKE_VARIANTS_FILE
#define ALLOCSPIKE_VARIANTS_FILE "variants.tsv"
#endif

void variants_usage(FILE *out)
{
	fprintf(
	    out,
	    "allocspike-run variants [--table FILE] [--select LIST] [--format tsv|json]\n"
	    "  the rows of the variants table (default %s), checked; with --select\n"
	    "  the rows LIST names (a,b,c) in its order, or the default rows when LIST is empty;\n"
	    "  tsv: one line a row, its 9 cells tab-separated; json: run.json's variants rows\n",
	    ALLOCSPIKE_VARIANTS_FILE);
}

static void print_tsv(const struct variants_table *table, const size_t *chosen, size_t count)
{
	for (size_t i = 0; i < count; i++)
		for (int c = 0; c < VARIANT_COLUMNS; c++)
			printf("%s%c", table->rows[chosen[i]].cells[c],
			       c + 1 < VARIANT_COLUMNS ? '\t' : '\n');
}

/* run.json's rows: the cells by column name, version null until the scenario has asked the binary,
 * the source address the row's N-th place gives it (each row its own, so the hierarchy counts
 * them apart), and the host it runs on: this machine's name (run.json machine.hostname, uname -n),
 * as the scenarios launch every row here; a row an agent samples elsewhere is named by the
 * collector's clock events (docs/run-folder.md). */
static bool print_json(const struct variants_table *table, const size_t *chosen, size_t count)
{
	struct utsname uts;
	const char *host = uname(&uts) == 0 ? uts.nodename : NULL;
	json_t *rows = json_array();
	for (size_t i = 0; rows && i < count; i++) {
		json_t *row = json_object();
		char source[32];
		snprintf(source, sizeof(source), "127.0.1.%zu", i + 1);
		for (int c = 0; row && c < VARIANT_COLUMNS; c++)
			if (c != VARIANT_DEFAULT)
				json_object_set_new(row, variant_column_names[c],
				                    json_string(table->rows[chosen[i]].cells[c]));
		if (!row || json_object_set_new(row, "version", json_null()) ||
		    json_object_set_new(row, "upstream_source", json_string(source)) ||
		    json_object_set_new(row, "host", host ? json_string(host) : json_null()) ||
		    json_array_append_new(rows, row)) {
			json_decref(rows);
			return false;
		}
	}
	char *text = rows ? json_dumps(rows, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(rows);
	if (text)
		puts(text);
	free(text);
	return text != NULL;
}

int variants_main(int argc, char **argv)
{
	enum { OPT_TABLE = 256, OPT_SELECT, OPT_FORMAT, OPT_HELP };
	static const struct option opts[] = {
	    {"table", required_argument, NULL, OPT_TABLE},
	    {"select", required_argument, NULL, OPT_SELECT},
	    {"format", required_argument, NULL, OPT_FORMAT},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	const char *path = ALLOCSPIKE_VARIANTS_FILE, *list = NULL, *format = "tsv";
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == OPT_TABLE)
			path = optarg;
		else if (c == OPT_SELECT)
			list = optarg;
		else if (c == OPT_FORMAT && (!strcmp(optarg, "tsv") || !strcmp(optarg, "json")))
			format = optarg;
		else if (c == OPT_HELP) {
			variants_usage(stdout);
			return CLI_EXIT_OK;
		} else {
			if (c == OPT_FORMAT)
				fprintf(
				    stderr,
				    "allocspike-run variants: --format: '%s' is not tsv or json\n",
				    optarg);
			variants_usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "allocspike-run variants: unexpected argument '%s'\n",
		        argv[optind]);
		variants_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	struct variants_table table;
	char err[8192];
	if (!variants_table_read(&table, path, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run variants: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	size_t *chosen = calloc(table.count + 1, sizeof(*chosen)), count = 0;
	int status = CLI_EXIT_OK;
	if (!chosen) {
		fprintf(stderr, "allocspike-run variants: out of memory\n");
		status = CLI_EXIT_FAILED;
	} else if (!variants_table_select(&table, list, chosen, &count, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run variants: --select: %s\n", err);
		status = CLI_EXIT_USAGE;
	} else if (strcmp(format, "json") == 0 && !print_json(&table, chosen, count)) {
		fprintf(stderr, "allocspike-run variants: out of memory\n");
		status = CLI_EXIT_FAILED;
	} else if (strcmp(format, "tsv") == 0) {
		print_tsv(&table, chosen, count);
	}
	free(chosen);
	variants_table_free(&table);
	return status;
}
