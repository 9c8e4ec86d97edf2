/* reports/transports.c - per variant and transport (UDP, TCP, DoT): queries, answers, latency and
 * connections from transports.csv (docs/run-folder.md), and the resolver's memory per open
 * connection. */
#include "transports.h"
#include "grow.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "spread.h"
#include "summary_json.h"

#define TRANSPORTS_FILE "transports.csv"
#define TRANSPORTS_MAX_LINE 4096
/* A spike that opened fewer connections than this says nothing about their memory: the growth of
 * anonymous RSS over it is then mostly its queries'. */
#define MIN_OPENED_PER_SPIKE 100

enum { TR_UDP, TR_TCP, TR_DOT, TR_COUNT };
static const char *const transport_names[TR_COUNT] = {"udp", "tcp", "dot"};
static const char *const transport_titles[TR_COUNT] = {"UDP", "TCP", "DoT"};

/* The columns read, found by name in the header; the counts are summed over the intervals. */
#define TRANSPORT_SUMS(X)                                                                          \
	X(sent)                                                                                    \
	X(answered)                                                                                \
	X(connects)                                                                                \
	X(handshakes)                                                                              \
	X(resumed)                                                                                 \
	X(connect_failures)                                                                        \
	X(handshake_failures)                                                                      \
	X(resets)                                                                                  \
	X(closed_by_server)                                                                        \
	X(closed_idle)                                                                             \
	X(lost_in_flight)                                                                          \
	X(dropped)                                                                                 \
	X(retried)
#define TRANSPORT_OTHERS(X)                                                                        \
	X(t_s)                                                                                     \
	X(lat_p50_ms)                                                                              \
	X(lat_p95_ms)                                                                              \
	X(open)                                                                                    \
	X(server_tcp_open)                                                                         \
	X(server_tls_open)                                                                         \
	X(server_conn_bytes)

enum {
#define COL_ENUM(name) COL_##name,
	TRANSPORT_SUMS(COL_ENUM) N_SUMS,
	COL_BEFORE_OTHERS = N_SUMS - 1,
	TRANSPORT_OTHERS(COL_ENUM) N_COLS
#undef COL_ENUM
};
static const char *const column_names[N_COLS] = {
#define COL_NAME(name) [COL_##name] = #name,
    TRANSPORT_SUMS(COL_NAME) TRANSPORT_OTHERS(COL_NAME)
#undef COL_NAME
};

/* An interval's latency quantile and the answers it stands for. */
struct weighted {
	double value, weight;
};

struct weighted_list {
	struct weighted *v;
	size_t n, cap;
};

struct transport_agg {
	bool seen;
	double sums[N_SUMS];
	double open_max;
	struct weighted_list p50, p95;
};

/* The generator's connections to a target open at an interval's end, over its transports. */
struct open_point {
	double t_s, open;
};

struct variant_agg {
	const char *name; /* the summary's key */
	struct transport_agg tr[TR_COUNT];
	struct open_point *opens; /* by interval, in the file's order */
	size_t n_opens, cap_opens;
	double server_open_max, server_tls_at_max, server_bytes_at_max;
	double server_open_end, server_bytes_end, server_t_end;
	bool server_seen;
};

static void weighted_add(struct weighted_list *l, double value, double weight)
{
	if (isnan(value) || !(weight > 0))
		return;
	struct weighted *grown = grow_room(l->v, &l->cap, l->n, sizeof(*l->v), 64);
	if (!grown)
		return;
	l->v = grown;
	l->v[l->n++] = (struct weighted){value, weight};
}

static int weighted_cmp(const void *a, const void *b)
{
	double x = ((const struct weighted *)a)->value, y = ((const struct weighted *)b)->value;
	return (x > y) - (x < y);
}

