/* reports/gate.c - a small expression language over summary figures, evaluated per variant. */
#include "gate.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "fixed_point.h"
#include "strbuf.h"
#include "summary_json.h"
#include "terminal_text.h"

/* A value is a number, a truth, or one of those per variant (a vector). A vector carries how it
 * becomes a single truth: "any" (the default for a bare figure) or "all". avail=false marks a
 * value that is n/a (for a number or truth, avail[0]; for a vector, per variant): it takes no
 * part. Its arrays have one slot per variant of the run (at least one): every variant takes part,
 * however many the run has. */
enum kind { NUM, BOOL, NUMVEC, BOOLVEC };
enum quant { Q_ANY, Q_ALL };

struct value {
	enum kind kind;
	enum quant quant;
	double *x; /* NUM: x[0]; NUMVEC: per variant */
	bool *b;   /* BOOL: b[0]; BOOLVEC: per variant */
	bool *avail;
};

struct gate {
	const json_t *summary;
	const json_t *baseline; /* for `baseline.` names; may be NULL */
	bool allow_missing;
	const char **names; /* the run's variants, in order */
	size_t n;
	size_t depth; /* nested parentheses, calls and unary operators being parsed */
	const char *src, *p;
	const char *mark; /* where the token being judged starts: the caret goes there */
	char *err;
	size_t err_size;
	bool failed;
	struct strbuf why;     /* the comparisons that held, for the failure message */
	struct strbuf missing; /* the figures that were n/a, one a line */
	json_t *seen; /* each figure read, by its name as written: its value or {variant: value} */
};

static void gate_error(struct gate *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gate_error(struct gate *g, const char *fmt, ...)
{
	if (g->failed)
		return;
	g->failed = true;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	size_t col = (size_t)((g->mark ? g->mark : g->p) - g->src);
	/* For a terminal: names from the run and the expression escaped, the caret under the fault
	 * as the escaped expression shows it (one column a character). */
	struct strbuf shown = {0}, before = {0};
	terminal_text_append(&shown, msg);
	strbuf_append(&shown, "\n  ");
	terminal_text_append(&shown, g->src);
	char *head = strndup(g->src, col);
	terminal_text_append(&before, head ? head : "");
	size_t width = 0;
	for (size_t i = 0; i < before.len; i++)
		width += ((unsigned char)before.s[i] & 0xC0) != 0x80;
	snprintf(g->err, g->err_size, "--fail-if column %zu: %s\n  %*s^", col + 1,
	         shown.s ? shown.s : "", (int)width, "");
	free(head);
	strbuf_free(&shown);
	strbuf_free(&before);
}

/* A value with room for every variant; aborts on out of memory, as strbuf does (a gate has no
 * way on). */
static void value_init(const struct gate *g, struct value *v)
{
	size_t n = g->n ? g->n : 1;
	*v = (struct value){.kind = NUM};
	v->x = calloc(n, sizeof(*v->x));
	v->b = calloc(n, sizeof(*v->b));
	v->avail = calloc(n, sizeof(*v->avail));
	if (!v->x || !v->b || !v->avail) {
		fprintf(stderr, "allocspike-report: out of memory\n");
		exit(2);
	}
}

static void value_free(struct value *v)
{
	free(v->x);
	free(v->b);
	free(v->avail);
}

/* Enters one level of nesting, for the token at `at`; false (after saying so, the caret under
 * that token) beyond GATE_MAX_DEPTH, so that no input can exhaust the stack. Every recursive
 * rule calls it. */
static bool depth_enter(struct gate *g, const char *at)
{
	if (g->depth >= GATE_MAX_DEPTH) {
		g->mark = at;
		gate_error(g,
		           "nested deeper than %d levels (parentheses, calls, '!', 'not' and '-')",
		           GATE_MAX_DEPTH);
		return false;
	}
	g->depth++;
	return true;
}

/* Adds to names (an object kept as an ordered set) every path under x that a condition can test:
 * numbers, truths and nulls (n/a in this run), nested objects joined with '.', and a variant's
 * spikes by number (spikes.N.x). */
static void collect_paths(const json_t *x, const char *prefix, bool variant_top, json_t *names)
{
	char path[256];
	const char *key;
	json_t *v;
	if (!json_is_object(x) && !json_is_array(x)) {
		if (!json_is_string(x) && *prefix)
			json_object_set_new(names, prefix, json_true());
		return;
	}
	json_object_foreach((json_t *)x, key, v)
	{
		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", key);
		if (!json_is_array(v)) {
			collect_paths(v, path, false, names);
		} else if (variant_top && strcmp(key, "spikes") == 0) {
			size_t i;
			json_t *spike;
			json_array_foreach(v, i, spike)
			{
				char sp[300];
				snprintf(
				    sp, sizeof(sp), "%s.%lld", path,
				    (long long)json_integer_value(json_object_get(spike, "spike")));
				collect_paths(spike, sp, false, names);
			}
		}
	}
}

/* The figures of every variant, and those of the whole run, as ordered sets (objects). */
static void figure_paths(const json_t *summary, json_t *variant_names, json_t *run_names)
{
	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(summary, "variants"), key, v)
	{
		collect_paths(v, "", true, variant_names);
	}
	json_object_foreach((json_t *)summary, key, v)
	{
		if (strcmp(key, "variants") != 0 && strcmp(key, "findings") != 0 &&
		    !json_is_array(v))
			collect_paths(v, key, false, run_names);
	}
}

