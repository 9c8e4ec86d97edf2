/* controller/main.c - allocspike-run, the run controller: its subcommands (docs/controller.md). */
#include <stdio.h>
#include <string.h>

#include "cli_parse.h"
#include "ask.h"
#include "close_stdout.h"
#include "collect.h"
#include "cpu_placement.h"
#include "daemon_stats.h"
#include "dry_run.h"
#include "hierarchy_command.h"
#include "launch.h"
#include "loadgen_command.h"
#include "place.h"
#include "poll_sizes.h"
#include "repeat_runs.h"
#include "row_launch.h"
#include "rows_check.h"
#include "run_context.h"
#include "run_outdir.h"
#include "scenario_options.h"
#include "scenario_schedule.h"
#include "seconds_text.h"
#include "settings_check.h"
#include "shards.h"
#include "stop.h"
#include "conduct.h"
#include "supervise.h"
#include "unix_ask.h"
#include "variants_plan.h"

static void run_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: allocspike-run SUBCOMMAND [options]\n"
	    "  collect     the agents' reads into a run folder on this host's clock\n"
	    "  place       rows started on remote agents by a hosts file, one start time\n"
	    "  shards      the generator as shards on a hosts file's generator hosts, merged\n"
	    "  conduct     a scenario's run: begun, its steps run and answered, finished, "
	    "reported\n"
	    "  supervise   a plan's processes started, watched and stopped\n"
	    "  ask         a request to a served run (supervise --serve)\n"
	    "  state-dir   the folder where runs in progress register\n"
	    "  register    a scenario's run: processes.tsv made, the run registered\n"
	    "  unregister  a scenario's run ended\n"
	    "  clean-stale stop what killed runs left\n"
	    "  launch      a scenario's process: own group, dies with its parent\n"
	    "  stop        a scenario's processes stopped on the one stop path\n"
	    "  leftovers   which of a scenario's processes are still there\n"
	    "  outdir      a run's folder made, new or an empty one of yours\n"
	    "  variants    the rows of variants.tsv a run chooses, checked\n"
	    "  rows-check  which chosen rows can run (program, allocator, settings)\n"
	    "  row-command the command a served run starts for a row (a dry run's plan)\n"
	    "  machine     run.json's machine: what on this host can change a curve\n"
	    "  programs    run.json's programs: the harness programs and their reports\n"
	    "  placement   --cpu-placement decided: the harness's and the resolvers' CPUs\n"
	    "  options     a scenario's options parsed and checked, or its --help\n"
	    "  schedule    the schedules a scenario runs, made from its options, and their cost\n"
	    "  settings    whether a row's allocator settings took\n"
	    "  hierarchy-argv the simulated hierarchy's command for a run's options\n"
	    "  loadgen-argv the generator's command for a run's options and targets\n"
	    "  repeat      a scenario's --repeat N: N runs, then their comparison\n"
	    "  dry-run     a scenario's --dry-run: the run's plan printed, nothing started\n"
	    "  seconds-text whole seconds as a person reads them\n"
	    "  poll-sizes  footprint.sh's poller: the live samplers' stats, a line per row\n"
	    "  daemon-stats a daemon definition's stats line from the daemon's counters\n"
	    "  unix-ask    one line to a daemon's control socket, its answer printed\n"
	    "  --version   print the version and exit\n");
	collect_usage(out);
	place_usage(out);
	shards_usage(out);
	conduct_usage(out);
	supervise_usage(out);
	ask_usage(out);
	launch_usage(out);
	run_outdir_usage(out);
	stop_usage(out);
	variants_usage(out);
	rows_check_usage(out);
	row_command_usage(out);
	run_context_usage(out);
	cpu_placement_usage(out);
	settings_usage(out);
	hierarchy_argv_usage(out);
	loadgen_argv_usage(out);
	repeat_runs_usage(out);
	dry_run_usage(out);
	seconds_text_usage(out);
	poll_sizes_usage(out);
	daemon_stats_usage(out);
	unix_ask_usage(out);
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-run");
	if (argc > 1 && strcmp(argv[1], "collect") == 0)
		return collect_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "place") == 0)
		return place_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "shards") == 0)
		return shards_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "conduct") == 0)
		return conduct_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "supervise") == 0)
		return supervise_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "ask") == 0)
		return ask_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "state-dir") == 0)
		return state_dir_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "clean-stale") == 0)
		return clean_stale_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "register") == 0)
		return register_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "unregister") == 0)
		return unregister_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "launch") == 0)
		return launch_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "stop") == 0)
		return stop_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "variants") == 0)
		return variants_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "machine") == 0)
		return machine_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "programs") == 0)
		return programs_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "placement") == 0)
		return placement_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "row-command") == 0)
		return row_command_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "rows-check") == 0)
		return rows_check_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "schedule") == 0)
		return scenario_schedule_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "options") == 0)
		return scenario_options_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "settings") == 0)
		return settings_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "outdir") == 0)
		return run_outdir_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "leftovers") == 0)
		return leftovers_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "hierarchy-argv") == 0)
		return hierarchy_argv_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "loadgen-argv") == 0)
		return loadgen_argv_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "repeat") == 0)
		return repeat_runs_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "dry-run") == 0)
		return dry_run_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "seconds-text") == 0)
		return seconds_text_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "poll-sizes") == 0)
		return poll_sizes_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "daemon-stats") == 0)
		return daemon_stats_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "unix-ask") == 0)
		return unix_ask_main(argc - 1, argv + 1);
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("allocspike-run %s\n", ALLOCSPIKE_VERSION);
		return CLI_EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		run_usage(stdout);
		return CLI_EXIT_OK;
	}
	fprintf(stderr, "allocspike-run: %s\n",
	        argc > 1 ? "unknown subcommand" : "a subcommand is required");
	run_usage(stderr);
	return CLI_EXIT_USAGE;
}
