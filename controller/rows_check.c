/* controller/rows_check.c - allocspike-run rows-check (rows_check.h). */
#include "rows_check.h"

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "allocators/allocator.h"
#include "cli_parse.h"
#include "env_settings.h"
#include "json_file.h"
#include "program_json.h"
#include "row_program.h"
#include "variant_command.h"
#include "variants_plan.h"
#include "variants_table.h"

/* How long a binary has to print its --version --json (it only reads its options and exits). */
#define ROWS_CHECK_VERSION_TIMEOUT_MS 10000

void rows_check_usage(FILE *out)
{
	fprintf(
	    out,
	    "allocspike-run rows-check [--table FILE] [--select LIST] [--bin-dir DIR]\n"
	    "      [--daemons-dir DIR] [-- RESOLVER-OPTION...]\n"
	    "  which chosen rows can run, one tab-separated line a row: 'runnable NAME VERSION'\n"
	    "  (the binary's --version --json under the row's environment and the options, or\n"
	    "  null) or 'failed NAME REASON MESSAGE'; then 'rows JSON': run.json's rows\n"
	    "or: allocspike-run rows-check [--table FILE] --row NAME --version-json JSON\n"
	    "  the same judgement of a report got elsewhere (a daemon's allocator probe): a\n"
	    "  'failed' line and status 1, or nothing and 0\n");
}

/* Why a row cannot run, as its `failed` event's reason and as the message for the person. */
struct verdict {
	bool failed;
	char reason[8192];
	char message[8192];
};

/* lines as one line, joined by "; " (a last newline dropped). */
static void join_lines(const char *lines, char *out, size_t size)
{
	size_t o = 0;
	for (const char *p = lines; *p && o + 3 < size; p++) {
		if (*p != '\n') {
			out[o++] = *p;
		} else if (p[1]) {
			out[o++] = ';';
			out[o++] = ' ';
		}
	}
	out[o] = '\0';
}

/* Whether the probe's glibc-heap evidence for `call` (malloc, mallocx: does a 4 KiB block of it
 * grow glibc's own heap) contradicts the allocator wanted; absent evidence contradicts nothing. */
static bool heap_contradicts(const json_t *version, const char *call, const char *want,
                             const char *name, struct verdict *v)
{
	char key[64];
	snprintf(key, sizeof(key), "glibc_heap_serves_%s", call);
	const json_t *heap = json_object_get(version, key);
	bool want_glibc = allocator_by_name(want) == &allocator_glibc;
	if (!json_is_boolean(heap) || json_is_true(heap) == want_glibc)
		return false;
	v->failed = true;
	snprintf(v->reason, sizeof(v->reason), "glibc's heap %s %s, expected %s",
	         json_is_true(heap) ? "serves" : "does not serve", call, want);
	snprintf(v->message, sizeof(v->message), "variant %s: the row wants %s but %s=%s; not run",
	         name, want, key, json_is_true(heap) ? "true" : "false");
	return true;
}

/* The evidence an allocator probe adds (preload/alloc_probe.c; docs/daemons.md): free and
 * operator delete served by malloc's object, glibc's own heap growing exactly when glibc is the
 * allocator wanted, and jemalloc's mallocx (when the process has one) reaching that allocator too.
 * A report without a fact says nothing about it. */
static void judge_probe(const json_t *version, const char *want, const char *name,
                        struct verdict *v)
{
	const char *object = json_string_value(json_object_get(version, "malloc_object"));
	const char *mallocx = json_string_value(json_object_get(version, "mallocx_object"));
	const char *slash = mallocx ? strrchr(mallocx, '/') : NULL;
	if (json_is_false(json_object_get(version, "release_matches_malloc"))) {
		char *text = json_dumps(json_object_get(version, "release_objects"), JSON_COMPACT);
		v->failed = true;
		snprintf(v->reason, sizeof(v->reason), "free is not served by malloc's object");
		snprintf(v->message, sizeof(v->message),
		         "variant %s: free, realloc or operator delete is not served by malloc's "
		         "object (%s): %s; not run",
		         name, object ? object : "?", text ? text : "?");
		free(text);
	} else if (heap_contradicts(version, "malloc", want, name, v)) {
		return;
	} else if (mallocx && object && strcmp(mallocx, object) != 0 &&
	           strcmp(slash ? slash + 1 : mallocx, "liballocspike-mallocx.so") != 0) {
		v->failed = true;
		snprintf(v->reason, sizeof(v->reason), "mallocx is served by %s, not %s", mallocx,
		         want);
		snprintf(v->message, sizeof(v->message),
		         "variant %s: jemalloc's mallocx is served by %s, not %s: preload "
		         "lib/liballocspike-mallocx.so after the allocator; not run",
		         name, mallocx, want);
	} else {
		heap_contradicts(version, "mallocx", want, name, v);
	}
}