void gate_list(const json_t *summary, FILE *out)
{
	json_t *per_variant = json_object(), *per_run = json_object();
	figure_paths(summary, per_variant, per_run);
	const char *key;
	json_t *v;
	fputs(
	    "# per variant: NAME is every variant (any(), all(), max(), min()), NAME[VARIANT] "
	    "one;\n"
	    "# spikes.N.x is spike N, spikes.last.x the last spike; baseline.NAME is NAME of the\n"
	    "# --baseline run\n",
	    out);
	json_object_foreach(per_variant, key, v)
	{
		terminal_text_fputs(key, out);
		fputc('\n', out);
	}
	/* old names kept one release (summary.json "aliases"), each with the name it stands for */
	json_object_foreach(json_object_get(summary, "aliases"), key, v)
	{
		fputs("# alias: ", out);
		terminal_text_fputs(key, out);
		fputs(" = ", out);
		terminal_text_fputs(json_string_value(v), out);
		fputc('\n', out);
	}
	fputs("# the whole run\n", out);
	json_object_foreach(per_run, key, v)
	{
		if (!json_object_get(per_variant, key)) {
			terminal_text_fputs(key, out);
			fputc('\n', out);
		}
	}
	json_decref(per_variant);
	json_decref(per_run);
}

/* Edits (insert, delete, replace) from a to b, for close-match suggestions. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t n = strlen(b), row[256];
	if (n >= 256)
		return (size_t)-1;
	for (size_t j = 0; j <= n; j++)
		row[j] = j;
	for (size_t i = 1; a[i - 1]; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= n; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[n];
}

/* The key of candidates (an object) closest to name, or NULL when none is close (within a third
 * of the name's length, at least 2 edits). */
static const char *closest(const char *name, const json_t *candidates)
{
	const char *key, *best = NULL;
	json_t *v;
	size_t best_d = strlen(name) / 3 < 2 ? 2 : strlen(name) / 3;
	json_object_foreach((json_t *)candidates, key, v)
	{
		size_t d = edit_distance(name, key);
		if (d <= best_d && (!best || d < best_d)) {
			best = key;
			best_d = d;
		}
	}
	return best;
}

/* " (did you mean \"X\"?)" for a figure name, or "". */
static void suggest_figure(const json_t *summary, const char *name, char *out, size_t size)
{
	json_t *per_variant = json_object(), *per_run = json_object();
	figure_paths(summary, per_variant, per_run);
	json_object_update_missing(per_variant, per_run);
	const char *near = closest(name, per_variant);
	snprintf(out, size, near ? " (did you mean \"%s\"?)" : "%s", near ? near : "");
	json_decref(per_variant);
	json_decref(per_run);
}

static void skip_space(struct gate *g)
{
	while (isspace((unsigned char)*g->p))
		g->p++;
}