/* The value at which half the weight lies below: the intervals' quantile, weighted by answers. */
static double weighted_median(struct weighted_list *l)
{
	double total = 0, below = 0;
	for (size_t i = 0; i < l->n; i++)
		total += l->v[i].weight;
	if (!(total > 0))
		return NAN;
	qsort(l->v, l->n, sizeof(*l->v), weighted_cmp);
	for (size_t i = 0; i < l->n; i++) {
		below += l->v[i].weight;
		if (below >= total / 2)
			return l->v[i].value;
	}
	return l->v[l->n - 1].value;
}

/* A cell's number: empty is NAN (not available); false when it is no number, or out of range. */
static bool cell_number(const char *cell, double *out)
{
	*out = NAN;
	if (!*cell)
		return true;
	char *end;
	double v = strtod(cell, &end);
	if (*end != '\0' || !isfinite(v) || fabs(v) > RUNFOLDER_MAX_MAGNITUDE)
		return false;
	*out = v;
	return true;
}

/* Splits line (its newline removed) at commas into at most max cells; the count. */
static size_t split_cells(char *line, char **cells, size_t max)
{
	size_t n = 0;
	for (char *p = line;;) {
		if (n == max)
			return max + 1; /* too many: not this file's row */
		cells[n++] = p;
		char *comma = strchr(p, ',');
		if (!comma)
			return n;
		*comma = '\0';
		p = comma + 1;
	}
}

static struct variant_agg *variant_of(struct variant_agg *vs, size_t *n, const json_t *variants,
                                      const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(vs[i].name, name) == 0)
			return &vs[i];
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)variants, key, v)
	{
		if (strcmp(key, name) != 0 || *n >= RUNFOLDER_MAX_VARIANTS)
			continue;
		vs[*n] = (struct variant_agg){.name = key,
		                              .server_open_max = NAN,
		                              .server_tls_at_max = NAN,
		                              .server_bytes_at_max = NAN,
		                              .server_open_end = NAN,
		                              .server_bytes_end = NAN,
		                              .server_t_end = -INFINITY};
		return &vs[(*n)++];
	}
	return NULL; /* a row of no variant of the run (a harness row, a damaged name) */
}

/* Adds an interval's open connections on one transport to the interval's total. */
static void opens_add(struct variant_agg *va, double t_s, double open)
{
	if (isnan(t_s) || isnan(open))
		return;
	if (va->n_opens && va->opens[va->n_opens - 1].t_s == t_s) {
		va->opens[va->n_opens - 1].open += open;
		return;
	}
	struct open_point *grown =
	    grow_room(va->opens, &va->cap_opens, va->n_opens, sizeof(*va->opens), 64);
	if (!grown)
		return;
	va->opens = grown;
	va->opens[va->n_opens++] = (struct open_point){t_s, open};
}

static void add_row(struct variant_agg *va, int tr, const double *v)
{
	struct transport_agg *a = &va->tr[tr];
	opens_add(va, v[COL_t_s], v[COL_open]);
	a->seen = true;
	for (int c = 0; c < N_SUMS; c++)
		if (!isnan(v[c]))
			a->sums[c] += v[c];
	if (!isnan(v[COL_open]) && !(v[COL_open] <= a->open_max))
		a->open_max = v[COL_open];
	weighted_add(&a->p50, v[COL_lat_p50_ms], v[COL_answered]);
	weighted_add(&a->p95, v[COL_lat_p95_ms], v[COL_answered]);
	/* the resolver's connections: the same on each transport's row of an interval */
	double open = v[COL_server_tcp_open];
	if (isnan(open))
		return;
	va->server_seen = true;
	if (open > 0 && !(open <= va->server_open_max)) {
		va->server_open_max = open;
		va->server_tls_at_max = v[COL_server_tls_open];
		va->server_bytes_at_max = v[COL_server_conn_bytes];
	}
	if (v[COL_t_s] >= va->server_t_end) {
		va->server_t_end = v[COL_t_s];
		va->server_open_end = open;
		va->server_bytes_end = v[COL_server_conn_bytes];
	}
}

