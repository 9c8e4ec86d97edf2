/* common/schedule.c - the rate schedule (phases, ramps, repeated spikes): parser and clock math. */
#include "schedule.h"
#include "grow.h"

#include "cli_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds that keep a typo from asking for a year-long run or a billion phases. */
#define SCHEDULE_MAX_PHASES 100000
#define SCHEDULE_MAX_DEPTH 8
#define SCHEDULE_MAX_REPEAT 100000
#define SCHEDULE_MAX_SECONDS (7.0 * 24 * 3600)
#define SCHEDULE_MAX_RATE 100e6
#define SCHEDULE_MAX_FILE (1 << 20)
#define SCHEDULE_MAX_CLIENTS 1000000 /* as allocspike-loadgen --clients */

static const char *const kind_names[] = {
    [SCHEDULE_WARMUP] = "warmup",       [SCHEDULE_BASELINE] = "baseline",
    [SCHEDULE_SPIKE] = "spike",         [SCHEDULE_RECOVERY] = "recovery",
    [SCHEDULE_CALIBRATE] = "calibrate", [SCHEDULE_ZERO] = "zero",
};

const char *schedule_kind_name(enum schedule_kind kind)
{
	if ((size_t)kind < sizeof(kind_names) / sizeof(kind_names[0]))
		return kind_names[kind];
	return "?";
}

struct parser {
	const char *text;
	const char *source; /* file name, or NULL for command-line text */
	size_t pos;
	struct schedule_phase *phases;
	size_t count, cap;
	char *err;
	size_t err_size;
	bool failed;
};