static bool accept(struct gate *g, const char *tok)
{
	skip_space(g);
	size_t n = strlen(tok);
	if (strncmp(g->p, tok, n) != 0)
		return false;
	/* a word operator must not be the start of a longer name */
	if (isalpha((unsigned char)tok[0]) && (isalnum((unsigned char)g->p[n]) || g->p[n] == '_'))
		return false;
	g->p += n;
	return true;
}

static size_t read_name(struct gate *g, char *out, size_t size, bool variant)
{
	skip_space(g);
	size_t n = 0;
	while (isalnum((unsigned char)g->p[n]) || g->p[n] == '_' || g->p[n] == '.' ||
	       (variant && (g->p[n] == '-' || g->p[n] == '+')))
		n++;
	if (n == 0 || n >= size)
		return 0;
	memcpy(out, g->p, n);
	out[n] = '\0';
	g->p += n;
	return n;
}

static void parse_or(struct gate *g, struct value *v);

/* Collapses a per-variant truth into one truth by its quantifier, of the variants that have it;
 * n/a (avail[0] false) when none has. */
static void reduce(struct gate *g, struct value *v)
{
	if (v->kind == NUM || v->kind == NUMVEC) {
		gate_error(g, "a number where a condition (a comparison) is needed");
		return;
	}
	if (v->kind != BOOLVEC)
		return;
	size_t avail = 0, yes = 0;
	for (size_t i = 0; i < g->n; i++)
		if (v->avail[i]) {
			avail++;
			yes += v->b[i];
		}
	v->kind = BOOL;
	v->avail[0] = avail > 0;
	v->b[0] = avail > 0 && (v->quant == Q_ANY ? yes > 0 : yes == avail);
}

/* A value as check shows it: six significant digits, never in exponent form. */
static void append_json_value(struct strbuf *b, const json_t *x)
{
	char t[64];
	if (json_is_number(x))
		strbuf_append(b, fixed_point(t, sizeof(t), json_number_value(x), 6));
	else if (json_is_boolean(x))
		strbuf_append(b, json_is_true(x) ? "true" : "false");
	else
		strbuf_append(b, "n/a");
}

/* Notes that the figure written `label` is n/a for variant (NULL: the run) once, for the
 * failure message. */
static void note_missing(struct gate *g, const char *label, const char *variant)
{
	strbuf_append(&g->missing, "  ");
	terminal_text_append(&g->missing, label);
	strbuf_append(&g->missing, " is n/a for ");
	if (variant)
		terminal_text_append(&g->missing, variant);
	else
		strbuf_append(&g->missing, "the run");
	strbuf_append(&g->missing, "\n");
}

/* Whether any variant of variants has a value (null too) at path. */
static bool variant_figure(const json_t *variants, const char *path)
{
	const char *key;
	json_t *row;
	json_object_foreach((json_t *)variants, key, row)
	{
		if (summary_lookup(row, path))
			return true;
	}
	return false;
}

/* Sets slot i of v from x: a number, a truth, or n/a (NULL or null). False (after saying so) for
 * anything else: text, an object, a list. */
static bool value_set(struct gate *g, struct value *v, size_t i, const json_t *x, const char *path)
{
	if (x && !json_is_null(x) && !json_is_number(x) && !json_is_boolean(x)) {
		gate_error(g, "\"%s\" is not a number or a truth", path);
		return false;
	}
	v->avail[i] = x && !json_is_null(x);
	v->x[i] = summary_value_number(x);
	v->b[i] = json_is_true(x);
	return true;
}

/* Looks a figure up, by its name as written (label: "baseline." reads the baseline run) for one
 * variant or (variant NULL) for every variant of the run, else for the whole run; keeps what it
 * read in g->seen and each n/a in g->missing. */