/* Reads transports.csv into vs (n of them). False when the file is absent (err empty) or is refused
 * (err says FILE:LINE: why): like every file of a run folder it is untrusted, and a line that is
 * not this file's (a wrong cell count, a number that is none, a transport or variant the run does
 * not have, a line too long) is never skipped. A last line without its newline (an interrupted
 * run) is dropped, as the timeline's. */
static bool read_file(const char *dir, const json_t *variants, struct variant_agg *vs, size_t *n,
                      char *err, size_t err_size)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, TRANSPORTS_FILE);
	err[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	int at[N_COLS], at_variant = -1, at_transport = -1;
	for (int c = 0; c < N_COLS; c++)
		at[c] = -1;
	char *line = malloc(TRANSPORTS_MAX_LINE + 2);
	char *cells[64];
	size_t header_cells = 0, lineno = 0;
	if (!line)
		snprintf(err, err_size, "%s: out of memory", TRANSPORTS_FILE);
	while (!err[0] && fgets(line, TRANSPORTS_MAX_LINE + 2, f)) {
		lineno++;
		size_t len = strlen(line);
		if (len > TRANSPORTS_MAX_LINE) {
			snprintf(err, err_size, "%s:%zu: a line longer than %d bytes",
			         TRANSPORTS_FILE, lineno, TRANSPORTS_MAX_LINE);
			break;
		}
		if (line[len - 1] != '\n') /* cut off at the end */
			break;
		line[len - 1] = '\0';
		size_t ncells = split_cells(line, cells, 64);
		if (lineno == 1) {
			header_cells = ncells;
			for (size_t i = 0; i < ncells && i < 64; i++) {
				if (strcmp(cells[i], "variant") == 0)
					at_variant = (int)i;
				else if (strcmp(cells[i], "transport") == 0)
					at_transport = (int)i;
				for (int c = 0; c < N_COLS; c++)
					if (strcmp(cells[i], column_names[c]) == 0)
						at[c] = (int)i;
			}
			if (ncells > 64 || at_variant < 0 || at_transport < 0)
				snprintf(
				    err, err_size,
				    "%s:1: not its header (variant and transport columns, at most "
				    "64)",
				    TRANSPORTS_FILE);
			continue;
		}
		if (ncells != header_cells) {
			snprintf(err, err_size, "%s:%zu: %zu cells, the header has %zu",
			         TRANSPORTS_FILE, lineno, ncells > 64 ? 65 : ncells, header_cells);
			break;
		}
		int tr = 0;
		while (tr < TR_COUNT && strcmp(cells[at_transport], transport_names[tr]) != 0)
			tr++;
		struct variant_agg *va =
		    tr < TR_COUNT ? variant_of(vs, n, variants, cells[at_variant]) : NULL;
		if (!va) {
			snprintf(err, err_size, "%s:%zu: %s", TRANSPORTS_FILE, lineno,
			         tr < TR_COUNT ? "a variant the run does not have"
			                       : "a transport other than udp, tcp or dot");
			break;
		}
		double v[N_COLS];
		for (int c = 0; c < N_COLS && !err[0]; c++)
			if (at[c] >= 0 && !cell_number(cells[at[c]], &v[c]))
				snprintf(err, err_size,
				         "%s:%zu: column \"%s\": not a number in range",
				         TRANSPORTS_FILE, lineno, column_names[c]);
			else if (at[c] < 0)
				v[c] = NAN;
		if (!err[0])
			add_row(va, tr, v);
	}
	free(line);
	fclose(f);
	if (!err[0] && lineno == 0)
		snprintf(err, err_size, "%s: empty (no header)", TRANSPORTS_FILE);
	return !err[0];
}

