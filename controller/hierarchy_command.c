/* controller/hierarchy_command.c - the simulated hierarchy's command from a run's options
 * (hierarchy_command.h). */
#include "hierarchy_command.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "event_line.h"
#include "json_file.h"
#include "run_json.h"

/* Whether name is one of the comma-separated names in list. */
static bool hc_listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *at = list; (at = strstr(at, name)) != NULL; at += len)
		if ((at == list || at[-1] == ',') && (at[len] == ',' || at[len] == '\0'))
			return true;
	return false;
}

bool hierarchy_options_read(struct hierarchy_options *o, const json_t *options, const char *given,
                            char *err, size_t err_size)
{
	*o = (struct hierarchy_options){0};
	const char *applied;
	if (!(o->world = run_json_option_text(options, "world", err, err_size)) ||
	    !(o->flat_tlds = run_json_option_text(options, "flat_tlds", err, err_size)) ||
	    !(o->latency_ms = run_json_option_text(options, "latency_ms", err, err_size)) ||
	    !(o->loss = run_json_option_text(options, "loss", err, err_size)) ||
	    !(o->seed = run_json_option_text(options, "seed", err, err_size)) ||
	    !(o->block = run_json_option_text(options, "hierarchy_block", err, err_size)) ||
	    !(applied = run_json_option_text(options, "applied_log", err, err_size)))
		return false;
	static const char *const worlds[] = {"lan", "internet", "hostile", "flat"};
	bool known = false;
	for (size_t i = 0; i < sizeof(worlds) / sizeof(*worlds); i++)
		known |= strcmp(o->world, worlds[i]) == 0;
	if (!known) {
		snprintf(err, err_size, "--world: '%.64s' is not lan, internet, hostile or flat",
		         o->world);
		return false;
	}
	/* MEDIAN,P99 as the option parser rewrote it */
	char median[64];
	const char *comma = strchr(o->latency_ms, ',');
	size_t mlen = comma ? (size_t)(comma - o->latency_ms) : 0;
	double p99;
	unsigned long long count;
	if (!comma || mlen >= sizeof(median)) {
		snprintf(err, err_size, "--latency-ms: '%.64s' is not MEDIAN,P99", o->latency_ms);
		return false;
	}
	memcpy(median, o->latency_ms, mlen);
	median[mlen] = '\0';
	o->sets_latency = strcmp(o->world, "lan") == 0 || strcmp(o->world, "flat") == 0;
	o->sets_loss = o->sets_latency || hc_listed(given, "loss");
	o->sets_latency = o->sets_latency || hc_listed(given, "latency_ms");
	o->applied_log = strcmp(applied, "1") == 0;
	const char *hosts = json_string_value(json_object_get(options, "hosts")); /* spike.sh's */
	o->across_hosts = hosts && hosts[0];
	if (!o->applied_log && strcmp(applied, "0") != 0) {
		snprintf(err, err_size, "--applied-log: '%.64s' is not 0 or 1", applied);
		return false;
	}
	return cli_parse_number("--latency-ms", median, 0, 1e9, &o->latency_median, err,
	                        err_size) &&
	       cli_parse_number("--latency-ms", comma + 1, 0, 1e9, &p99, err, err_size) &&
	       cli_parse_number("--loss", o->loss, 0, 1, &o->loss_value, err, err_size) &&
	       cli_parse_count("--seed", o->seed, 0, ~0ULL, &count, err, err_size) &&
	       cli_parse_count("--flat-tlds", o->flat_tlds, 1, 100000, &count, err, err_size);
}

/* Appends a word (a copy) to c; false when it is full or out of memory. */
static bool hc_add(struct hierarchy_command *c, const char *word)
{
	if (c->argc >= HIERARCHY_MAX_ARGS || !(c->argv[c->argc] = strdup(word)))
		return false;
	c->argc++;
	return true;
}

/* Appends dir/name. */
static bool hc_add_path(struct hierarchy_command *c, const char *dir, const char *name)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return hc_add(c, path);
}

bool hierarchy_command_make(struct hierarchy_command *c, const struct hierarchy_options *o,
                            const char *program, const char *dir, const char *ctl_dir,
                            const char *port)
{
	*c = (struct hierarchy_command){0};
	if (o->across_hosts)
		port = "53";
	bool ok = hc_add(c, program) && hc_add(c, "--hierarchy-block") && hc_add(c, o->block) &&
	          hc_add(c, "--port") && hc_add(c, port) && hc_add(c, "--seed") &&
	          hc_add(c, o->seed) && hc_add(c, "--root-hints") &&
	          hc_add_path(c, dir, "root.hints") && hc_add(c, "--control") &&
	          hc_add_path(c, ctl_dir, "upstream.sock") && hc_add(c, "--applied-summary") &&
	          hc_add_path(c, dir, "upstream-applied-summary.tsv") &&
	          hc_add(c, "--stats-file") && hc_add_path(c, dir, "upstream-stats.json") &&
	          hc_add(c, "--ready-file") && hc_add_path(c, ctl_dir, "upstream.ready");
	/* the per-query log is ~20 MB gzipped for a quick run: only on request */
	if (ok && o->applied_log)
		ok = hc_add(c, "--applied-log") && hc_add_path(c, dir, "upstream-applied.log");
	if (ok && o->across_hosts)
		ok = hc_add(c, "--udp-sockets") && hc_add(c, "per-address");
	ok = ok && hc_add(c, "--world") && hc_add(c, o->world);
	if (ok && strcmp(o->world, "flat") == 0)
		ok = hc_add(c, "--flat-tlds") && hc_add(c, o->flat_tlds);
	if (ok && o->sets_latency)
		ok = o->latency_median == 0 ? hc_add(c, "--no-latency")
		                            : hc_add(c, "--latency-ms") && hc_add(c, o->latency_ms);
	if (ok && o->sets_loss)
		ok = o->loss_value == 0 ? hc_add(c, "--no-loss")
		                        : hc_add(c, "--loss") && hc_add(c, o->loss);
	if (!ok)
		hierarchy_command_free(c);
	return ok;
}

