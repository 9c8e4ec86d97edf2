/* controller/scenario_options_hosts.c - spike.sh --hosts checked beside the other options: a run
 * whose rows are placed on their hosts' agents (docs/controller.md, "spike.sh --hosts"). The
 * hosts file names the rows, so --variants becomes its rows; what a placed run cannot do
 * (rows one after the other, the generator's clients) is refused here, before anything runs. */
#include "scenario_options_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosts_file.h"
#include "variants_plan.h"
#include "variants_table.h"

static bool given(const char *name)
{
	int i = option_index(name);
	return i >= 0 && option_states[i].set;
}

/* Whether every item of the comma-separated list a is in b. */
static bool all_in(const char *a, const char *b)
{
	for (const char *p = a; *p;) {
		size_t item = strcspn(p, ",");
		if (item && !hosts_rows_have(b, p, item))
			return false;
		p += item + (p[item] != '\0');
	}
	return true;
}

void scenario_options_check_hosts(void)
{
	int hosts_row = option_index("hosts");
	if (hosts_row < 0 || !option_states[hosts_row].used)
		return;
	const char *path = option_value("hosts");
	if (!path[0]) {
		if (given("token_file"))
			scenario_fail("--token-file goes with --hosts");
		return;
	}
	if (!option_value("token_file")[0])
		scenario_fail("--hosts needs --token-file F (the agents' bearer token)");
	/* --spike-rate auto and --repeat place the rows again for each pass: the agents must take
	 * more than one plan (allocspike-agent --plans) */
	if (strcmp(option_value("serial"), "1") == 0)
		scenario_fail("--serial and --hosts exclude each other: placed rows run at once");
	if (strcmp(option_value("clients"), "1") == 0)
		scenario_fail(
		    "--clients and --hosts exclude each other: the placed run's generator "
		    "sends the query file alone");
	struct variants_table table;
	struct hosts_file hosts;
	char err[4400];
	if (!variants_table_read(&table, variants_plan_default_table(), err, sizeof(err)))
		scenario_fail("--hosts: %s", err);
	bool read = hosts_file_read(&hosts, path, &table, HOSTS_FILE_AGENT_PORT, err, sizeof(err));
	variants_table_free(&table);
	if (!read)
		scenario_fail("--hosts: %s", err);
	/* the rows in the file's order; reachable until exit, as option values are */
	static char rows[4096];
	size_t len = 0;
	for (size_t i = 0; i < hosts.count && len < sizeof(rows); i++)
		len += (size_t)snprintf(rows + len, sizeof(rows) - len, "%s%s", i ? "," : "",
		                        hosts.entries[i].row);
	hosts_file_free(&hosts);
	if (len >= sizeof(rows))
		scenario_fail("--hosts: %s names more rows than a run takes", path);
	const char *variants = option_value("variants");
	if (given("variants") && !(all_in(variants, rows) && all_in(rows, variants)))
		scenario_fail(
		    "--variants %s disagrees with --hosts %s, whose rows are %s: the hosts "
		    "file names the rows (leave --variants out, or give the same rows)",
		    variants, path, rows);
	option_states[option_index("variants")].value = rows;
}
