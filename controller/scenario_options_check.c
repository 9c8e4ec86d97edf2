/* controller/scenario_options_check.c - a scenario's option values checked by their kinds and
 * across options, with the messages the scenarios always gave (scenario_options_state.h). */
#include "scenario_options_state.h"

#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_parse.h"

static bool matches(const char *pattern, const char *text)
{
	regex_t re;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
		return false;
	bool ok = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

static bool is_count(const char *text, unsigned long long min, unsigned long long max,
                     unsigned long long *n)
{
	char err[256];
	return cli_parse_count("", text, min, max, n, err, sizeof(err));
}

static bool is_number(const char *text, double min, double max, double *x)
{
	char err[256];
	return cli_parse_number("", text, min, max, x, err, sizeof(err));
}

/* MEDIAN[,P99] in milliseconds (P99 alone: 10 x M, the flat world's delay M), as MEDIAN,P99. */
static void check_latency(int i, const char *flag, const char *val)
{
	const char *comma = strchr(val, ',');
	char median_text[64];
	snprintf(median_text, sizeof(median_text), "%.*s",
	         comma ? (int)(comma - val) : (int)strlen(val), val);
	long long med = 0, p99 = 0;
	bool ok = strlen(val) < sizeof(median_text) &&
	          option_duration_ms(median_text, 0.001, 0, &med) &&
	          option_duration_ms(comma ? comma + 1 : val, 0.001, 0, &p99) &&
	          !(comma && strchr(comma + 1, ','));
	if (!ok)
		scenario_fail("%s: '%s' is not MEDIAN or MEDIAN,P99 in milliseconds (e.g. 20,200)",
		              flag, val);
	if (!comma)
		p99 = med * (strcmp(option_value("world"), "flat") == 0 ? 1 : 10);
	if (p99 < med)
		scenario_fail("%s: the 99th percentile %lld is below the median %lld", flag, p99,
		              med);
	option_set_rewritten(i, "%lld,%lld", med, p99);
}

/* VAL, option i's value or an item of its list, is of the option's kind (docs/cli.md), else exit
 * 2; a millisecond duration is rewritten as whole milliseconds, the latency as MEDIAN,P99, a
 * number of 1 or more without leading zeros. */
static void check_kind(int i, const char *val)
{
	const char *flag = option_flag(i);
	unsigned long long n = 0;
	long long ms = 0;
	double x = 0;
	switch (scenario_option_table[i].kind) {
	case OPTION_COUNT:
		if (!is_count(val, 0, ~0ULL, &n))
			scenario_fail("%s: '%s' is not a whole number (e.g. 10)", flag, val);
		break;
	case OPTION_POSITIVE:
		if (!is_count(val, 1, ~0ULL, &n))
			scenario_fail("%s: '%s' is not a whole number of 1 or more (e.g. 10)", flag,
			              val);
		/* plain decimal digits: the shell's arithmetic reads 08 as octal */
		option_set_rewritten(i, "%llu", n);
		break;
	case OPTION_NUMBER:
		if (!is_number(val, 0, 1e300, &x))
			scenario_fail("%s: '%s' is not a number (e.g. 0.5, 20)", flag, val);
		break;
	case OPTION_MULTIPLE:
		if (!is_number(val, 0, 1e300, &x) || x <= 0)
			scenario_fail("%s: '%s' is not a number above 0 (e.g. 0.5, 2)", flag, val);
		break;
	case OPTION_DURATION:
		if (!option_duration_ms(val, CLI_UNIT_REQUIRED, 1, &ms))
			scenario_fail(
			    "%s: '%s' is not a duration (e.g. 20s, 1.5m, 500ms; a unit is "
			    "required)",
			    flag, val);
		break;
	case OPTION_MS:
		if (!option_duration_ms(val, 0.001, 1, &ms))
			scenario_fail(
			    "%s: '%s' is not a duration (e.g. 100, 250ms, 2s; a bare number "
			    "is milliseconds)",
			    flag, val);
		option_set_rewritten(i, "%lld", ms);
		break;
	case OPTION_SIZE: {
		char err[256];
		if (!cli_parse_size("", val, 0, ~0ULL, &n, err, sizeof(err)))
			scenario_fail("%s: '%s' is not a size (e.g. 4M, 512k, 1GiB)", flag, val);
		break;
	}
	case OPTION_LATENCY:
		check_latency(i, flag, val);
		break;
	case OPTION_RATE_OR_AUTO:
		if (strcmp(val, "auto") != 0 && !is_count(val, 0, ~0ULL, &n))
			scenario_fail("%s: '%s' is not a rate or 'auto'", flag, val);
		break;
	case OPTION_LAYOUT:
		if (!matches("^(heap|kresd)$", val))
			scenario_fail("%s: '%s' is not heap or kresd", flag, val);
		break;
	case OPTION_WORLD:
		if (!matches("^(lan|internet|hostile|flat)$", val))
			scenario_fail("%s: '%s' is not lan, internet, hostile or flat", flag, val);
		break;
	case OPTION_PLACEMENT:
		if (!matches("^(auto|none|[0-9,-]+/[0-9,-]+)$", val))
			scenario_fail(
			    "%s: '%s' is not auto, none or HARNESS_CPUS/RESOLVER_CPUS (e.g. "
			    "0/1-3)",
			    flag, val);
		break;
	case OPTION_BLOCK:
		if (!matches("^[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+/[0-9]+$", val))
			scenario_fail("%s: '%s' is not an IPv4 CIDR like 127.53.0.0/16", flag, val);
		break;
	case OPTION_TOOLS:
		if (!matches("^(callgrind|perf)(,(callgrind|perf))?$", val))
			scenario_fail("%s: '%s' is not callgrind, perf or both", flag, val);
		break;
	case OPTION_FLAG:
	case OPTION_TEXT:
	case OPTION_OUTDIR: /* the scenario's files_outdir_problem: it knows the run folders */
		break;
	}
}

/* A list option's value: every comma-separated item of the option's kind; an empty item (or an
 * empty list given) is refused as its kind refuses "". Lists are of kinds not rewritten. */
static void check_list(int i)
{
	char *copy = strdup(option_states[i].value), *rest = copy, *item;
	while (rest && (item = strsep(&rest, ",")))
		check_kind(i, item);
	free(copy);
}

static bool uses(const char *name)
{
	int i = option_index(name);
	return i >= 0 && option_states[i].used;
}

static bool given(const char *name)
{
	int i = option_index(name);
	return i >= 0 && option_states[i].set;
}

static unsigned long long count_or_zero(const char *name)
{
	unsigned long long n = 0;
	return is_count(option_value(name), 0, ~0ULL, &n) ? n : 0;
}

/* spike.sh --clients: its options go with --clients only; shares from 0 to 1, at most 1 together.
 */
static void check_clients(void)
{
	static const char *const with_clients[] = {"tcp_share", "dot_share", "client_count",
	                                           "spike_clients", "tcp_idle"};
	if (strcmp(option_value("clients"), "1") != 0) {
		for (size_t k = 0; k < sizeof(with_clients) / sizeof(with_clients[0]); k++)
			if (given(with_clients[k]))
				scenario_fail("%s goes with --clients",
				              option_flag(option_index(with_clients[k])));
		return;
	}
	double tcp = -1, dot = -1;
	if (!is_number(option_value("tcp_share"), 0, 1, &tcp) ||
	    !is_number(option_value("dot_share"), 0, 1, &dot) || tcp + dot > 1)
		scenario_fail(
		    "--tcp-share and --dot-share: each from 0 to 1, at most 1 together (got "
		    "%s and %s)",
		    option_value("tcp_share"), option_value("dot_share"));
	unsigned long long n = 0;
	if (!is_count(option_value("client_count"), 1, 1000000, &n))
		scenario_fail("--client-count: from 1 to 1000000");
	if (!is_count(option_value("spike_clients"), 1, 1000000, &n))
		scenario_fail("--spike-clients: from 1 to 1000000");
}

/* --one-of: exactly one of options a and b has a value (tune.sh: --allocator or --variants). */
static void check_one_of(int a, int b)
{
	bool has_a = option_states[a].value[0], has_b = option_states[b].value[0];
	if (has_a != has_b)
		return;
	char flag_a[64];
	snprintf(flag_a, sizeof(flag_a), "%s", option_flag(a));
	scenario_fail(has_a ? "%s and %s exclude each other" : "%s or %s is needed", flag_a,
	              option_flag(b));
}

/* Every value this scenario takes checked by its kind, then the checks across options. */
void scenario_options_validate(void)
{
	unsigned long long n = 0;
	double x = 0;
	if (strcmp(option_value("world"), "flat") == 0) {
		/* the flat world's own fixed delay and loss, allocspike-upstream's
		 * (tests/upstream/defaults.sh), where not given */
		option_default_unset("latency_ms", "20,20");
		option_default_unset("loss", "0");
	}
	for (size_t i = 0; i < scenario_option_count; i++) {
		const struct option_state *o = &option_states[i];
		if (o->used && o->list && (o->value[0] || o->set))
			check_list((int)i);
		else if (o->used && o->value[0])
			check_kind((int)i, o->value);
	}
	if (!is_count(option_value("port"), 0, 65535, &n))
		scenario_fail("--port: '%s' is out of range (0 to 65535)", option_value("port"));
	if (!is_count(option_value("repeat"), 1, ~0ULL, &n))
		scenario_fail("--repeat wants 1 or more");
	if (!is_count(option_value("interval_ms"), 10, ~0ULL, &n))
		scenario_fail("--interval-ms wants 10 ms or more");
	if (uses("flat_tlds")) {
		if (!is_count(option_value("flat_tlds"), 1, 100000, &n))
			scenario_fail("--flat-tlds: '%s' is out of range (1 to 100000)",
			              option_value("flat_tlds"));
		if (given("flat_tlds") && strcmp(option_value("world"), "flat") != 0)
			scenario_fail("--flat-tlds: only for --world flat (this run's world is %s)",
			              option_value("world"));
	}
	if (!is_number(option_value("loss"), 0, 1, &x))
		scenario_fail("--loss: '%s' is out of range (0 to 1)", option_value("loss"));
	if (!matches("^[A-Za-z0-9_.,-]*$", option_value("variants")))
		scenario_fail("--variants wants names separated by commas, got '%s'",
		              option_value("variants"));
	const char *queries = option_value("queries");
	if (queries[0] && access(queries, R_OK) != 0)
		scenario_fail("--queries: cannot read '%s'", queries);
	int warmup = option_index("warmup_rate");
	if (!option_states[warmup].value[0])
		option_set_rewritten(warmup, "%llu", count_or_zero("baseline_rate") * 2);
	if (uses("clients"))
		check_clients();
	/* this host's own addresses serve rows on other hosts; a local run stays on loopback */
	const char *block = option_value("hierarchy_block");
	if (block[0] && strncmp(block, "127.", 4) != 0 && !option_value("hosts")[0])
		scenario_fail("--hierarchy-block: '%s' is outside 127.0.0.0/8, which only a run "
		              "across hosts (--hosts) takes",
		              block);
	scenario_options_check_hosts();
	if (one_of_rows[0] >= 0)
		check_one_of(one_of_rows[0], one_of_rows[1]);
}