/* The report's allocator and settings against the row's (no report, nothing to judge). */
static void judge_report(const struct variant_row *row, const char *name, const json_t *version,
                         struct verdict *v)
{
	if (!json_is_object(version))
		return;
	const char *got = json_string_value(json_object_get(version, "allocator"));
	const char *want = row->cells[VARIANT_ALLOCATOR];
	if (got && *got && strcmp(got, want) != 0) {
		v->failed = true;
		snprintf(v->reason, sizeof(v->reason), "allocator is %s, expected %s", got, want);
		snprintf(
		    v->message, sizeof(v->message),
		    "variant %s: its binary reports allocator '%s', the table says '%s'; not run",
		    name, got, want);
		return;
	}
	judge_probe(version, want, name, v);
	if (v->failed)
		return;
	/* A setting that did not take would measure the allocator's defaults under the row's name.
	 */
	char *text = json_dumps(version, JSON_COMPACT | JSON_PRESERVE_ORDER), *lines = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&lines, &size);
	int bad = text && out ? env_settings_check(row->cells[VARIANT_ENV], text, out) : 0;
	if (out)
		fclose(out);
	if (bad > 0) {
		char joined[768];
		join_lines(lines ? lines : "", joined, sizeof(joined));
		v->failed = true;
		snprintf(v->reason, sizeof(v->reason), "allocator setting did not take");
		snprintf(v->message, sizeof(v->message), "variant %s: %s; not run", name, joined);
	}
	free(lines);
	free(text);
}

bool rows_check_report(const struct variant_row *row, const char *name, const json_t *version,
                       char *reason, size_t reason_size, char *message, size_t message_size)
{
	struct verdict v = {0};
	judge_report(row, name, version, &v);
	snprintf(reason, reason_size, "%s", v.reason);
	snprintf(message, message_size, "%s", v.message);
	return !v.failed;
}

/* One chosen row: what it lacks, else its binary's report judged. *version is set to the report
 * (NULL: none). */
static void check_row(const struct variants_table *table, const struct variant_row *row,
                      const struct rows_places *at, json_t **version, struct verdict *v)
{
	const char *name = row->cells[VARIANT_NAME];
	bool ours = row_program_ours(row);
	char path[4096], missing[4200];
	*version = NULL;
	if (!row_program_present(row, at->bin_dir, at->daemons_dir, path, sizeof(path), missing,
	                         sizeof(missing))) {
		v->failed = true;
		snprintf(v->reason, sizeof(v->reason), "missing %s", missing);
		snprintf(v->message, sizeof(v->message), "variant %s cannot run: missing %s", name,
		         missing);
		return;
	}
	if (!ours) /* a daemon reports through its allocator probe once started */
		return;
	struct variant_launch launch = {
	    .bin_dir = at->bin_dir, .options = at->options, .n_options = at->n_options};
	struct variant_command cmd;
	char err[512];
	if (!variant_command_build(table, name, &launch, &cmd, err, sizeof(err))) {
		v->failed = true;
		snprintf(v->reason, sizeof(v->reason), "%s", err);
		snprintf(v->message, sizeof(v->message), "variant %s: %s", name, err);
		return;
	}
	char **argv = calloc(cmd.argc + 3, sizeof(*argv));
	if (argv) {
		memcpy(argv, cmd.argv, cmd.argc * sizeof(*argv));
		argv[cmd.argc] = "--version";
		argv[cmd.argc + 1] = "--json";
		*version = program_json(cmd.env, cmd.n_env, argv, ROWS_CHECK_VERSION_TIMEOUT_MS);
	}
	free(argv);
	variant_command_free(&cmd);
	judge_report(row, name, *version, v);
}

json_t *rows_check_chosen(const struct variants_table *table, const char *list,
                          const struct rows_places *at, rows_check_each *each, void *ctx, char *err,
                          size_t err_size)
{
	size_t *chosen = calloc(table->count + 1, sizeof(*chosen)), count = 0;
	if (!chosen || !variants_table_select(table, list, chosen, &count, err, err_size)) {
		if (!chosen)
			snprintf(err, err_size, "out of memory");
		free(chosen);
		return NULL;
	}
	json_t *rows = variants_rows_json(table, chosen, count);
	for (size_t i = 0; rows && i < count; i++) {
		const struct variant_row *row = &table->rows[chosen[i]];
		struct verdict v = {0};
		json_t *version = NULL;
		check_row(table, row, at, &version, &v);
		each(ctx, row->cells[VARIANT_NAME], version, v.failed, v.reason, v.message);
		json_object_set_new(json_array_get(rows, i), "version",
		                    version ? version : json_null());
	}
	free(chosen);
	if (!rows)
		snprintf(err, err_size, "out of memory");
	return rows;
}

