/* loadgen/summary.c - the closing summary, in dnsperf's words so that dnsperf scripts read it. */
#include "summary.h"

#include <unistd.h>

#include "proc_sample.h"
#include "sockaddr_parse.h"

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void summary_latency(FILE *out, const char *label, const struct latency_hist *h)
{
	if (h->count)
		fprintf(out, "  %s p50/p90/p99 (s): %.6f %.6f %.6f\n", label,
		        latency_hist_quantile(h, 0.5) / 1e9, latency_hist_quantile(h, 0.9) / 1e9,
		        latency_hist_quantile(h, 0.99) / 1e9);
}

/* One connection transport's lines: name is TCP or DoT. */
static void summary_stream(FILE *out, const char *name, const struct tcp_counters *tc, bool tls)
{
	char label[64];
	fprintf(out,
	        "  %s:                  sent %llu, retried after TC %llu, answered %llu, dropped "
	        "at send %llu, lost in flight %llu\n",
	        name, (unsigned long long)tc->sent, (unsigned long long)tc->retried,
	        (unsigned long long)tc->answered, (unsigned long long)tc->dropped,
	        (unsigned long long)tc->lost_in_flight);
	fprintf(out,
	        "  %s connections:      opened %llu, connect failures %llu, closed by server %llu, "
	        "resets %llu, closed idle %llu\n",
	        name, (unsigned long long)tc->connects, (unsigned long long)tc->connect_failures,
	        (unsigned long long)tc->closed_by_server, (unsigned long long)tc->resets,
	        (unsigned long long)tc->closed_idle);
	if (tls)
		fprintf(out, "  %s handshakes:       %llu, failures %llu, resumed %llu\n", name,
		        (unsigned long long)tc->handshakes,
		        (unsigned long long)tc->handshake_failures,
		        (unsigned long long)tc->resumed);
	if (tc->latency.count)
		fprintf(out, "  %s Average Latency (s): %.6f\n", name,
		        latency_hist_mean(&tc->latency) / 1e9);
	snprintf(label, sizeof(label), "%s Latency", name);
	summary_latency(out, label, &tc->latency);
}

/* The transports apart, when the target had TCP or DoT clients (docs/loadgen.md, "The
 * summary"): TCP's lines unless every client uses DoT, DoT's when any does. */
static void summary_transports(FILE *out, const struct pacer_target *t)
{
	const struct tcp_counters *tc = &t->tcp.counters, *dc = &t->tcp.dot_counters;
	const struct counters *c = &t->counters;
	fprintf(out, "  UDP:                  sent %llu, answered %llu\n",
	        (unsigned long long)(c->sent - tc->sent - dc->sent),
	        (unsigned long long)(c->answered - tc->answered - dc->answered));
	/* some clients send over TCP or UDP, or the target takes its DoT clients over TCP */
	if (t->tcp.model->dot < t->tcp.model->clients || t->tcp.dot_as_tcp)
		summary_stream(out, "TCP", tc, false);
	if (t->tcp.model->dot && !t->tcp.dot_as_tcp)
		summary_stream(out, "DoT", dc, true);
}