static json_t *transport_json(struct transport_agg *a)
{
	json_t *o = json_object();
	for (int c = 0; c < N_SUMS; c++)
		json_object_set_new(o, column_names[c], summary_json_number(a->sums[c]));
	summary_set_share(o, "answered_share",
	                  a->sums[COL_sent] > 0 ? a->sums[COL_answered] / a->sums[COL_sent] : NAN);
	json_object_set_new(
	    o, "connection_failures",
	    summary_json_number(a->sums[COL_connect_failures] + a->sums[COL_handshake_failures]));
	json_object_set_new(o, "open_max", summary_json_number(a->open_max));
	json_object_set_new(o, "lat_p50_ms", summary_json_real(weighted_median(&a->p50)));
	json_object_set_new(o, "lat_p95_ms", summary_json_real(weighted_median(&a->p95)));
	return o;
}

/* A note for a variant built without DNS over TLS (run.json's version.tls false) in a run whose
 * other variants had DoT clients: the scenario sent its DoT clients over plain TCP. */
static const char *no_tls_note(const struct runfolder *rf, const char *name, bool run_has_dot,
                               const struct variant_agg *va)
{
	if (!run_has_dot || va->tr[TR_DOT].seen)
		return NULL;
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(rf->run, "variants"), i, row)
	{
		const char *n = json_string_value(json_object_get(row, "name"));
		if (n && strcmp(n, name) == 0 &&
		    json_is_false(json_object_get(json_object_get(row, "version"), "tls")))
			return "built without DNS over TLS: its DoT clients spoke plain TCP to it "
			       "(TCP only)";
	}
	return "no DoT rows: this target had no DNS over TLS";
}

/* The connections a spike opened: the most open at an interval's end inside it, less those open
 * when it began (NAN when no interval falls inside). */
static double opened_in(const struct variant_agg *va, double from_s, double to_s)
{
	double before = 0, most = NAN;
	for (size_t i = 0; i < va->n_opens; i++) {
		const struct open_point *p = &va->opens[i];
		if (p->t_s <= from_s)
			before = p->open;
		else if (p->t_s <= to_s && !(p->open <= most))
			most = p->open;
	}
	return most - before;
}

/* Memory per connection from outside the process, so a daemon that does not count it has a
 * figure too: per spike that opened at least MIN_OPENED_PER_SPIKE connections, the growth of
 * anonymous RSS from before it to its peak over the connections it opened. The first such spike
 * stands apart: its heap has little freed memory to reuse, so its figure is the closest to the
 * connection's size (it counts the spike's queries too); the later ones (median and range) show
 * what the allocator took from the system again instead of reusing. Null when no spike qualifies.
 */
static json_t *anon_growth_per_connection(const struct variant_agg *va,
                                          const struct model_variant *mv)
{
	if (!mv || !mv->n_spikes)
		return json_null();
	double *per = malloc(mv->n_spikes * sizeof(*per));
	size_t n = 0;
	int first_spike = 0;
	for (size_t k = 0; per && k < mv->n_spikes; k++) {
		const struct model_spike *s = &mv->spikes[k];
		double opened = opened_in(va, s->from_s, s->to_s),
		       growth_kb = s->peak_anon_kb - s->before_anon_kb;
		if (!s->ran || !(opened >= MIN_OPENED_PER_SPIKE) || !isfinite(growth_kb))
			continue;
		if (!n)
			first_spike = s->number;
		per[n++] = growth_kb * 1024 / opened;
	}
	json_t *o = json_null();
	if (n) {
		struct spread later = spread_of(per + 1, n - 1);
		o = json_pack("{s:i,s:o,s:i,s:o,s:o,s:o,s:i}", "first_spike",
		              (json_int_t)first_spike, "first_bytes",
		              summary_json_number(round(per[0])), "later_spikes",
		              (json_int_t)later.n, "later_bytes_median",
		              summary_json_number(round(later.median)), "later_bytes_min",
		              summary_json_number(round(later.min)), "later_bytes_max",
		              summary_json_number(round(later.max)), "min_opened",
		              (json_int_t)MIN_OPENED_PER_SPIKE);
	}
	free(per);
	return o;
}

