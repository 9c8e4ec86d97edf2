/* controller/run_context.c - allocspike-run machine and programs (run_context.h). */
#include "run_context.h"

#include <jansson.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli_parse.h"
#include "json_file.h"
#include "program_json.h"
#include "variant_command.h"

/* How long a harness program has to print its --version --json. */
#define PROGRAMS_VERSION_TIMEOUT_MS 5000

/* The programs whose paths and reports a run records (the resolvers are its rows'). */
static const char *const harness_programs[] = {"allocspike-upstream", "allocspike-loadgen",
                                               "allocspike-querydata", "allocspike-report"};

void run_context_usage(FILE *out)
{
	fprintf(out,
	        "allocspike-run machine --open-files N\n"
	        "  run.json's machine: cores, memory, kernel, transparent huge pages, the\n"
	        "  open-files limit N in force, CPU model, host name, libc, overcommit\n"
	        "allocspike-run programs [--bin-dir DIR]\n"
	        "  run.json's programs: each harness program's path in DIR (default this\n"
	        "  program's folder; \"\" when not built) and its --version --json (or null)\n");
}

/* The first line of path without its newline, in out ("" when unreadable). */
static void read_first_line(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	out[0] = '\0';
	if (f && fgets(out, (int)size, f))
		out[strcspn(out, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* The value after "key:" on the first line of path starting with key (trimmed), or "". */
static void read_keyed(const char *path, const char *key, char *out, size_t size)
{
	char line[512];
	FILE *f = fopen(path, "r");
	out[0] = '\0';
	size_t n = strlen(key);
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, n) != 0 || !strchr(line + n, ':'))
			continue;
		const char *v = strchr(line + n, ':') + 1;
		v += strspn(v, " \t");
		snprintf(out, size, "%s", v);
		out[strcspn(out, "\n")] = '\0';
		break;
	}
	if (f)
		fclose(f);
}

/* A transparent huge page setting: the word in brackets ("always [madvise] never"), "unknown"
 * when the file cannot be read, "" when it names none. */
static void read_thp(const char *path, char *out, size_t size)
{
	char line[256];
	read_first_line(path, line, sizeof(line));
	char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
	if (access(path, R_OK) != 0)
		snprintf(out, size, "unknown");
	else if (open && close)
		snprintf(out, size, "%.*s", (int)(close - open - 1), open + 1);
	else
		out[0] = '\0';
}

long run_context_cores(void)
{
	cpu_set_t set;
	return sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
	                                                    : sysconf(_SC_NPROCESSORS_ONLN);
}

json_t *run_context_machine(unsigned long long open_files)
{
	long cores = run_context_cores();
	char mem[64], cpu[256], thp[64], defrag[64], overcommit[32], libc[64] = "";
	read_keyed("/proc/meminfo", "MemTotal", mem, sizeof(mem));
	read_keyed("/proc/cpuinfo", "model name", cpu, sizeof(cpu));
	read_thp("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp));
	read_thp("/sys/kernel/mm/transparent_hugepage/defrag", defrag, sizeof(defrag));
	read_first_line("/proc/sys/vm/overcommit_memory", overcommit, sizeof(overcommit));
#ifdef _CS_GNU_LIBC_VERSION
	confstr(_CS_GNU_LIBC_VERSION, libc, sizeof(libc));
#endif
	struct utsname uts;
	bool named = uname(&uts) == 0;
	return json_pack("{s:I, s:I, s:s, s:s, s:s, s:I, s:s, s:s, s:s, s:s}", "cores",
	                 (json_int_t)cores, "memory_kb", (json_int_t)strtoll(mem, NULL, 10),
	                 "kernel", named ? uts.release : "", "thp", thp, "thp_defrag", defrag,
	                 "open_files_limit", (json_int_t)open_files, "cpu_model", cpu, "hostname",
	                 named ? uts.nodename : "", "libc", libc, "overcommit_memory", overcommit);
}

int machine_main(int argc, char **argv)
{
	unsigned long long nofile = 0;
	char err[256];
	if (argc != 3 || strcmp(argv[1], "--open-files") != 0 ||
	    !cli_parse_count("--open-files", argv[2], 0, ~0ULL, &nofile, err, sizeof(err))) {
		if (argc == 3 && strcmp(argv[1], "--open-files") == 0)
			fprintf(stderr, "allocspike-run machine: %s\n", err);
		run_context_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	json_t *m = run_context_machine(nofile);
	bool ok = json_print_line(stdout, "", m);
	json_decref(m);
	return ok ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}

json_t *run_context_programs(const char *dir)
{
	json_t *all = json_object();
	for (size_t i = 0; all && i < sizeof(harness_programs) / sizeof(*harness_programs); i++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s", dir, harness_programs[i]);
		bool built = access(path, X_OK) == 0;
		char *words[] = {path, "--version", "--json", NULL};
		json_t *version =
		    built ? program_json(NULL, 0, words, PROGRAMS_VERSION_TIMEOUT_MS) : NULL;
		json_object_set_new(all, harness_programs[i],
		                    json_pack("{s:s, s:o}", "path", built ? path : "", "version",
		                              version ? version : json_null()));
	}
	return all;
}

int programs_main(int argc, char **argv)
{
	char dir[4096];
	if (argc == 3 && strcmp(argv[1], "--bin-dir") == 0) {
		snprintf(dir, sizeof(dir), "%s", argv[2]);
	} else if (argc != 1 || !variant_command_bin_dir(dir, sizeof(dir))) {
		run_context_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	json_t *all = run_context_programs(dir);
	bool ok = json_print_line(stdout, "", all);
	json_decref(all);
	return ok ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}