static void summary_target(FILE *out, const struct pacer_target *t, double run_s, bool several)
{
	const struct counters *c = &t->counters;
	const struct latency_hist *h = &c->latency;
	char addr[128];
	if (several)
		fprintf(
		    out, "Target %s (%s):\n", t->spec.name,
		    sockaddr_format((const struct sockaddr *)&t->spec.addr, addr, sizeof(addr)));
	fprintf(out, "Statistics:\n\n");
	fprintf(out, "  Queries sent:         %llu\n", (unsigned long long)c->sent);
	fprintf(out, "  Queries completed:    %llu (%.2f%%)\n", (unsigned long long)c->answered,
	        pct(c->answered, c->sent));
	fprintf(out, "  Queries lost:         %llu (%.2f%%)\n",
	        (unsigned long long)(c->sent - c->answered), pct(c->sent - c->answered, c->sent));
	if (c->send_errors)
		fprintf(out, "  Queries not sent:     %llu (refused by the socket%s)\n",
		        (unsigned long long)c->send_errors,
		        t->tcp.by_client ? ", or a TCP connection's bound" : "");
	if (c->unexpected)
		fprintf(out, "  Unexpected answers:   %llu\n", (unsigned long long)c->unexpected);
	if (c->late_or_foreign)
		fprintf(out,
		        "  Late or foreign:      %llu (ID of a waiting query, another question)\n",
		        (unsigned long long)c->late_or_foreign);
	if (c->truncated)
		fprintf(out, "  Truncated (TC):       %llu (retried over TCP: %llu)\n",
		        (unsigned long long)c->truncated, (unsigned long long)c->tc_retried);
	fprintf(out, "\n  Response codes:       ");
	struct {
		const char *name;
		uint64_t n;
	} codes[] = {{"NOERROR", c->noerror},
	             {"SERVFAIL", c->servfail},
	             {"NXDOMAIN", c->nxdomain},
	             {"other", c->rcode_other}};
	int shown = 0;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].n)
			fprintf(out, "%s%s %llu (%.2f%%)", shown++ ? ", " : "", codes[i].name,
			        (unsigned long long)codes[i].n, pct(codes[i].n, c->answered));
	fprintf(out, "%s\n", shown ? "" : "none");
	fprintf(out, "  Average packet size:  request %.0f, response %.0f\n",
	        c->sent ? (double)c->bytes_sent / (double)c->sent : 0,
	        c->answered ? (double)c->bytes_received / (double)c->answered : 0);
	fprintf(out, "  Run time (s):         %.6f\n", run_s);
	fprintf(out, "  Queries per second:   %.6f\n\n",
	        run_s > 0 ? (double)c->answered / run_s : 0);
	fprintf(out, "  Average Latency (s):  %.6f (min %.6f, max %.6f)\n",
	        latency_hist_mean(h) / 1e9, (double)h->min_ns / 1e9, (double)h->max_ns / 1e9);
	fprintf(out, "  Latency StdDev (s):   %.6f\n", latency_hist_stddev(h) / 1e9);
	summary_latency(out, "Latency", h);
	if (t->tcp.by_client)
		summary_transports(out, t);
	fprintf(out, "\n");
}

void summary_print(FILE *out, const struct pacer *p, const struct recorder *r, bool interrupted)
{
	uint64_t stop = p->stop_ns ? p->stop_ns : p->done_ns;
	double run_s = stop > p->start_ns ? (double)(stop - p->start_ns) / 1e9 : 0;
	for (unsigned i = 0; i < p->count; i++)
		summary_target(out, &p->targets[i], run_s, p->count > 1);
	uint64_t scheduled = schedule_due(p->schedule, run_s < p->end_s ? run_s : p->end_s);
	fprintf(out, "Generator:\n\n");
	fprintf(out, "  Queries scheduled:    %llu (to each target)\n",
	        (unsigned long long)scheduled);
	const struct client_model *who = p->clients ? p->clients : p->shard;
	if (who && who->shards > 1) /* the lines above and below count the whole stream */
		fprintf(out,
		        "  Shard:                %u of %u, its clients' %llu of those queries\n",
		        who->shard + 1, who->shards,
		        (unsigned long long)client_model_owned(who, 0, scheduled));
	fprintf(out, "  Queries offered:      %llu (%.2f%% of scheduled)%s\n",
	        (unsigned long long)p->next_k, pct(p->next_k, scheduled),
	        interrupted ? ", interrupted" : "");
	fprintf(out, "  Achieved rate (qps):  %.3f per target, scheduled %.3f\n",
	        run_s > 0 ? (double)p->next_k / run_s : 0,
	        p->end_s > 0 ? (double)p->total / p->end_s : 0);
	fprintf(out, "  Most behind (s):      %.6f%s\n", r->max_behind_s,
	        r->shortfalls ? " (shortfall reported)" : "");
	struct proc_watch self;
	struct proc_sample ps;
	if (proc_watch_open(&self, getpid(), NULL, 0) &&
	    proc_watch_sample(&self, false, &ps) == PROC_SAMPLE_OK) {
		uint64_t sent = 0;
		for (unsigned i = 0; i < p->count; i++)
			sent += p->targets[i].counters.sent;
		double cpu = ps.cpu_user_s + ps.cpu_sys_s;
		fprintf(out,
		        "  CPU (s):              user %.2f, system %.2f (%.3f us per query sent)\n",
		        ps.cpu_user_s, ps.cpu_sys_s, sent ? cpu * 1e6 / (double)sent : 0);
		proc_watch_close(&self);
	}
}