void hierarchy_command_free(struct hierarchy_command *c)
{
	for (int i = 0; i < c->argc; i++)
		free(c->argv[i]);
	*c = (struct hierarchy_command){0};
}

void hierarchy_parameter_fields(const struct hierarchy_options *o, struct hierarchy_fields *f)
{
	const char *comma = strchr(o->latency_ms, ',');
	int mlen = (int)(comma - o->latency_ms);
	for (int i = 0; i < HIERARCHY_FIELDS; i++)
		f->words[i] = f->text[i];
	/* the option parser's texts, numbers as written (as the scenarios' jq wrote them) */
	snprintf(f->text[0], sizeof(f->text[0]), "seed:=%s", o->seed);
	snprintf(f->text[1], sizeof(f->text[1]), "latency_ms_median:=%.*s",
	         o->sets_latency ? mlen : 4, o->sets_latency ? o->latency_ms : "null");
	snprintf(f->text[2], sizeof(f->text[2]), "latency_ms_p99:=%s",
	         o->sets_latency ? comma + 1 : "null");
	snprintf(f->text[3], sizeof(f->text[3]), "loss:=%s", o->sets_loss ? o->loss : "null");
	snprintf(f->text[4], sizeof(f->text[4]), "block=%s", o->block);
	snprintf(f->text[5], sizeof(f->text[5]), "world=%s", o->world);
}

/* --- allocspike-run hierarchy-argv --- */

void hierarchy_argv_usage(FILE *out)
{
	fprintf(
	    out,
	    "allocspike-run hierarchy-argv --options JSON [--given NAME,...] --upstream PROGRAM\n"
	    "                              --dir DIR --ctl DIR [--port N] [--parameters]\n"
	    "  the hierarchy's command for a run's options, one word a line (--dry-run's plan);\n"
	    "  --parameters: run.json's parameters.hierarchy fields it records instead\n");
}

int hierarchy_argv_main(int argc, char **argv)
{
	static const struct option longs[] = {
	    {"options", required_argument, NULL, 'o'},  {"given", required_argument, NULL, 'g'},
	    {"upstream", required_argument, NULL, 'u'}, {"dir", required_argument, NULL, 'd'},
	    {"ctl", required_argument, NULL, 'c'},      {"port", required_argument, NULL, 'p'},
	    {"parameters", no_argument, NULL, 'P'},     {NULL, 0, NULL, 0}};
	const char *options = NULL, *given = "", *upstream = NULL, *dir = NULL, *ctl = NULL,
	           *port = "0";
	bool parameters = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'o':
			options = optarg;
			break;
		case 'g':
			given = optarg;
			break;
		case 'u':
			upstream = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'c':
			ctl = optarg;
			break;
		case 'p':
			port = optarg;
			break;
		case 'P':
			parameters = true;
			break;
		default:
			hierarchy_argv_usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind != argc || !options || (!parameters && (!upstream || !dir || !ctl))) {
		fprintf(stderr, "allocspike-run hierarchy-argv: --options%s are required\n",
		        parameters ? "" : ", --upstream, --dir and --ctl");
		hierarchy_argv_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	char err[512];
	json_error_t jerr;
	json_t *doc = json_loads(options, 0, &jerr);
	struct hierarchy_options o;
	if (!doc || !hierarchy_options_read(&o, doc, given, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run hierarchy-argv: %s\n", doc ? err : jerr.text);
		json_decref(doc);
		return CLI_EXIT_USAGE;
	}
	int rc = CLI_EXIT_OK;
	if (parameters) {
		struct hierarchy_fields fields;
		const char *why, *bad;
		hierarchy_parameter_fields(&o, &fields);
		json_t *object = event_line_fields(fields.words, HIERARCHY_FIELDS, &why, &bad);
		if (!object || !json_print_line(stdout, "", object))
			rc = CLI_EXIT_FAILED;
		json_decref(object);
	} else {
		struct hierarchy_command cmd;
		if (hierarchy_command_make(&cmd, &o, upstream, dir, ctl, port)) {
			for (int i = 0; i < cmd.argc; i++)
				printf("%s\n", cmd.argv[i]);
			hierarchy_command_free(&cmd);
		} else {
			rc = CLI_EXIT_FAILED;
		}
	}
	json_decref(doc);
	return rc;
}