void transports_add(json_t *summary, const struct runfolder *rf, const struct model *model)
{
	json_t *variants = json_object_get(summary, "variants");
	struct variant_agg *vs = calloc(RUNFOLDER_MAX_VARIANTS, sizeof(*vs));
	size_t n = 0;
	char err[256] = "";
	bool have = vs && rf->dir && read_file(rf->dir, variants, vs, &n, err, sizeof(err));
	bool run_has_dot = false;
	for (size_t i = 0; i < n; i++)
		run_has_dot |= vs[i].tr[TR_DOT].seen;
	const char *key;
	json_t *v;
	json_object_foreach(variants, key, v)
	{
		if (!json_is_object(v))
			continue;
		struct variant_agg *va = NULL;
		for (size_t i = 0; i < n && !va; i++)
			if (strcmp(vs[i].name, key) == 0)
				va = &vs[i];
		if (err[0]) { /* refused whole: no figure from a file that is not this file */
			json_object_set_new(v, "transports", json_pack("{s:s}", "error", err));
			continue;
		}
		if (!have || !va) {
			json_object_set_new(v, "transports", json_null());
			continue;
		}
		json_t *o = json_object();
		json_object_set_new(o, "source", json_string(TRANSPORTS_FILE));
		json_t *by = json_object();
		for (int tr = 0; tr < TR_COUNT; tr++)
			if (va->tr[tr].seen)
				json_object_set_new(by, transport_names[tr],
				                    transport_json(&va->tr[tr]));
		json_object_set_new(o, "by_transport", by);
		json_t *server = json_null();
		if (va->server_seen) {
			double per = va->server_open_max > 0
			                 ? va->server_bytes_at_max / va->server_open_max
			                 : NAN;
			server = json_object();
			json_object_set_new(server, "open_max",
			                    summary_json_number(va->server_open_max));
			json_object_set_new(server, "tls_open_at_max",
			                    summary_json_number(va->server_tls_at_max));
			json_object_set_new(server, "conn_bytes_at_max",
			                    summary_json_number(va->server_bytes_at_max));
			json_object_set_new(server, "bytes_per_connection",
			                    summary_json_number(isnan(per) ? NAN : round(per)));
			json_object_set_new(server, "open_end",
			                    summary_json_number(va->server_open_end));
			json_object_set_new(server, "conn_bytes_end",
			                    summary_json_number(va->server_bytes_end));
		}
		json_object_set_new(o, "resolver", server);
		json_object_set_new(
		    o, "anon_growth_per_connection",
		    anon_growth_per_connection(va, model_variant_named(model, key)));
		const char *note = no_tls_note(rf, key, run_has_dot, va);
		if (note)
			json_object_set_new(o, "note", json_string(note));
		json_object_set_new(v, "transports", o);
	}
	for (size_t i = 0; i < n; i++)
		for (int tr = 0; tr < TR_COUNT; tr++) {
			free(vs[i].tr[tr].p50.v);
			free(vs[i].tr[tr].p95.v);
		}
	for (size_t i = 0; i < n; i++)
		free(vs[i].opens);
	free(vs);
}

/* The table's columns: a header and the figure under by_transport.TR. */
static const struct {
	const char *title, *key;
	bool share, ms;
} table_cols[] = {
    {"queries", "sent", false, false},
    {"answered", "answered_share", true, false},
    {"open (max)", "open_max", false, false},
    {"new connections", "connects", false, false},
    {"handshakes", "handshakes", false, false},
    {"resumed", "resumed", false, false},
    {"connection failures", "connection_failures", false, false},
    {"resets", "resets", false, false},
    {"p50 (ms)", "lat_p50_ms", false, true},
    {"p95 (ms)", "lat_p95_ms", false, true},
};
#define N_TABLE_COLS (sizeof(table_cols) / sizeof(table_cols[0]))

