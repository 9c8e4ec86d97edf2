/* common/cli_parse.c - the one grammar of counts, numbers, sizes and durations on command lines. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* program_invocation_short_name */
#endif
#include "cli_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed_point.h"

size_t cli_scan_number(const char *s, double *value)
{
	size_t n = 0, digits = 0;
	while (isdigit((unsigned char)s[n]))
		n++, digits++;
	if (s[n] == '.' && s[n + 1] != '.') {
		n++;
		while (isdigit((unsigned char)s[n]))
			n++, digits++;
	}
	char buf[64];
	if (digits == 0 || n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*value = strtod(buf, NULL);
	return n;
}

size_t cli_scan_duration_unit(const char *s, double *seconds)
{
	static const struct {
		const char *name;
		double seconds;
	} units[] = {{"ms", 0.001}, {"s", 1}, {"m", 60}, {"h", 3600}};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t len = strlen(units[i].name);
		if (strncmp(s, units[i].name, len) == 0 && !isalnum((unsigned char)s[len])) {
			*seconds = units[i].seconds;
			return len;
		}
	}
	return 0;
}

bool cli_parse_count(const char *option, const char *text, unsigned long long min,
                     unsigned long long max, unsigned long long *out, char *err, size_t err_size)
{
	size_t n = 0;
	while (isdigit((unsigned char)text[n]))
		n++;
	errno = 0;
	unsigned long long v = n ? strtoull(text, NULL, 10) : 0;
	if (n == 0 || text[n] || errno) {
		snprintf(err, err_size, "%s: '%s' is not a whole number (e.g. %llu)", option, text,
		         min > 1 ? min : 10);
		return false;
	}
	if (v < min || v > max) {
		snprintf(err, err_size, "%s: '%s' is out of range (%llu to %llu)", option, text,
		         min, max);
		return false;
	}
	*out = v;
	return true;
}

bool cli_parse_number(const char *option, const char *text, double min, double max, double *out,
                      char *err, size_t err_size)
{
	double v = 0;
	size_t n = cli_scan_number(text, &v);
	if (n == 0 || text[n]) {
		snprintf(err, err_size, "%s: '%s' is not a number (e.g. 0.5, 20)", option, text);
		return false;
	}
	if (!(v >= min && v <= max)) {
		char lo[32], hi[32];
		snprintf(err, err_size, "%s: '%s' is out of range (%s to %s)", option, text,
		         fixed_point(lo, sizeof(lo), min, 6), fixed_point(hi, sizeof(hi), max, 6));
		return false;
	}
	*out = v;
	return true;
}

/* The multiple of a size unit: "" bytes; K KiB KB, M MiB MB, G GiB GB, the letter in either case,
 * all binary; 0 if unknown. */
static double size_unit(const char *u)
{
	if (!*u)
		return 1;
	static const char letters[] = "KMG";
	const char *letter = strchr(letters, toupper((unsigned char)u[0]));
	if (!letter || (u[1] && strcmp(u + 1, "iB") != 0 && strcmp(u + 1, "B") != 0))
		return 0;
	return (double)(1ULL << (10 * (letter - letters + 1)));
}

bool cli_parse_size(const char *option, const char *text, unsigned long long min,
                    unsigned long long max, unsigned long long *out, char *err, size_t err_size)
{
	double v = 0;
	size_t n = cli_scan_number(text, &v);
	double mult = n ? size_unit(text + n) : 0;
	if (mult == 0) {
		snprintf(err, err_size, "%s: '%s' is not a size (e.g. 4M, 512k, 1GiB)", option,
		         text);
		return false;
	}
	double bytes = v * mult; /* whole bytes, rounded down, below */
	if (!(bytes < 0x1p64) || (unsigned long long)bytes < min ||
	    (unsigned long long)bytes > max) {
		snprintf(err, err_size, "%s: '%s' is out of range (%llu to %llu bytes)", option,
		         text, min, max);
		return false;
	}
	*out = (unsigned long long)bytes;
	return true;
}

bool cli_parse_duration(const char *option, const char *text, double bare_unit, double min_s,
                        double max_s, double *seconds, char *err, size_t err_size)
{
	double v = 0, unit = bare_unit;
	size_t len = 0, n = cli_scan_number(text, &v);
	if (n && text[n])
		len = cli_scan_duration_unit(text + n, &unit);
	if (n == 0 || (text[n] && (len == 0 || text[n + len]))) {
		snprintf(err, err_size, "%s: '%s' is not a duration (e.g. 20s, 1.5m, 500ms)",
		         option, text);
		return false;
	}
	if (!text[n] && bare_unit == CLI_UNIT_REQUIRED) {
		snprintf(err, err_size, "%s: '%s' needs a unit: ms, s, m or h (e.g. %ss)", option,
		         text, text);
		return false;
	}
	double s = v * unit;
	if (!(s >= min_s && s <= max_s)) {
		char lo[32], hi[32];
		snprintf(err, err_size, "%s: '%s' is out of range (%ss to %ss)", option, text,
		         fixed_point(lo, sizeof(lo), min_s, 6),
		         fixed_point(hi, sizeof(hi), max_s, 6));
		return false;
	}
	*seconds = s;
	return true;
}

static bool complain(bool ok, const char *err)
{
	if (!ok)
		fprintf(stderr, "%s: %s\n", program_invocation_short_name, err);
	return ok;
}

bool cli_option_count(const char *option, const char *text, unsigned long long min,
                      unsigned long long max, unsigned long long *out)
{
	char err[512];
	return complain(cli_parse_count(option, text, min, max, out, err, sizeof(err)), err);
}

bool cli_option_number(const char *option, const char *text, double min, double max, double *out)
{
	char err[512];
	return complain(cli_parse_number(option, text, min, max, out, err, sizeof(err)), err);
}

bool cli_option_epoch(const char *option, const char *text, uint64_t *ns)
{
	double s = 0;
	/* 1e11 s: past the year 5000, far beyond any real clock; the bound only refuses nonsense */
	if (!cli_option_number(option, text, 1, 1e11, &s))
		return false;
	*ns = (uint64_t)llround(s * 1e9);
	return true;
}

bool cli_option_size(const char *option, const char *text, unsigned long long min,
                     unsigned long long max, unsigned long long *out)
{
	char err[512];
	return complain(cli_parse_size(option, text, min, max, out, err, sizeof(err)), err);
}

bool cli_option_duration(const char *option, const char *text, double bare_unit, double min_s,
                         double max_s, double *seconds)
{
	char err[512];
	return complain(
	    cli_parse_duration(option, text, bare_unit, min_s, max_s, seconds, err, sizeof(err)),
	    err);
}

void cli_warn_renamed(const char *old_name, const char *new_name)
{
	fprintf(stderr, "%s: warning: %s is now %s; the old name goes in the next release\n",
	        program_invocation_short_name, old_name, new_name);
}