static void figure_lookup(struct gate *g, const char *label, const char *variant, struct value *v)
{
	bool from_baseline = strncmp(label, "baseline.", 9) == 0;
	const char *path = from_baseline ? label + 9 : label;
	const json_t *src = from_baseline ? g->baseline : g->summary;
	const char *which = from_baseline ? "the baseline run" : "this run";
	if (!src) {
		gate_error(g, "\"%s\" is a figure of the baseline: give --baseline RUN_DIR", label);
		return;
	}
	const json_t *variants = json_object_get(src, "variants");
	char shown[300], hint[300];
	snprintf(shown, sizeof(shown), "%s[%s]", label, variant ? variant : "");
	bool first_read = !json_object_get(g->seen, variant ? shown : label);
	if (variant) {
		const json_t *row = json_object_get(variants, variant);
		if (!row) {
			const char *near = closest(variant, variants);
			snprintf(hint, sizeof(hint), near ? " (did you mean \"%s\"?)" : "%s",
			         near ? near : "");
			gate_error(g, "no variant \"%s\" in %s%s", variant, which, hint);
			return;
		}
		json_t *x = summary_lookup(row, path);
		if (!x && !variant_figure(variants, path)) {
			suggest_figure(src, path, hint, sizeof(hint));
			gate_error(g, "unknown figure \"%s\"%s", path, hint);
			return;
		}
		if (!value_set(g, v, 0, x, path))
			return;
		v->kind = json_is_boolean(x) ? BOOL : NUM;
		if (first_read) {
			json_object_set_new(g->seen, shown, x ? json_incref(x) : json_null());
			if (!v->avail[0])
				note_missing(g, label, variant);
		}
		return;
	}
	if (variant_figure(variants, path)) {
		json_t *per = json_object();
		bool truth = false;
		v->kind = NUMVEC;
		v->quant = Q_ANY;
		for (size_t i = 0; i < g->n && !g->failed; i++) {
			const json_t *row = json_object_get(variants, g->names[i]);
			if (!row && from_baseline) {
				gate_error(g,
				           "variant \"%s\" is not in the baseline run: %s cannot "
				           "be compared (variants are matched by name)",
				           g->names[i], label);
				break;
			}
			json_t *x = summary_lookup(row, path);
			if (!value_set(g, v, i, x, path))
				break;
			truth = truth || json_is_boolean(x);
			json_object_set_new(per, g->names[i], x ? json_incref(x) : json_null());
			if (first_read && !v->avail[i])
				note_missing(g, label, g->names[i]);
		}
		if (truth)
			v->kind = BOOLVEC;
		if (first_read && !g->failed)
			json_object_set(g->seen, label, per);
		json_decref(per);
		return;
	}
	/* Not a variant figure: a figure of the whole run (spike_count, harness.saturated_s). */
	json_t *x = summary_lookup(src, path);
	if (!x) {
		suggest_figure(src, path, hint, sizeof(hint));
		gate_error(g, "unknown figure \"%s\"%s (every figure: check RUN_DIR --list)", path,
		           hint);
		return;
	}
	if (!value_set(g, v, 0, x, path))
		return;
	v->kind = json_is_boolean(x) ? BOOL : NUM;
	if (v->kind == BOOL) {
		/* a truth of the run (validity.valid): a condition by itself */
		strbuf_append(&g->why, "  ");
		terminal_text_append(&g->why, label);
		strbuf_printf(&g->why, " is %s\n", v->b[0] ? "true" : "false");
	}
	if (first_read) {
		json_object_set(g->seen, label, x);
		if (!v->avail[0])
			note_missing(g, label, NULL);
	}
}

