/* controller/variants_plan.c - allocspike-run variants (variants_plan.h). */
#include "variants_plan.h"

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli_parse.h"
#include "json_file.h"
#include "variant_command.h"
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
	    "  tsv: one line a row, its 9 cells tab-separated; json: run.json's variants rows\n"
	    "or: allocspike-run variants [--table FILE] --command ROW [--bin-dir DIR] [--listen "
	    "A]\n"
	    "      [--root-hints F] [--upstream-port P] [--upstream-source A] [--control PATH]\n"
	    "      [--ready-file F] [-- RESOLVER-OPTION...]\n"
	    "  what a build or env row runs, one word a line: its environment (NAME=value), a\n"
	    "  line '--', then the command (the resolver beside this program, or in DIR)\n",
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
json_t *variants_rows_json(const struct variants_table *table, const size_t *chosen, size_t count)
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
			return NULL;
		}
	}
	return rows;
}

const char *variants_plan_default_table(void)
{
	return ALLOCSPIKE_VARIANTS_FILE;
}

static bool print_json(const struct variants_table *table, const size_t *chosen, size_t count)
{
	json_t *rows = variants_rows_json(table, chosen, count);
	bool ok = json_print_line(stdout, "", rows);
	json_decref(rows);
	return ok;
}

/* --command ROW: the row's environment words, "--", then its command, one a line (the scenarios
 * read them with mapfile: a word holding a newline is refused). */
static int print_command(const struct variants_table *table, const char *row,
                         struct variant_launch *launch)
{
	char bin_dir[4096], err[512];
	if (!launch->bin_dir && !variant_command_bin_dir(bin_dir, sizeof(bin_dir))) {
		fprintf(stderr, "allocspike-run variants: --command: cannot find this program's "
		                "folder; give --bin-dir\n");
		return CLI_EXIT_FAILED;
	}
	if (!launch->bin_dir)
		launch->bin_dir = bin_dir;
	struct variant_command cmd;
	if (!variant_command_build(table, row, launch, &cmd, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run variants: --command: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	bool one_line = true;
	for (size_t i = 0; i < cmd.n_env + cmd.argc; i++)
		one_line =
		    one_line && !strchr(i < cmd.n_env ? cmd.env[i] : cmd.argv[i - cmd.n_env], '\n');
	if (one_line) {
		for (size_t i = 0; i < cmd.n_env; i++)
			puts(cmd.env[i]);
		puts("--");
		for (size_t i = 0; i < cmd.argc; i++)
			puts(cmd.argv[i]);
	} else {
		fprintf(stderr, "allocspike-run variants: --command: a word holds a newline\n");
	}
	variant_command_free(&cmd);
	return one_line ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}

int variants_main(int argc, char **argv)
{
	enum {
		OPT_TABLE = 256,
		OPT_SELECT,
		OPT_FORMAT,
		OPT_HELP,
		OPT_COMMAND,
		OPT_BIN_DIR,
		OPT_LISTEN,
		OPT_ROOT_HINTS,
		OPT_UPSTREAM_PORT,
		OPT_UPSTREAM_SOURCE,
		OPT_CONTROL,
		OPT_READY_FILE
	};
	static const struct option opts[] = {
	    {"table", required_argument, NULL, OPT_TABLE},
	    {"select", required_argument, NULL, OPT_SELECT},
	    {"format", required_argument, NULL, OPT_FORMAT},
	    {"help", no_argument, NULL, OPT_HELP},
	    {"command", required_argument, NULL, OPT_COMMAND},
	    {"bin-dir", required_argument, NULL, OPT_BIN_DIR},
	    {"listen", required_argument, NULL, OPT_LISTEN},
	    {"root-hints", required_argument, NULL, OPT_ROOT_HINTS},
	    {"upstream-port", required_argument, NULL, OPT_UPSTREAM_PORT},
	    {"upstream-source", required_argument, NULL, OPT_UPSTREAM_SOURCE},
	    {"control", required_argument, NULL, OPT_CONTROL},
	    {"ready-file", required_argument, NULL, OPT_READY_FILE},
	    {NULL, 0, NULL, 0},
	};
	const char *path = variants_plan_default_table(), *list = NULL, *format = "tsv",
	           *row = NULL;
	struct variant_launch launch = {0};
	const char **launch_option[] = {
	    [OPT_BIN_DIR - OPT_BIN_DIR] = &launch.bin_dir,
	    [OPT_LISTEN - OPT_BIN_DIR] = &launch.listen,
	    [OPT_ROOT_HINTS - OPT_BIN_DIR] = &launch.root_hints,
	    [OPT_UPSTREAM_PORT - OPT_BIN_DIR] = &launch.upstream_port,
	    [OPT_UPSTREAM_SOURCE - OPT_BIN_DIR] = &launch.upstream_source,
	    [OPT_CONTROL - OPT_BIN_DIR] = &launch.control,
	    [OPT_READY_FILE - OPT_BIN_DIR] = &launch.ready_file,
	};
	bool launch_given = false;
	int c;
	/* "+": the resolver's options after "--" stay where they are */
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		if (c >= OPT_BIN_DIR && c <= OPT_READY_FILE) {
			*launch_option[c - OPT_BIN_DIR] = optarg;
			launch_given = true;
		} else if (c == OPT_COMMAND)
			row = optarg;
		else if (c == OPT_TABLE)
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
	bool after_dashes = optind > 0 && strcmp(argv[optind - 1], "--") == 0;
	if ((optind < argc && (!row || !after_dashes)) || (launch_given && !row) || (row && list)) {
		if (optind < argc && !(row && after_dashes))
			fprintf(stderr, "allocspike-run variants: unexpected argument '%s'\n",
			        argv[optind]);
		else
			fprintf(
			    stderr, "allocspike-run variants: %s\n",
			    row ? "--command takes no --select"
			        : "launch options (--listen, --control, ...) need --command ROW");
		variants_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	struct variants_table table;
	char err[8192];
	if (!variants_table_read(&table, path, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run variants: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	if (row) {
		launch.options = argv + optind;
		launch.n_options = (size_t)(argc - optind);
		int rc = print_command(&table, row, &launch);
		variants_table_free(&table);
		return rc;
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
