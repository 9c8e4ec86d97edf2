/* tests/fuzz/fuzz_gate.c - libFuzzer target over check's --fail-if expressions (reports/gate.c,
 * docs/check.md): parsing, evaluation over a run's figures, the error messages.
 *
 * Input: the expression (up to the first NUL byte). It is evaluated against one fixed summary of
 * three variants (one lacking most figures, one with a name that needs escaping) with per-spike,
 * nested, null and true/false figures and figures of the whole run, and the same summary as the
 * baseline. An error message, the values read and the reasons must be text a terminal cannot act
 * on: no control character but its line breaks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char SUMMARY[] =
    "{\"variant_order\": [\"glibc\", \"jemalloc-decay1s\", \"odd\\u001b[2K\"],"
    " \"spike_count\": 3, \"interval_s\": 0.1,"
    " \"run\": {\"complete\": true, \"timeline_truncated\": false},"
    " \"validity\": {\"valid\": false, \"reason_count\": 2},"
    " \"harness\": {\"saturated_s\": 0},"
    " \"variants\": {"
    "  \"glibc\": {\"final_anon_kb\": 22528, \"peak_growth_mb_per_spike\": 1.5,"
    "   \"crash_count\": 0, \"mean_given_back_share\": null, \"kept\": true,"
    "   \"spike_traffic\": {\"answered_share\": 0.97, \"lat_p99_ms\": 60},"
    "   \"spikes\": [{\"spike\": 1, \"peak_anon_kb\": 30000, \"held_growth_kb\": 10},"
    "              {\"spike\": 3, \"peak_anon_kb\": 32768, \"held_growth_kb\": -5}]},"
    "  \"jemalloc-decay1s\": {\"final_anon_kb\": 10240, \"peak_growth_mb_per_spike\": 0,"
    "   \"crash_count\": 1, \"mean_given_back_share\": 1, \"kept\": false,"
    "   \"spike_traffic\": {\"answered_share\": 1, \"lat_p99_ms\": 1e-9},"
    "   \"spikes\": [{\"spike\": 1, \"peak_anon_kb\": 20000, \"held_growth_kb\": 0}]},"
    "  \"odd\\u001b[2K\": {\"note\": \"recorded nothing\"}}}";

static json_t *summary;
static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!summary) {
		json_error_t jerr;
		summary = json_loads(SUMMARY, 0, &jerr);
		sink = fopen("/dev/null", "w");
		if (!summary || !sink)
			abort();
	}
	/* A little past the length limit, so that both sides of it are reached. */
	if (size > GATE_MAX_EXPR_LEN + 64)
		size = GATE_MAX_EXPR_LEN + 64;
	char *expr = malloc(size + 1);
	if (!expr)
		abort();
	memcpy(expr, data, size);
	expr[size] = '\0';
	/* the summary is its own baseline: `baseline.` names are read too */
	const struct gate_options opt = {.baseline = summary, .allow_missing = size % 2};
	struct gate_outcome out;
	const char *texts[3] = {NULL, NULL, NULL};
	if (gate_eval(summary, expr, &opt, &out) == GATE_ERROR)
		texts[0] = out.err;
	texts[1] = out.values;
	texts[2] = out.why;
	for (size_t t = 0; t < 3; t++)
		for (const unsigned char *p = (const unsigned char *)texts[t]; p && *p; p++)
			if ((*p < 0x20 && *p != '\n') || *p == 0x7F)
				abort(); /* a raw control character would reach the terminal */
	if (texts[1])
		fputs(texts[1], sink);
	gate_outcome_free(&out);
	free(expr);
	return 0;
}