static void parse_primary(struct gate *g, struct value *v)
{
	skip_space(g);
	memset(v->avail, 0, (g->n ? g->n : 1) * sizeof(*v->avail));
	if (accept(g, "(")) {
		if (!depth_enter(g, g->p - 1))
			return;
		parse_or(g, v);
		g->depth--;
		if (!g->failed && !accept(g, ")"))
			gate_error(g, "expected ')'");
		return;
	}
	size_t number_len = cli_scan_number(g->p, &v->x[0]); /* the command lines' numbers */
	if (number_len) {
		v->kind = NUM;
		v->avail[0] = true;
		g->p += number_len;
		return;
	}
	static const char *const funcs[] = {"any", "all", "max", "min"};
	for (size_t f = 0; f < 4; f++) {
		const char *save = g->p;
		if (!accept(g, funcs[f]))
			continue;
		if (!accept(g, "(")) {
			g->p = save; /* a figure whose name starts like a function */
			break;
		}
		if (!depth_enter(g, save + strspn(save, " \t\n\v\f\r")))
			return;
		parse_or(g, v);
		g->depth--;
		if (g->failed)
			return;
		if (!accept(g, ")"))
			return gate_error(g, "expected ')' after %s(...", funcs[f]);
		if (v->kind != NUMVEC && v->kind != BOOLVEC)
			return gate_error(g, "%s() needs a figure without [variant]", funcs[f]);
		if (f < 2) {
			v->quant = f == 0 ? Q_ANY : Q_ALL;
			if (v->kind == BOOLVEC)
				reduce(g, v);
			return;
		}
		double best = NAN;
		for (size_t i = 0; i < g->n; i++)
			if (v->avail[i] &&
			    (isnan(best) || (f == 2 ? v->x[i] > best : v->x[i] < best)))
				best = v->x[i];
		v->kind = NUM;
		v->x[0] = best;
		v->avail[0] = !isnan(best); /* n/a when no variant has the figure */
		return;
	}
	char name[128], variant[128];
	const char *name_at = g->p;
	if (!read_name(g, name, sizeof(name), false))
		return gate_error(g, "expected a number, a figure name or '('");
	if (accept(g, "[")) {
		skip_space(g);
		const char *variant_at = g->p;
		if (!read_name(g, variant, sizeof(variant), true) || !accept(g, "]"))
			return gate_error(g, "expected a variant name and ']'");
		const json_t *src = strncmp(name, "baseline.", 9) == 0 ? g->baseline : g->summary;
		g->mark = json_object_get(json_object_get(src, "variants"), variant) ? name_at
		                                                                     : variant_at;
		figure_lookup(g, name, variant, v);
	} else {
		g->mark = name_at;
		figure_lookup(g, name, NULL, v);
	}
	if (!g->failed)
		g->mark = NULL;
}

static void parse_unary(struct gate *g, struct value *v)
{
	if (accept(g, "-")) {
		if (!depth_enter(g, g->p - 1))
			return;
		parse_unary(g, v);
		g->depth--;
		if (g->failed)
			return;
		if (v->kind != NUM && v->kind != NUMVEC)
			return gate_error(g, "'-' needs a number");
		for (size_t i = 0; i < (g->n ? g->n : 1); i++)
			v->x[i] = -v->x[i];
		return;
	}
	parse_primary(g, v);
}

/* Applies op element by element; a number meets a vector by being repeated. */
static void combine(struct gate *g, struct value *a, const struct value *b, char op)
{
	if ((a->kind != NUM && a->kind != NUMVEC) || (b->kind != NUM && b->kind != NUMVEC))
		return gate_error(g, "'%c' needs numbers", op);
	bool vec = a->kind == NUMVEC || b->kind == NUMVEC;
	if (a->kind == NUM && vec)
		a->quant = b->quant;
	/* a number's slot 0 is overwritten by the first result: read it once */
	double a0 = a->x[0], b0 = b->x[0];
	bool a0_avail = a->avail[0], b0_avail = b->avail[0];
	size_t n = vec ? g->n : 1;
	for (size_t i = 0; i < n; i++) {
		double x = a->kind == NUM ? a0 : a->x[i];
		double y = b->kind == NUM ? b0 : b->x[i];
		bool av = (a->kind == NUM ? a0_avail : a->avail[i]) &&
		          (b->kind == NUM ? b0_avail : b->avail[i]);
		double r = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
		a->x[i] = r;
		a->avail[i] = av && !isnan(r);
	}
	a->kind = vec ? NUMVEC : NUM;
}

static void parse_mul(struct gate *g, struct value *v)
{
	parse_unary(g, v);
	while (!g->failed) {
		char op = accept(g, "*") ? '*' : accept(g, "/") ? '/' : 0;
		if (!op)
			return;
		struct value r;
		value_init(g, &r);
		parse_unary(g, &r);
		if (!g->failed)
			combine(g, v, &r, op);
		value_free(&r);
	}
}