/* A cell's text: "n/a" when absent, a connection figure of UDP "-". */
static void cell_text(char *out, size_t size, const json_t *t, int tr, size_t col)
{
	double v = summary_number(t, table_cols[col].key);
	bool conn = col >= 2 && col <= 7;
	if (tr == TR_UDP && conn)
		snprintf(out, size, "-");
	else if (tr == TR_TCP && (col == 4 || col == 5))
		snprintf(out, size, "-"); /* no TLS */
	else if (isnan(v))
		snprintf(out, size, "n/a");
	else if (table_cols[col].share)
		snprintf(out, size, "%.1f %%", v * 100);
	else if (table_cols[col].ms)
		snprintf(out, size, "%.3g", v);
	else
		snprintf(out, size, "%.0f", v);
}

bool transports_any(const json_t *summary)
{
	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(summary, "variants"), key,
	                    v) if (json_is_object(json_object_get(v, "transports"))) return true;
	return false;
}

/* What the page says under the table of a variant: the resolver's memory per open connection, the
 * note, or why transports.csv was refused ("" when none). */
static void variant_text(char *out, size_t size, const json_t *tv)
{
	const char *error = json_string_value(json_object_get(tv, "error"));
	const char *note = json_string_value(json_object_get(tv, "note"));
	const json_t *r = json_object_get(tv, "resolver");
	double open = summary_number(r, "open_max"),
	       per = summary_number(r, "bytes_per_connection");
	int n = 0;
	out[0] = '\0';
	if (error)
		n = snprintf(out, size, "transports.csv refused: %s", error);
	else if (!isnan(open) && !isnan(per))
		n = snprintf(
		    out, size,
		    "resolver: at most %.0f connections open (%.0f over TLS), %.0f bytes each "
		    "(tcp_conn_bytes / tcp_open there); at the end %.0f open holding %.0f bytes",
		    open, summary_number(r, "tls_open_at_max"), per, summary_number(r, "open_end"),
		    summary_number(r, "conn_bytes_end"));
	const json_t *g = json_object_get(tv, "anon_growth_per_connection");
	double first = summary_number(g, "first_bytes");
	if (!error && !isnan(first) && n >= 0 && (size_t)n < size) {
		n += snprintf(
		    out + n, size - (size_t)n,
		    "%sanonymous RSS grew by %.0f bytes per connection spike %.0f opened (a "
		    "heap with little to reuse: the closest to a connection's size, the "
		    "spike's queries included)",
		    n ? "; " : "", first, summary_number(g, "first_spike"));
		double later = summary_number(g, "later_bytes_median");
		if (!isnan(later) && n >= 0 && (size_t)n < size)
			n += snprintf(
			    out + n, size - (size_t)n,
			    ", by %.0f in the later spikes (median of %.0f, %.0f-%.0f: what the "
			    "allocator took from the system again instead of reusing)",
			    later, summary_number(g, "later_spikes"),
			    summary_number(g, "later_bytes_min"),
			    summary_number(g, "later_bytes_max"));
	}
	if (note && n >= 0 && (size_t)n < size)
		snprintf(out + n, size - (size_t)n, "%s%s", n ? "; " : "", note);
}

static const char *const caption =
    "Per variant and transport, over the whole run (transports.csv). Queries: sent over the "
    "transport (TCP counts the truncated UDP answers retried over it); answered: their answered "
    "share; open (max): the generator's connections open at an interval's end, at most; new "
    "connections: established; handshakes: DoT's completed TLS handshakes (of them resumed); "
    "connection failures: connections refused or failed before being established, and failed "
    "handshakes; resets: established connections broken. Latency: the median over the intervals "
    "of each interval's p50 and p95, weighted by its answers (not a quantile of the whole run). "
    "Memory per connection: the resolver's tcp_conn_bytes over its tcp_open at the interval with "
    "the most open connections (our resolver only; daemons do not report it); for every variant, "
    "the growth of anonymous RSS from before a spike to its peak over the connections the spike "
    "opened (the generator's count), the median over the spikes that opened at least 100.";

