/* reports/agent_reads.c - what the agents' reads covered, per variant (agent_reads.h). */
#include "agent_reads.h"

#include <math.h>
#include <string.h>

#include "hosts.h"
#include "strbuf.h"
#include "summary_json.h"
#include "terminal_text.h"

/* The controller's clock measurements of the agent NAME (events.jsonl "clock"): their count and
 * range, and the address it reached the agent at (its host). NULL clock when none. */
static json_t *clock_range(const struct runfolder *rf, const char *name, const char **host)
{
	double off_lo = INFINITY, off_hi = -INFINITY, rtt_lo = INFINITY, rtt_hi = -INFINITY;
	size_t n = 0;
	*host = NULL;
	for (size_t i = 0; i < rf->n_events; i++) {
		const struct runfolder_event *e = &rf->events[i];
		if (strcmp(e->event, "clock") != 0 || strcmp(e->variant, name) != 0)
			continue;
		const char *agent = json_string_value(json_object_get(e->obj, "agent"));
		if (agent && !*host)
			*host = agent;
		double off = json_number_value(json_object_get(e->obj, "offset_ms"));
		double rtt = json_number_value(json_object_get(e->obj, "rtt_ms"));
		if (!json_is_number(json_object_get(e->obj, "offset_ms")) ||
		    !json_is_number(json_object_get(e->obj, "rtt_ms")) || !isfinite(off) ||
		    !isfinite(rtt))
			continue;
		n++;
		off_lo = fmin(off_lo, off);
		off_hi = fmax(off_hi, off);
		rtt_lo = fmin(rtt_lo, rtt);
		rtt_hi = fmax(rtt_hi, rtt);
	}
	if (n == 0)
		return json_null();
	return json_pack("{s:I,s:o,s:o,s:o,s:o}", "measurements", (json_int_t)n, "offset_ms_min",
	                 summary_json_real(off_lo), "offset_ms_max", summary_json_real(off_hi),
	                 "rtt_ms_min", summary_json_real(rtt_lo), "rtt_ms_max",
	                 summary_json_real(rtt_hi));
}

/* The context's words for one agent: its host label and address, coverage, clock. */
static json_t *agent_text(const struct runfolder_agent *a, double share, const char *label,
                          const char *host, const json_t *clock)
{
	struct strbuf b = {0};
	if (label)
		strbuf_printf(&b, "host %s%s%s%s; ", label, host ? " (agent at " : "",
		              host ? host : "", host ? ")" : "");
	else if (host)
		strbuf_printf(&b, "host %s; ", host);
	strbuf_printf(&b, "reads in %zu of %zu intervals (%.1f %%)", a->with_read, a->intervals,
	              100 * share);
	if (a->gap_s > 0)
		strbuf_printf(&b, ", longest gap %.3g s from t=%.3f s", a->gap_s, a->gap_start_s);
	if (json_is_object(clock))
		strbuf_printf(
		    &b,
		    "; clock offset %.3f to %.3f ms, round trip %.3f to %.3f ms (%lld "
		    "measurements)",
		    json_number_value(json_object_get(clock, "offset_ms_min")),
		    json_number_value(json_object_get(clock, "offset_ms_max")),
		    json_number_value(json_object_get(clock, "rtt_ms_min")),
		    json_number_value(json_object_get(clock, "rtt_ms_max")),
		    (long long)json_integer_value(json_object_get(clock, "measurements")));
	else
		strbuf_append(&b, "; no clock measurement recorded");
	if (a->error[0])
		strbuf_printf(&b, "; not used: %s", a->error);
	json_t *s = json_string(b.s);
	strbuf_free(&b);
	return s;
}

void agent_reads_add(json_t *summary, const struct runfolder *rf)
{
	if (rf->n_agents == 0)
		return;
	json_t *all = json_object();
	for (size_t i = 0; i < rf->n_agents; i++) {
		const struct runfolder_agent *a = &rf->agents[i];
		const char *name = rf->targets[a->target], *host;
		json_t *clock = clock_range(rf, name, &host);
		double share = a->intervals ? (double)a->with_read / (double)a->intervals : 0;
		json_t *o = json_object();
		char file[300];
		snprintf(file, sizeof(file), "agents/%s.jsonl", name);
		json_object_set_new(o, "file", json_string(file));
		json_object_set_new(o, "host", host ? json_string(host) : json_null());
		json_object_set_new(o, "reads", json_integer((json_int_t)a->reads));
		json_object_set_new(o, "intervals", json_integer((json_int_t)a->intervals));
		json_object_set_new(o, "intervals_with_read",
		                    json_integer((json_int_t)a->with_read));
		summary_set_share(o, "share", share);
		json_object_set_new(o, "longest_gap",
		                    a->gap_s > 0
		                        ? json_pack("{s:o,s:o}", "start_s",
		                                    summary_json_real(a->gap_start_s), "length_s",
		                                    summary_json_real(a->gap_s))
		                        : json_null());
		json_object_set_new(o, "error", a->error[0] ? json_string(a->error) : json_null());
		json_object_set_new(o, "text",
		                    agent_text(a, share, hosts_of_agent(rf, name), host, clock));
		json_object_set_new(o, "clock", clock);
		json_object_set_new(all, name, o);
	}
	json_object_set_new(summary, "agents", all);
}

void agent_reads_warn(const struct runfolder *rf, FILE *out)
{
	for (size_t i = 0; i < rf->n_agents; i++) {
		const struct runfolder_agent *a = &rf->agents[i];
		if (a->error[0]) {
			fputs("allocspike-report: warning: ", out);
			terminal_text_fputs(a->error, out);
			fputc('\n', out);
		}
	}
}