static void parse_add(struct gate *g, struct value *v)
{
	parse_mul(g, v);
	while (!g->failed) {
		char op = accept(g, "+") ? '+' : accept(g, "-") ? '-' : 0;
		if (!op)
			return;
		struct value r;
		value_init(g, &r);
		parse_mul(g, &r);
		if (!g->failed)
			combine(g, v, &r, op);
		value_free(&r);
	}
}

static bool compare(double x, double y, const char *op)
{
	if (strcmp(op, ">") == 0)
		return x > y;
	if (strcmp(op, ">=") == 0)
		return x >= y;
	if (strcmp(op, "<") == 0)
		return x < y;
	if (strcmp(op, "<=") == 0)
		return x <= y;
	if (strcmp(op, "==") == 0)
		return x == y;
	return x != y;
}

static void parse_cmp(struct gate *g, struct value *v)
{
	skip_space(g);
	const char *start = g->p;
	parse_add(g, v);
	if (g->failed)
		return;
	static const char *const ops[] = {">=", "<=", "==", "!=", ">", "<"};
	const char *op = NULL;
	for (size_t i = 0; i < 6 && !op; i++)
		if (accept(g, ops[i]))
			op = ops[i];
	if (!op)
		return;
	struct value rv, *r = &rv;
	value_init(g, r);
	parse_add(g, r);
	const char *end = g->p;
	while (end > start && isspace((unsigned char)end[-1]))
		end--;
	if (!g->failed &&
	    ((v->kind != NUM && v->kind != NUMVEC) || (r->kind != NUM && r->kind != NUMVEC)))
		gate_error(g, "'%s' compares numbers", op);
	if (g->failed) {
		value_free(r);
		return;
	}
	bool vec = v->kind == NUMVEC || r->kind == NUMVEC;
	enum quant q = v->kind == NUMVEC ? v->quant : r->quant;
	double v0 = v->x[0], r0 = r->x[0];
	bool v0_avail = v->avail[0], r0_avail = r->avail[0];
	size_t n = vec ? g->n : 1;
	for (size_t i = 0; i < n; i++) {
		double x = v->kind == NUM ? v0 : v->x[i];
		double y = r->kind == NUM ? r0 : r->x[i];
		bool av = (v->kind == NUM ? v0_avail : v->avail[i]) &&
		          (r->kind == NUM ? r0_avail : r->avail[i]);
		v->b[i] = av && compare(x, y, op);
		v->avail[i] = av;
		if (v->b[i]) {
			char *text = strndup(start, (size_t)(end - start));
			strbuf_append(&g->why, "  ");
			terminal_text_append(&g->why, text);
			free(text);
			if (vec) {
				strbuf_append(&g->why, " holds for ");
				terminal_text_append(&g->why, g->names[i]);
			}
			/* %g's six digits, never "2.30687e+07" */
			char xt[64], yt[64];
			strbuf_printf(&g->why, ": %s %s %s\n", fixed_point(xt, sizeof(xt), x, 6),
			              op, fixed_point(yt, sizeof(yt), y, 6));
		}
	}
	v->kind = vec ? BOOLVEC : BOOL;
	v->quant = q;
	value_free(r);
}

static void parse_not(struct gate *g, struct value *v)
{
	skip_space(g);
	const char *at = g->p;
	if (accept(g, "!") || accept(g, "not")) {
		if (!depth_enter(g, at))
			return;
		parse_not(g, v);
		g->depth--;
		reduce(g, v);
		v->b[0] = v->avail[0] && !v->b[0]; /* n/a stays n/a */
		return;
	}
	parse_cmp(g, v);
}

/* a && b, a || b of two truths: an n/a side takes no part; both n/a is n/a. */
static void join(struct value *v, const struct value *r, bool and)
{
	if (!r->avail[0])
		return;
	v->b[0] = !v->avail[0] ? r->b[0] : and? v->b[0] && r->b[0] : v->b[0] || r->b[0];
	v->avail[0] = true;
}

