/* controller/loadgen_command.c - the generator's command from a run's options
 * (loadgen_command.h). */
#include "loadgen_command.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "run_json.h"
#include "variant_command.h"

bool loadgen_options_read(struct loadgen_options *o, const json_t *options, char *err,
                          size_t err_size)
{
	*o = (struct loadgen_options){0};
	const char *clients;
	if (!(o->interval_ms = run_json_option_text(options, "interval_ms", err, err_size)) ||
	    !(o->timeout_ms = run_json_option_text(options, "timeout_ms", err, err_size)) ||
	    !(clients = run_json_option_text(options, "clients", err, err_size)) ||
	    !(o->client_count = run_json_option_text(options, "client_count", err, err_size)) ||
	    !(o->tcp_share = run_json_option_text(options, "tcp_share", err, err_size)) ||
	    !(o->dot_share = run_json_option_text(options, "dot_share", err, err_size)) ||
	    !(o->tcp_idle = run_json_option_text(options, "tcp_idle", err, err_size)))
		return false;
	o->clients = strcmp(clients, "1") == 0;
	if (!o->clients && strcmp(clients, "0") != 0) {
		snprintf(err, err_size, "--clients: '%.64s' is not 0 or 1", clients);
		return false;
	}
	return true;
}

char **loadgen_command_make(const struct loadgen_options *o, const struct loadgen_run *run)
{
	char **argv = NULL;
	size_t n = 0;
	bool ok = variant_words_add_list(&argv, &n, run->program, "--queries", run->queries,
	                                 "--schedule", run->schedule, "--out", run->dir,
	                                 "--interval-ms", o->interval_ms);
	if (ok && o->timeout_ms[0])
		ok = variant_words_add_list(&argv, &n, "--timeout-ms", o->timeout_ms);
	if (ok && o->clients) /* a connection spike's clients (scenarios/lib/clients.sh) */
		ok = variant_words_add_list(&argv, &n, "--clients", o->client_count, "--tcp-share",
		                            o->tcp_share, "--dot-share", o->dot_share, "--tcp-idle",
		                            o->tcp_idle);
	for (size_t i = 0; ok && i < run->target_count; i++)
		ok = variant_words_add_list(&argv, &n, "--target", run->targets[i]);
	if (ok && run->upstream_pid) { /* the hierarchy's CPU on the same timeline */
		char watch[96];
		snprintf(watch, sizeof(watch), "name=_upstream,pid=%.40s", run->upstream_pid);
		ok = variant_words_add_list(&argv, &n, "--watch", watch);
	}
	if (!ok) {
		variant_words_free(argv);
		return NULL;
	}
	return argv;
}

bool loadgen_target_word(char *out, size_t size, const char *name, const char *addr,
                         const char *pid, const char *control, const char *dot)
{
	int len = snprintf(out, size, "name=%s,addr=%s,pid=%s,control=%s%s%s", name, addr, pid,
	                   control, dot ? ",dot=" : "", dot ? dot : "");
	return len >= 0 && (size_t)len < size;
}

/* --- allocspike-run loadgen-argv --- */

void loadgen_argv_usage(FILE *out)
{
	fprintf(out, "allocspike-run loadgen-argv --options JSON --loadgen PROGRAM --queries FILE\n"
	             "                            --schedule S --dir DIR [--target WORD]... "
	             "[--upstream-pid PID]\n"
	             "  the generator's command for a run's options, one word a line (--dry-run's "
	             "plan)\n");
}

int loadgen_argv_main(int argc, char **argv)
{
	static const struct option longs[] = {{"options", required_argument, NULL, 'o'},
	                                      {"loadgen", required_argument, NULL, 'l'},
	                                      {"queries", required_argument, NULL, 'q'},
	                                      {"schedule", required_argument, NULL, 's'},
	                                      {"dir", required_argument, NULL, 'd'},
	                                      {"target", required_argument, NULL, 't'},
	                                      {"upstream-pid", required_argument, NULL, 'u'},
	                                      {NULL, 0, NULL, 0}};
	const char *options = NULL;
	struct loadgen_run run = {0};
	const char **targets = calloc((size_t)argc, sizeof(*targets)); /* at most one per word */
	int c;
	optind = 1;
	while (targets && (c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'o':
			options = optarg;
			break;
		case 'l':
			run.program = optarg;
			break;
		case 'q':
			run.queries = optarg;
			break;
		case 's':
			run.schedule = optarg;
			break;
		case 'd':
			run.dir = optarg;
			break;
		case 't':
			targets[run.target_count++] = optarg;
			break;
		case 'u':
			run.upstream_pid = optarg;
			break;
		default:
			loadgen_argv_usage(stderr);
			free(targets);
			return CLI_EXIT_USAGE;
		}
	}
	if (!targets || optind != argc || !options || !run.program || !run.queries ||
	    !run.schedule || !run.dir) {
		fprintf(stderr, "allocspike-run loadgen-argv: --options, --loadgen, --queries, "
		                "--schedule and --dir are required\n");
		loadgen_argv_usage(stderr);
		free(targets);
		return CLI_EXIT_USAGE;
	}
	run.targets = targets;
	char err[512];
	json_error_t jerr;
	json_t *doc = json_loads(options, 0, &jerr);
	struct loadgen_options o;
	int rc = CLI_EXIT_OK;
	if (!doc || !loadgen_options_read(&o, doc, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run loadgen-argv: %s\n", doc ? err : jerr.text);
		rc = CLI_EXIT_USAGE;
	} else {
		char **cmd = loadgen_command_make(&o, &run);
		for (size_t i = 0; cmd && cmd[i]; i++)
			printf("%s\n", cmd[i]);
		rc = cmd ? CLI_EXIT_OK : CLI_EXIT_FAILED;
		variant_words_free(cmd);
	}
	json_decref(doc);
	free(targets);
	return rc;
}
