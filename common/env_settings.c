/* common/env_settings.c - the settings a row's env cell asks for, and whether they took. */
#include "env_settings.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "allocators/allocator.h"

/* The allocator whose variable var sets several settings, or NULL. */
static const struct allocator_env_list *env_list_of(const char *var)
{
	for (size_t i = 0; i < allocator_count(); i++) {
		const struct allocator_env_list *l = &allocator_at(i)->env;
		if (l->var && strcmp(l->var, var) == 0)
			return l;
	}
	return NULL;
}

/* s->name and s->value from "NAME<sep>VALUE" (an item without sep: both the whole item). */
static void setting_split(struct env_setting *s, const char *prefix, const char *item, size_t len,
                          char sep)
{
	const char *cut = memchr(item, sep, len);
	size_t name_len = cut ? (size_t)(cut - item) : len;
	const char *value = cut ? cut + 1 : item;
	size_t value_len = cut ? len - name_len - 1 : len;
	snprintf(s->name, sizeof(s->name), "%s%.*s", prefix, (int)name_len, item);
	snprintf(s->value, sizeof(s->value), "%.*s", (int)value_len, value);
}

static void word_settings(const char *word, size_t len,
                          void (*each)(const struct env_setting *s, void *arg), void *arg)
{
	const char *eq = memchr(word, '=', len);
	size_t var_len = eq ? (size_t)(eq - word) : len;
	char var[128];
	snprintf(var, sizeof(var), "%.*s", (int)var_len, word);
	/* Not allocator settings: which allocator a preload gives is checked by the allocator the
	 * process reports, and ALLOCSPIKE_DAEMON_* are a daemon definition's knobs (its thread
	 * count: docs/daemons.md), which no allocator reports. */
	if (strcmp(var, "LD_PRELOAD") == 0 || strncmp(var, "ALLOCSPIKE_DAEMON_", 18) == 0)
		return;
	struct env_setting s = {0};
	const struct allocator_env_list *list = env_list_of(var);
	if (!list) {
		setting_split(&s, "", word, len, '=');
		each(&s, arg);
		return;
	}
	s.zero_when_unset = list->zero_when_unset;
	const char *p = eq ? eq + 1 : word, *end = word + len;
	while (p <= end) {
		const char *stop = memchr(p, list->item_sep, (size_t)(end - p));
		if (!stop)
			stop = end;
		if (stop > p) {
			setting_split(&s, list->prefix, p, (size_t)(stop - p), list->value_sep);
			each(&s, arg);
		}
		p = stop + 1;
	}
}

void env_settings_each(const char *cell, void (*each)(const struct env_setting *s, void *arg),
                       void *arg)
{
	if (!cell || strcmp(cell, "-") == 0)
		return;
	const char *p = cell;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			return;
		size_t len = strcspn(p, " \t\n");
		word_settings(p, len, each, arg);
		p += len;
	}
}

/* A value as the comparison sees it: a number, or text. */
struct normal {
	bool is_number;
	double number;
	const char *text;
};

static bool text_is_decimal(const char *t)
{
	const char *p = t + (*t == '-');
	size_t whole = strspn(p, "0123456789");
	if (whole == 0)
		return false;
	p += whole;
	if (*p == '.') {
		size_t frac = strspn(p + 1, "0123456789");
		if (frac == 0)
			return false;
		p += 1 + frac;
	}
	return *p == '\0';
}

static struct normal normal_of_text(const char *t)
{
	static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no",
	                                                                       "off"};
	for (size_t i = 0; i < 3; i++) {
		if (strcasecmp(t, yes[i]) == 0)
			return (struct normal){true, 1, NULL};
		if (strcasecmp(t, no[i]) == 0)
			return (struct normal){true, 0, NULL};
	}
	if (text_is_decimal(t))
		return (struct normal){true, strtod(t, NULL), NULL};
	if ((t[0] == '0') && (t[1] == 'x' || t[1] == 'X') && t[2] &&
	    strspn(t + 2, "0123456789abcdefABCDEF") == strlen(t + 2)) {
		errno = 0;
		unsigned long long v = strtoull(t + 2, NULL, 16);
		return (struct normal){true, errno ? HUGE_VAL : (double)v, NULL};
	}
	return (struct normal){false, 0, t};
}

/* The reported value normalised; false for a value that is neither (an object, a list, null). */
static bool normal_of_json(const json_t *v, struct normal *out)
{
	if (json_is_boolean(v))
		*out = (struct normal){true, json_is_true(v) ? 1 : 0, NULL};
	else if (json_is_number(v))
		*out = (struct normal){true, json_number_value(v), NULL};
	else if (json_is_string(v))
		*out = normal_of_text(json_string_value(v));
	else
		return false;
	return true;
}

static bool normal_equal(struct normal a, struct normal b)
{
	if (a.is_number != b.is_number)
		return false;
	return a.is_number ? a.number == b.number : strcmp(a.text, b.text) == 0;
}

static bool want_is_zero(const char *want)
{
	if (strcmp(want, "0") == 0)
		return true;
	return strncmp(want, "0x", 2) == 0 && want[2] && strspn(want + 2, "0") == strlen(want + 2);
}

struct check_state {
	const json_t *settings; /* allocator_settings, or NULL when the report is not JSON */
	bool readable;
	FILE *out;
	int bad;
};

static void check_one(const struct env_setting *s, void *arg)
{
	struct check_state *c = arg;
	const json_t *got = c->readable ? json_object_get(c->settings, s->name) : NULL;
	struct normal have, want = normal_of_text(s->value);
	if (s->zero_when_unset && want_is_zero(s->value))
		fprintf(c->out,
		        "%s=%s: the allocator reports %s as 0, so 0 cannot be shown to take\n",
		        s->name, s->value, s->zero_when_unset);
	else if (!c->readable)
		fprintf(c->out, "%s=%s: the binary's --version --json is not JSON\n", s->name,
		        s->value);
	else if (!got)
		fprintf(c->out,
		        "%s=%s: the allocator does not report %s, so it cannot be shown to take\n",
		        s->name, s->value, s->name);
	else if (normal_of_json(got, &have) && normal_equal(have, want))
		return;
	else if (json_is_number(got))
		fprintf(c->out, "%s=%s did not take: the allocator reports %.15g\n", s->name,
		        s->value, json_number_value(got));
	else {
		char *text =
		    json_is_string(got) ? NULL : json_dumps(got, JSON_ENCODE_ANY | JSON_COMPACT);
		fprintf(c->out, "%s=%s did not take: the allocator reports %s\n", s->name, s->value,
		        text ? text : json_string_value(got));
		free(text);
	}
	c->bad++;
}

int env_settings_check(const char *cell, const char *version_json, FILE *out)
{
	json_t *version = json_loads(version_json, JSON_DECODE_ANY, NULL);
	struct check_state c = {NULL, version != NULL, out, 0};
	if (version) {
		const json_t *s = json_object_get(version, "allocator_settings");
		c.settings = json_is_object(s) ? s : NULL;
	}
	env_settings_each(cell, check_one, &c);
	json_decref(version);
	return c.bad;
}