static void parse_and(struct gate *g, struct value *v)
{
	parse_not(g, v);
	while (!g->failed && (accept(g, "&&") || accept(g, "and"))) {
		reduce(g, v);
		struct value r;
		value_init(g, &r);
		parse_not(g, &r);
		reduce(g, &r);
		join(v, &r, true);
		value_free(&r);
	}
}

static void parse_or(struct gate *g, struct value *v)
{
	parse_and(g, v);
	while (!g->failed && (accept(g, "||") || accept(g, "or"))) {
		reduce(g, v);
		struct value r;
		value_init(g, &r);
		parse_and(g, &r);
		reduce(g, &r);
		join(v, &r, false);
		value_free(&r);
	}
}

/* g->seen on one line: "name: a=1 b=n/a; name[a]=2; spike_count=3". */
static char *values_line(const struct gate *g)
{
	struct strbuf b = {0};
	const char *label, *variant;
	json_t *x, *y;
	json_object_foreach(g->seen, label, x)
	{
		if (b.len)
			strbuf_append(&b, "; ");
		terminal_text_append(&b, label);
		if (!json_is_object(x)) {
			strbuf_append(&b, "=");
			append_json_value(&b, x);
			continue;
		}
		strbuf_append(&b, ":");
		json_object_foreach(x, variant, y)
		{
			strbuf_append(&b, " ");
			terminal_text_append(&b, variant);
			strbuf_append(&b, "=");
			append_json_value(&b, y);
		}
	}
	return strbuf_take(&b);
}

enum gate_result gate_eval(const json_t *summary, const char *expr, const struct gate_options *opt,
                           struct gate_outcome *out)
{
	*out = (struct gate_outcome){.result = GATE_ERROR};
	struct gate g = {.summary = summary,
	                 .baseline = opt ? opt->baseline : NULL,
	                 .allow_missing = opt && opt->allow_missing,
	                 .src = expr,
	                 .p = expr,
	                 .err = out->err,
	                 .err_size = sizeof(out->err)};
	size_t len = strlen(expr);
	if (len > GATE_MAX_EXPR_LEN) {
		/* not shown: a caret thousands of columns away helps no one */
		snprintf(out->err, sizeof(out->err),
		         "--fail-if column %d: the expression is %zu bytes long, "
		         "longer than the limit of %d",
		         GATE_MAX_EXPR_LEN + 1, len, GATE_MAX_EXPR_LEN);
		return GATE_ERROR;
	}
	const json_t *order = json_object_get(summary, "variant_order");
	g.names = calloc(json_array_size(order) + 1, sizeof(*g.names));
	g.seen = json_object();
	if (!g.names || !g.seen) {
		snprintf(out->err, sizeof(out->err), "out of memory");
		free(g.names);
		json_decref(g.seen);
		return GATE_ERROR;
	}
	size_t i;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		if (json_is_string(name))
			g.names[g.n++] = json_string_value(name);
	}
	struct value *v = &(struct value){0};
	value_init(&g, v);
	parse_or(&g, v);
	skip_space(&g);
	if (!g.failed && *g.p)
		gate_error(&g, "unexpected \"%s\"", g.p);
	if (!g.failed)
		reduce(&g, v);
	if (!g.failed) {
		bool fails_on_missing = g.missing.len && !g.allow_missing;
		out->result = fails_on_missing || (v->avail[0] && v->b[0]) ? GATE_TRUE : GATE_FALSE;
		out->undecided = !fails_on_missing && !v->avail[0];
		out->values = values_line(&g);
		struct strbuf why = {0};
		if (out->result == GATE_TRUE) {
			if (v->avail[0] && v->b[0])
				strbuf_append(&why, g.why.s ? g.why.s : "");
			if (fails_on_missing) {
				strbuf_append(&why, g.missing.s);
				strbuf_append(&why, "  (a figure that is n/a fails the condition; "
				                    "--allow-missing leaves such variants out)\n");
			}
		}
		out->why = strbuf_take(&why);
	}
	strbuf_free(&g.why);
	strbuf_free(&g.missing);
	json_decref(g.seen);
	value_free(v);
	free(g.names);
	return out->result;
}

void gate_outcome_free(struct gate_outcome *out)
{
	free(out->values);
	free(out->why);
	out->values = out->why = NULL;
}