static void append_text(struct strbuf *b, const char *s,
                        void (*text)(struct strbuf *, const char *))
{
	if (text)
		text(b, s);
	else
		strbuf_append_html(b, s);
}

/* The table, then a line per variant with something to say: HTML, or Markdown when text (its
 * escaper for text from the run) is given. */
static void render(struct strbuf *b, const json_t *summary,
                   void (*text)(struct strbuf *, const char *))
{
	bool md = text != NULL;
	if (md) {
		strbuf_append(b, "\n"); /* under the heading the section table writes */
		strbuf_append(b, caption);
		strbuf_append(b, "\n\n| variant | transport |");
		for (size_t c = 0; c < N_TABLE_COLS; c++)
			strbuf_printf(b, " %s |", table_cols[c].title);
		strbuf_append(b, "\n| --- | --- |");
		for (size_t c = 0; c < N_TABLE_COLS; c++)
			strbuf_append(b, " ---: |");
		strbuf_append(b, "\n");
	} else {
		strbuf_append(b, "<p class=\"caption\">");
		strbuf_append_html(b, caption);
		strbuf_append(b, "</p>\n<div class=\"scroll\"><table id=\"transports-table\">\n"
		                 "<tr><th>variant</th><th>transport</th>");
		for (size_t c = 0; c < N_TABLE_COLS; c++)
			strbuf_printf(b, "<th>%s</th>", table_cols[c].title);
		strbuf_append(b, "</tr>\n");
	}
	const json_t *order = json_object_get(summary, "variant_order");
	const json_t *variants = json_object_get(summary, "variants");
	struct strbuf lines = {0};
	size_t i;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		const char *vn = json_string_value(name);
		const json_t *tv = json_object_get(json_object_get(variants, vn), "transports");
		if (!vn || !json_is_object(tv))
			continue;
		const json_t *by = json_object_get(tv, "by_transport");
		for (int tr = 0; tr < TR_COUNT; tr++) {
			const json_t *t = json_object_get(by, transport_names[tr]);
			if (!t)
				continue;
			strbuf_append(b, md ? "| " : "<tr><td>");
			append_text(b, vn, text);
			strbuf_printf(b, md ? " | %s |" : "</td><td>%s</td>", transport_titles[tr]);
			for (size_t c = 0; c < N_TABLE_COLS; c++) {
				char cell[64];
				cell_text(cell, sizeof(cell), t, tr, c);
				strbuf_printf(b, md ? " %s |" : "<td>%s</td>", cell);
			}
			strbuf_append(b, md ? "\n" : "</tr>\n");
		}
		char line[1024];
		variant_text(line, sizeof(line), tv);
		if (!line[0])
			continue;
		strbuf_append(&lines, md ? "- " : "<li>");
		append_text(&lines, vn, text);
		strbuf_append(&lines, ": ");
		append_text(&lines, line, text);
		strbuf_append(&lines, md ? "\n" : "</li>\n");
	}
	if (!md)
		strbuf_append(b, "</table></div>\n");
	if (lines.len) {
		strbuf_append(b, md ? "\n" : "<ul class=\"transports-notes\">\n");
		strbuf_append(b, lines.s);
		strbuf_append(b, md ? "" : "</ul>\n");
	}
	if (md)
		strbuf_append(b, "\n");
	strbuf_free(&lines);
}

void transports_html(struct strbuf *b, const json_t *summary)
{
	render(b, summary, NULL);
}

void transports_markdown(struct strbuf *b, const json_t *summary,
                         void (*text)(struct strbuf *, const char *))
{
	render(b, summary, text);
}