static json_t *summary_stream_json(const struct tcp_counters *tc, bool tls)
{
	json_t *o = json_pack(
	    "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "sent", (json_int_t)tc->sent, "retried",
	    (json_int_t)tc->retried, "answered", (json_int_t)tc->answered, "dropped",
	    (json_int_t)tc->dropped, "lost_in_flight", (json_int_t)tc->lost_in_flight, "connects",
	    (json_int_t)tc->connects, "connect_failures", (json_int_t)tc->connect_failures,
	    "closed_by_server", (json_int_t)tc->closed_by_server, "resets", (json_int_t)tc->resets,
	    "closed_idle", (json_int_t)tc->closed_idle);
	if (tls) {
		json_object_set_new(o, "handshakes", json_integer((json_int_t)tc->handshakes));
		json_object_set_new(o, "handshake_failures",
		                    json_integer((json_int_t)tc->handshake_failures));
		json_object_set_new(o, "resumed", json_integer((json_int_t)tc->resumed));
	}
	if (tc->latency.count) {
		json_object_set_new(o, "lat_p50_ms",
		                    json_real(latency_hist_quantile(&tc->latency, 0.5) / 1e6));
		json_object_set_new(o, "lat_p99_ms",
		                    json_real(latency_hist_quantile(&tc->latency, 0.99) / 1e6));
	}
	return o;
}

void summary_events(struct runfolder_writer *w, const struct pacer *p, double t)
{
	for (unsigned i = 0; i < p->count; i++) {
		const struct counters *c = &p->targets[i].counters;
		const struct latency_hist *h = &c->latency;
		json_t *extra = json_pack(
		    "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "sent", (json_int_t)c->sent,
		    "answered", (json_int_t)c->answered, "timeouts", (json_int_t)c->timeouts,
		    "noerror", (json_int_t)c->noerror, "nxdomain", (json_int_t)c->nxdomain,
		    "servfail", (json_int_t)c->servfail, "rcode_other", (json_int_t)c->rcode_other,
		    "not_sent", (json_int_t)c->send_errors, "unexpected", (json_int_t)c->unexpected,
		    "late_or_foreign", (json_int_t)c->late_or_foreign);
		if (h->count) {
			json_object_set_new(extra, "lat_p50_ms",
			                    json_real(latency_hist_quantile(h, 0.5) / 1e6));
			json_object_set_new(extra, "lat_p99_ms",
			                    json_real(latency_hist_quantile(h, 0.99) / 1e6));
		}
		if (c->truncated)
			json_object_set_new(extra, "truncated",
			                    json_pack("{s:I,s:I}", "answers",
			                              (json_int_t)c->truncated, "retried",
			                              (json_int_t)c->tc_retried));
		const struct tcp_clients *tcp = &p->targets[i].tcp;
		if (tcp->by_client)
			json_object_set_new(extra, "tcp",
			                    summary_stream_json(&tcp->counters, false));
		if (tcp->by_client && tcp->model->dot && !tcp->dot_as_tcp)
			json_object_set_new(extra, "dot",
			                    summary_stream_json(&tcp->dot_counters, true));
		runfolder_writer_event(w, t, p->targets[i].spec.name, "summary", extra);
	}
}