static void parser_fail(struct parser *p, size_t at, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	size_t line = 1, col = 1;
	for (size_t i = 0; i < at && p->text[i]; i++) {
		if (p->text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!p->err)
		return;
	if (p->source)
		snprintf(p->err, p->err_size, "%s:%zu:%zu: %s", p->source, line, col, what);
	else
		snprintf(p->err, p->err_size, "schedule column %zu: %s", col, what);
}

/* Whitespace, and in files '#' comments to the end of the line. */
static void parser_skip_space(struct parser *p)
{
	for (;;) {
		char c = p->text[p->pos];
		if (isspace((unsigned char)c)) {
			p->pos++;
		} else if (c == '#' && p->source) {
			while (p->text[p->pos] && p->text[p->pos] != '\n')
				p->pos++;
		} else {
			return;
		}
	}
}

static bool parser_accept(struct parser *p, char c)
{
	parser_skip_space(p);
	if (p->text[p->pos] == c) {
		p->pos++;
		return true;
	}
	return false;
}

/* A non-negative decimal number, the command lines' grammar (common/cli_parse.h). */
static bool parser_number(struct parser *p, double *out, const char *what)
{
	parser_skip_space(p);
	const char *s = p->text + p->pos;
	size_t n = cli_scan_number(s, out);
	if (n == 0) {
		parser_fail(p, p->pos, "expected %s (a number), found '%.12s'", what,
		            *s ? s : "end of text");
		return false;
	}
	p->pos += n;
	return true;
}

static bool parser_duration(struct parser *p, double *out)
{
	double v;
	size_t start = (parser_skip_space(p), p->pos);
	if (!parser_number(p, &v, "a duration"))
		return false;
	const char *u = p->text + p->pos;
	double mult;
	size_t len = cli_scan_duration_unit(u, &mult);
	if (len == 0 && !(u[0] && strchr("msh", u[0]))) {
		parser_fail(p, p->pos, "duration needs a unit (ms, s, m or h), found '%.8s'",
		            *u ? u : "end of text");
		return false;
	}
	if (len == 0) {
		parser_fail(p, p->pos, "unknown duration unit '%.8s' (ms, s, m or h)", u);
		return false;
	}
	p->pos += len;
	*out = v * mult;
	if (!(*out > 0)) {
		parser_fail(p, start, "duration must be more than 0");
		return false;
	}
	if (*out > SCHEDULE_MAX_SECONDS) {
		parser_fail(p, start, "duration longer than a week");
		return false;
	}
	return true;
}

static bool parser_rate(struct parser *p, double *out)
{
	size_t start = (parser_skip_space(p), p->pos);
	if (!parser_number(p, out, "a rate in queries per second"))
		return false;
	if (*out > SCHEDULE_MAX_RATE) {
		parser_fail(p, start, "rate %.0f is beyond %.0f queries per second", *out,
		            SCHEDULE_MAX_RATE);
		return false;
	}
	return true;
}

/* '/clients=N' after a phase's rate: how many clients send the phase's queries. */
static bool parser_clients(struct parser *p, struct schedule_phase *ph, size_t at)
{
	if (ph->clients) {
		parser_fail(p, at, "clients given twice in one phase");
		return false;
	}
	if (!parser_accept(p, '=')) {
		parser_fail(p, p->pos, "expected '=N' after 'clients' (/clients=N)");
		return false;
	}
	size_t value_at = (parser_skip_space(p), p->pos);
	double n;
	if (!parser_number(p, &n, "a number of clients"))
		return false;
	if (n != floor(n) || n < 1 || n > SCHEDULE_MAX_CLIENTS) {
		parser_fail(p, value_at, "clients must be a whole number from 1 to %d",
		            SCHEDULE_MAX_CLIENTS);
		return false;
	}
	ph->clients = (unsigned)n;
	return true;
}

/* A phase's options: '/NAME=VALUE' after its rate, any number (today only clients). */
static bool parser_options(struct parser *p, struct schedule_phase *ph)
{
	while (parser_accept(p, '/')) {
		parser_skip_space(p);
		size_t at = p->pos;
		size_t n = 0;
		while (isalpha((unsigned char)p->text[at + n]))
			n++;
		if (n == strlen("clients") && strncmp(p->text + at, "clients", n) == 0) {
			p->pos += n;
			if (ph->kind == SCHEDULE_ZERO) {
				parser_fail(p, at,
				            "a zero phase has no clients (it sends nothing)");
				return false;
			}
			if (!parser_clients(p, ph, at))
				return false;
		} else {
			parser_fail(p, at, "unknown phase option '%.*s' (clients=N)",
			            n ? (int)(n > 20 ? 20 : n) : 12,
			            p->text[at] ? p->text + at : "end of text");
			return false;
		}
	}
	return true;
}

static bool parser_push(struct parser *p, const struct schedule_phase *ph, size_t at)
{
	if (p->count >= SCHEDULE_MAX_PHASES) {
		parser_fail(p, at, "more than %d phases after expanding repeats",
		            SCHEDULE_MAX_PHASES);
		return false;
	}
	struct schedule_phase *grown = grow_room(p->phases, &p->cap, p->count, sizeof(*grown), 16);
	if (!grown) {
		parser_fail(p, at, "out of memory");
		return false;
	}
	p->phases = grown;
	p->phases[p->count++] = *ph;
	return true;
}

static bool parser_phase(struct parser *p)
{
	parser_skip_space(p);
	size_t start = p->pos;
	size_t n = 0;
	while (isalpha((unsigned char)p->text[start + n]))
		n++;
	struct schedule_phase ph = {0};
	bool known = false;
	for (size_t k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++) {
		if (n == strlen(kind_names[k]) && strncmp(p->text + start, kind_names[k], n) == 0) {
			ph.kind = (enum schedule_kind)k;
			known = true;
		}
	}
	if (!known) {
		if (n == 0)
			parser_fail(p, start, "expected a phase name or N*(...), found '%.12s'",
			            p->text[start] ? p->text + start : "end of text");
		else
			parser_fail(p, start,
			            "unknown phase '%.*s' (warmup, baseline, spike, recovery, "
			            "calibrate or zero)",
			            (int)(n > 20 ? 20 : n), p->text + start);
		return false;
	}
	p->pos += n;
	if (!parser_accept(p, ':')) {
		parser_fail(p, p->pos, "expected ':' after the phase name (PHASE:DURATION@RATE)");
		return false;
	}
	if (!parser_duration(p, &ph.duration_s))
		return false;
	if (ph.kind == SCHEDULE_ZERO && !(parser_skip_space(p), p->text[p->pos] == '@')) {
		ph.rate_from = ph.rate_to = 0; /* "zero:10s" says it all */
	} else {
		if (!parser_accept(p, '@')) {
			parser_fail(p, p->pos, "expected '@RATE' after the duration");
			return false;
		}
		size_t rate_at = p->pos;
		if (!parser_rate(p, &ph.rate_from))
			return false;
		ph.rate_to = ph.rate_from;
		parser_skip_space(p);
		if (strncmp(p->text + p->pos, "..", 2) == 0) {
			p->pos += 2;
			if (!parser_rate(p, &ph.rate_to))
				return false;
		}
		bool silent = ph.rate_from == 0 && ph.rate_to == 0;
		if (ph.kind == SCHEDULE_ZERO && !silent) {
			parser_fail(p, rate_at, "a zero phase has rate 0");
			return false;
		}
		if (ph.kind != SCHEDULE_ZERO && silent) {
			parser_fail(p, rate_at,
			            "rate 0 in a %s phase: write a zero phase to ask for silence",
			            kind_names[ph.kind]);
			return false;
		}
	}
	if (!parser_options(p, &ph))
		return false;
	return parser_push(p, &ph, start);
}

static bool parser_list(struct parser *p, int depth);

static bool parser_item(struct parser *p, int depth)
{
	parser_skip_space(p);
	size_t start = p->pos;
	if (!isdigit((unsigned char)p->text[start]))
		return parser_phase(p);
	double times;
	if (!parser_number(p, &times, "a repeat count"))
		return false;
	if (times != floor(times) || times < 1 || times > SCHEDULE_MAX_REPEAT) {
		parser_fail(p, start, "repeat count must be a whole number from 1 to %d",
		            SCHEDULE_MAX_REPEAT);
		return false;
	}
	if (!parser_accept(p, '*') || !parser_accept(p, '(')) {
		parser_fail(p, p->pos, "expected '*(' after the repeat count (N*(...))");
		return false;
	}
	if (depth >= SCHEDULE_MAX_DEPTH) {
		parser_fail(p, start, "repeats nested deeper than %d", SCHEDULE_MAX_DEPTH);
		return false;
	}
	size_t first = p->count;
	if (!parser_list(p, depth + 1))
		return false;
	if (!parser_accept(p, ')')) {
		parser_fail(p, p->pos, "expected ')' to close the group opened at column %zu",
		            start + 1);
		return false;
	}
	size_t group = p->count - first;
	for (unsigned long r = 1; r < (unsigned long)times; r++)
		for (size_t i = 0; i < group; i++) {
			/* a copy: pushing may move the array */
			struct schedule_phase copy = p->phases[first + i];
			if (!parser_push(p, &copy, start))
				return false;
		}
	return true;
}

static bool parser_list(struct parser *p, int depth)
{
	do {
		if (!parser_item(p, depth))
			return false;
	} while (parser_accept(p, ','));
	return true;
}

/* Start times, spike numbers and cumulative counts, once the phases are known. */
static bool schedule_finish(struct schedule *s, char *err, size_t err_size)
{
	double t = 0, total = 0;
	unsigned spike = 0;
	for (size_t i = 0; i < s->count; i++) {
		struct schedule_phase *ph = &s->phases[i];
		if (ph->kind == SCHEDULE_SPIKE)
			spike++;
		ph->spike = spike;
		ph->start_s = t;
		ph->count_before = total;
		if (ph->clients > s->clients_max)
			s->clients_max = ph->clients;
		t += ph->duration_s;
		total += (ph->rate_from + ph->rate_to) / 2 * ph->duration_s;
	}
	if (t > SCHEDULE_MAX_SECONDS) {
		if (err)
			snprintf(err, err_size, "schedule: %.0f s in all, longer than a week", t);
		return false;
	}
	s->duration_s = t;
	s->total = total;
	return true;
}

static char *schedule_read_file(const char *path, char *err, size_t err_size)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = malloc(SCHEDULE_MAX_FILE + 1);
	size_t n = buf ? fread(buf, 1, SCHEDULE_MAX_FILE + 1, f) : 0;
	bool bad = ferror(f);
	fclose(f);
	if (!buf || bad || n > SCHEDULE_MAX_FILE) {
		snprintf(err, err_size, "%s: %s", path,
		         !buf  ? "out of memory"
		         : bad ? "read error"
		               : "larger than 1 MiB");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (strlen(buf) != n) {
		snprintf(err, err_size, "%s: contains a NUL byte", path);
		free(buf);
		return NULL;
	}
	return buf;
}

bool schedule_parse(const char *text, struct schedule *out, char *err, size_t err_size)
{
	char dummy[8];
	if (!err) {
		err = dummy;
		err_size = sizeof(dummy);
	}
	memset(out, 0, sizeof(*out));
	char *file_text = NULL;
	struct parser p = {.text = text, .err = err, .err_size = err_size};
	if (text[0] == '@') {
		file_text = schedule_read_file(text + 1, err, err_size);
		if (!file_text)
			return false;
		p.text = file_text;
		p.source = text + 1;
	}
	bool ok = parser_list(&p, 0);
	parser_skip_space(&p);
	if (ok && p.text[p.pos] != '\0') {
		if (p.text[p.pos] == ')')
			parser_fail(&p, p.pos, "')' without a matching N*(");
		else
			parser_fail(&p, p.pos, "expected ',' between phases, found '%.12s'",
			            p.text + p.pos);
		ok = false;
	}
	free(file_text);
	if (!ok) {
		free(p.phases);
		return false;
	}
	out->phases = p.phases;
	out->count = p.count;
	if (!schedule_finish(out, err, err_size)) {
		schedule_free(out);
		return false;
	}
	return true;
}

bool schedule_constant(struct schedule *out, enum schedule_kind kind, double seconds, double rate)
{
	memset(out, 0, sizeof(*out));
	out->phases = calloc(1, sizeof(*out->phases));
	if (!out->phases || !(seconds > 0) || rate < 0)
		return free(out->phases), false;
	out->phases[0] = (struct schedule_phase){
	    .kind = kind, .duration_s = seconds, .rate_from = rate, .rate_to = rate};
	out->count = 1;
	return schedule_finish(out, NULL, 0);
}

void schedule_free(struct schedule *s)
{
	free(s->phases);
	memset(s, 0, sizeof(*s));
}

static size_t schedule_index_at(const struct schedule *s, double t)
{
	size_t lo = 0, hi = s->count; /* first phase whose start is > t, minus one */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->phases[mid].start_s <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

const struct schedule_phase *schedule_phase_at(const struct schedule *s, double t)
{
	if (s->count == 0)
		return NULL;
	return &s->phases[schedule_index_at(s, t)];
}

static double phase_count(const struct schedule_phase *ph, double u)
{
	if (u <= 0)
		return 0;
	if (u > ph->duration_s)
		u = ph->duration_s;
	double slope = (ph->rate_to - ph->rate_from) / ph->duration_s;
	return ph->rate_from * u + slope * u * u / 2;
}

double schedule_rate_at(const struct schedule *s, double t)
{
	if (s->count == 0 || t < 0 || t >= s->duration_s)
		return 0;
	const struct schedule_phase *ph = &s->phases[schedule_index_at(s, t)];
	return ph->rate_from + (ph->rate_to - ph->rate_from) * (t - ph->start_s) / ph->duration_s;
}

double schedule_count_at(const struct schedule *s, double t)
{
	if (s->count == 0 || t <= 0)
		return 0;
	if (t >= s->duration_s)
		return s->total;
	const struct schedule_phase *ph = &s->phases[schedule_index_at(s, t)];
	return ph->count_before + phase_count(ph, t - ph->start_s);
}

unsigned long long schedule_total_queries(const struct schedule *s)
{
	return (unsigned long long)floor(s->total + 0.5);
}

unsigned long long schedule_due(const struct schedule *s, double t)
{
	unsigned long long due = (unsigned long long)floor(schedule_count_at(s, t) + 0.5);
	unsigned long long total = schedule_total_queries(s);
	return due < total ? due : total;
}

double schedule_time_of(const struct schedule *s, unsigned long long k)
{
	double n = (double)k + 0.5;
	if (s->count == 0 || n > s->total + 1e-9)
		return s->duration_s + 1;
	size_t lo = 0, hi = s->count; /* last phase with count_before < n */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->phases[mid].count_before < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct schedule_phase *ph = &s->phases[lo ? lo - 1 : 0];
	double c = n - ph->count_before;
	double a = (ph->rate_to - ph->rate_from) / ph->duration_s / 2, b = ph->rate_from;
	/* a*u^2 + b*u = c, in the form that stays exact when a is 0 or negative */
	double disc = b * b + 4 * a * c;
	double u = c > 0 ? 2 * c / (b + sqrt(disc > 0 ? disc : 0)) : 0;
	if (!isfinite(u) || u > ph->duration_s)
		u = ph->duration_s;
	return ph->start_s + u;
}

void schedule_describe(const struct schedule *s, char *buf, size_t buf_size)
{
	int n = snprintf(buf, buf_size, "%zu phases, %.3f s, %llu queries, %u spikes", s->count,
	                 s->duration_s, schedule_total_queries(s),
	                 s->count ? s->phases[s->count - 1].spike : 0);
	if (s->clients_max && n >= 0 && (size_t)n < buf_size)
		snprintf(buf + n, buf_size - (size_t)n, ", up to %u clients", s->clients_max);
}
