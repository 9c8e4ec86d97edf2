/* agent/plan_request.c - a controller's plan parsed and checked (plan_request.h). */
#include "plan_request.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "root_hints.h"

/* The resolver's tuning options (docs/resolver.md). Left out on purpose: --listen, --root,
 * --root-hints, --upstream-port, --upstream-source (where the resolver serves and which hierarchy
 * it asks: the agent's host decides, on its command line), --control, --ready-file, --tls-cert,
 * --tls-key (files), --tls-listen, --version, --help. */
static const struct {
	const char *name;
	bool takes_value;
} plan_options[] = {
    {"--cache-size", true},          {"--max-ttl", true},
    {"--max-negative-ttl", true},    {"--max-inflight", true},
    {"--max-udp-size", true},        {"--allow", true},
    {"--memory-layout", true},       {"--overload-policy", true},
    {"--request-list", true},        {"--jostle-timeout-ms", true},
    {"--upstream-timeout-ms", true}, {"--upstream-timeout-min-ms", true},
    {"--trim-interval", true},       {"--tcp-idle-timeout", true},
    {"--tcp-max-connections", true}, {"--no-tcp", false},
};

const char *const plan_request_allowed_options =
    "--cache-size, --max-ttl, --max-negative-ttl, --max-inflight, --max-udp-size, --allow, "
    "--memory-layout, --overload-policy, --request-list, --jostle-timeout-ms, "
    "--upstream-timeout-ms, --upstream-timeout-min-ms, --trim-interval, --tcp-idle-timeout, "
    "--tcp-max-connections, --no-tcp";

/* The allow-list's entry for word ("--name" or "--name=value"), or -1. */
static int plan_option_find(const char *word)
{
	size_t len = strcspn(word, "=");
	for (size_t i = 0; i < sizeof(plan_options) / sizeof(plan_options[0]); i++)
		if (strlen(plan_options[i].name) == len &&
		    strncmp(plan_options[i].name, word, len) == 0)
			return (int)i;
	return -1;
}

bool plan_word_printable(const char *word)
{
	for (const unsigned char *p = (const unsigned char *)word; *p; p++)
		if (*p <= ' ' || *p >= 0x7f)
			return false;
	return *word != '\0';
}

/* Each word an allowed option, its value, or "--name=value"; nothing else. */
static bool plan_options_check(char *const *words, size_t n, char *err, size_t err_size)
{
	for (size_t i = 0; i < n; i++) {
		const char *w = words[i];
		int k = plan_word_printable(w) ? plan_option_find(w) : -1;
		if (k < 0 || strncmp(w, "--", 2) != 0) {
			snprintf(err, err_size,
			         "resolver option '%.80s' is not one a plan may set (allowed: %s)",
			         plan_word_printable(w) ? w : "(not visible ASCII)",
			         plan_request_allowed_options);
			return false;
		}
		bool inline_value = strchr(w, '=') != NULL;
		if (!plan_options[k].takes_value && inline_value) {
			snprintf(err, err_size, "resolver option %s takes no value",
			         plan_options[k].name);
			return false;
		}
		if (!plan_options[k].takes_value || inline_value)
			continue;
		if (i + 1 == n || !plan_word_printable(words[i + 1]) ||
		    strncmp(words[i + 1], "--", 2) == 0) {
			snprintf(err, err_size, "resolver option %s needs a value",
			         plan_options[k].name);
			return false;
		}
		i++; /* its value */
	}
	return true;
}

/* key's string into out, an identifier; false with the reason in err. */
static bool plan_identifier(json_t *root, const char *key, char *out, size_t size, char *err,
                            size_t err_size)
{
	const char *s = json_string_value(json_object_get(root, key));
	char why[160];
	if (!s) {
		snprintf(err, err_size, "\"%s\" is required, a string", key);
		return false;
	}
	if (!identifier_valid(s, why, sizeof(why))) {
		snprintf(err, err_size, "\"%s\": %s", key, why);
		return false;
	}
	snprintf(out, size, "%s", s);
	return true;
}

/* key's duration (a string such as "100ms", min to max seconds) into *out when it is there. */
static bool plan_duration(json_t *root, const char *key, double min, double max, double *out,
                          char *err, size_t err_size)
{
	json_t *value = json_object_get(root, key);
	char name[32];
	snprintf(name, sizeof(name), "\"%s\"", key);
	if (value && !json_is_string(value)) {
		snprintf(err, err_size, "%s: a duration such as \"100ms\"", name);
		return false;
	}
	return !value || cli_parse_duration(name, json_string_value(value), CLI_UNIT_REQUIRED, min,
	                                    max, out, err, err_size);
}

/* Whether key is one of the NULL-terminated keys. */
static bool plan_key_in(const char *key, const char *const *keys)
{
	for (; *keys; keys++)
		if (strcmp(key, *keys) == 0)
			return true;
	return false;
}