/* A row's line: 'runnable NAME VERSION' or 'failed NAME REASON MESSAGE'. */
static void line_print(void *ctx, const char *name, const json_t *version, bool failed,
                       const char *reason, const char *message)
{
	(void)ctx;
	if (failed) {
		printf("failed\t%s\t%s\t%s\n", name, reason, message);
		return;
	}
	char *text = version ? json_dumps(version, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	printf("runnable\t%s\t%s\n", name, text ? text : "null");
	free(text);
}

/* Every chosen row checked, its line printed; then run.json's rows with their reports. */
static int check_chosen(const struct variants_table *table, const char *list,
                        const struct rows_places *at)
{
	char err[1024];
	json_t *rows = rows_check_chosen(table, list, at, line_print, NULL, err, sizeof(err));
	if (!rows) {
		fprintf(stderr, "allocspike-run rows-check: --select: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	bool printed = json_print_line(stdout, "rows\t", rows);
	json_decref(rows);
	return printed ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}

int rows_check_main(int argc, char **argv)
{
	enum {
		OPT_TABLE = 256,
		OPT_SELECT,
		OPT_BIN_DIR,
		OPT_DAEMONS_DIR,
		OPT_ROW,
		OPT_VERSION,
		OPT_HELP
	};
	static const struct option opts[] = {
	    {"table", required_argument, NULL, OPT_TABLE},
	    {"select", required_argument, NULL, OPT_SELECT},
	    {"bin-dir", required_argument, NULL, OPT_BIN_DIR},
	    {"daemons-dir", required_argument, NULL, OPT_DAEMONS_DIR},
	    {"row", required_argument, NULL, OPT_ROW},
	    {"version-json", required_argument, NULL, OPT_VERSION},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	const char *path = variants_plan_default_table(), *list = "", *row_name = NULL,
	           *version_text = NULL;
	char bin_dir[4096] = "";
	struct rows_places at = {.bin_dir = NULL, .daemons_dir = "scenarios/daemons"};
	int c;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case OPT_TABLE:
			path = optarg;
			break;
		case OPT_SELECT:
			list = optarg;
			break;
		case OPT_BIN_DIR:
			at.bin_dir = optarg;
			break;
		case OPT_DAEMONS_DIR:
			at.daemons_dir = optarg;
			break;
		case OPT_ROW:
			row_name = optarg;
			break;
		case OPT_VERSION:
			version_text = optarg;
			break;
		case OPT_HELP:
			rows_check_usage(stdout);
			return CLI_EXIT_OK;
		default:
			rows_check_usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	bool after_dashes = optind > 0 && strcmp(argv[optind - 1], "--") == 0;
	if ((optind < argc && (!after_dashes || row_name)) || !row_name != !version_text) {
		fprintf(stderr, "allocspike-run rows-check: %s\n",
		        !row_name != !version_text
		            ? "--row and --version-json go together"
		            : "resolver options come after '--', without --row");
		rows_check_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!at.bin_dir && !row_name) {
		if (!variant_command_bin_dir(bin_dir, sizeof(bin_dir))) {
			fprintf(stderr,
			        "allocspike-run rows-check: cannot find this program's folder; "
			        "give --bin-dir\n");
			return CLI_EXIT_FAILED;
		}
		at.bin_dir = bin_dir;
	}
	at.options = argv + optind;
	at.n_options = (size_t)(argc - optind);
	struct variants_table table;
	char err[8192];
	if (!variants_table_read(&table, path, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run rows-check: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	int status;
	if (row_name) {
		const struct variant_row *row = variants_table_find(&table, row_name);
		json_t *version = json_loads(version_text, JSON_DECODE_ANY, NULL);
		struct verdict v = {0};
		if (!row) {
			fprintf(stderr, "allocspike-run rows-check: --row: no variant '%s' in %s\n",
			        row_name, path);
			status = CLI_EXIT_USAGE;
		} else {
			judge_report(row, row_name, version, &v);
			if (v.failed)
				line_print(NULL, row_name, NULL, true, v.reason, v.message);
			status = v.failed ? CLI_EXIT_FAILED : CLI_EXIT_OK;
		}
		json_decref(version);
	} else {
		status = check_chosen(&table, list, &at);
	}
	variants_table_free(&table);
	return status;
}