/* Every key of root one its kind has: a row plan's, or a shard plan's. */
static bool plan_keys_known(json_t *root, bool shard, char *err, size_t err_size)
{
	static const char *const row_keys[] = {
	    "kind",       "row", "run", "variant", "interval", "lease", "resolver_options",
	    "root_hints", NULL};
	static const char *const common_keys[] = {"kind", "run", "interval", "lease", NULL};
	const char *key;
	json_t *value;
	json_object_foreach(root, key, value)
	{
		if (shard ? plan_key_in(key, common_keys) || plan_key_in(key, shard_plan_keys)
		          : plan_key_in(key, row_keys))
			continue;
		snprintf(err, err_size, "unknown key \"%.64s\" (a %s plan has %s)", key,
		         shard ? "shard" : "row",
		         shard ? "kind, run, interval, lease, shard, schedule, queries, start_at, "
		                 "targets"
		               : "kind, row, run, variant, interval, lease, resolver_options, "
		                 "root_hints");
		return false;
	}
	return true;
}

static bool plan_fields(json_t *root, struct plan_request *plan, char *err, size_t err_size)
{
	json_t *kind = json_object_get(root, "kind");
	const char *kind_text = json_string_value(kind);
	if (kind &&
	    (!kind_text || (strcmp(kind_text, "row") != 0 && strcmp(kind_text, "shard") != 0))) {
		snprintf(err, err_size, "\"kind\": \"row\" (the default) or \"shard\"");
		return false;
	}
	plan->is_shard = kind_text && strcmp(kind_text, "shard") == 0;
	if (!plan_keys_known(root, plan->is_shard, err, err_size) ||
	    !plan_identifier(root, "run", plan->run, sizeof(plan->run), err, err_size))
		return false;
	if (plan->is_shard) { /* the generator's labels: the run's, the shard's own variant */
		snprintf(plan->variant, sizeof(plan->variant), "_loadgen");
		plan->interval_s = 0.1;
		return plan_duration(root, "interval", 0.01, 60, &plan->interval_s, err,
		                     err_size) &&
		       plan_duration(root, "lease", PLAN_LEASE_MIN_S, PLAN_LEASE_MAX_S,
		                     &plan->lease_s, err, err_size) &&
		       shard_plan_fields(root, &plan->shard, err, err_size);
	}
	if (!plan_identifier(root, "row", plan->row, sizeof(plan->row), err, err_size))
		return false;
	if (json_object_get(root, "variant") &&
	    !plan_identifier(root, "variant", plan->variant, sizeof(plan->variant), err, err_size))
		return false;
	if (!json_object_get(root, "variant"))
		snprintf(plan->variant, sizeof(plan->variant), "%s", plan->row);
	plan->interval_s = 0.1;
	if (!plan_duration(root, "interval", 0.01, 60, &plan->interval_s, err, err_size))
		return false;
	if (!plan_duration(root, "lease", PLAN_LEASE_MIN_S, PLAN_LEASE_MAX_S, &plan->lease_s, err,
	                   err_size))
		return false;
	json_t *hints = json_object_get(root, "root_hints");
	if (hints && (!json_is_string(hints) ||
	              !root_hints_text_valid(json_string_value(hints), err, err_size))) {
		if (!json_is_string(hints))
			snprintf(err, err_size, "\"root_hints\": a string, the run's root.hints");
		return false;
	}
	if (hints && !(plan->root_hints = strdup(json_string_value(hints)))) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	json_t *options = json_object_get(root, "resolver_options");
	size_t n = options ? json_array_size(options) : 0;
	if (options && !json_is_array(options)) {
		snprintf(err, err_size, "\"resolver_options\": an array of strings");
		return false;
	}
	plan->options = calloc(n + 1, sizeof(char *));
	if (!plan->options) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		const char *w = json_string_value(json_array_get(options, i));
		if (!w) {
			snprintf(err, err_size, "\"resolver_options\": an array of strings");
			return false;
		}
		if (!(plan->options[plan->n_options++] = strdup(w))) {
			snprintf(err, err_size, "out of memory");
			return false;
		}
	}
	return plan_options_check(plan->options, plan->n_options, err, err_size);
}

bool plan_request_parse(const char *body, size_t len, struct plan_request *plan, char *err,
                        size_t err_size)
{
	*plan = (struct plan_request){0};
	json_error_t jerr;
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root || !json_is_object(root)) {
		snprintf(err, err_size, "the plan is not a JSON object%s%s", root ? "" : ": ",
		         root ? "" : jerr.text);
		json_decref(root);
		return false;
	}
	bool ok = plan_fields(root, plan, err, err_size);
	/* the interval, lease and variant as read, so "0.1s" and "100ms", or a variant left out and
	 * one named as its row, are the same plan */
	json_object_set_new(root, "interval", json_real(plan->interval_s));
	if (!plan->is_shard)
		json_object_set_new(root, "variant", json_string(plan->variant));
	if (plan->lease_s > 0)
		json_object_set_new(root, "lease", json_real(plan->lease_s));
	if (ok && !(plan->canonical = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS))) {
		snprintf(err, err_size, "out of memory");
		ok = false;
	}
	json_decref(root);
	if (!ok)
		plan_request_free(plan);
	return ok;
}

void plan_request_free(struct plan_request *plan)
{
	for (size_t i = 0; i < plan->n_options; i++)
		free(plan->options[i]);
	free(plan->options);
	free(plan->root_hints);
	free(plan->canonical);
	shard_plan_free(&plan->shard);
	*plan = (struct plan_request){0};
}
