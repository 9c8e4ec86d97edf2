/* common/cli_parse.h - the one grammar of counts, numbers, sizes and durations on command lines.
 *
 * Every program's options go through these, and the schedule's durations (common/schedule.c)
 * through the same scanners, so "20s", "1.5m" and "500ms" mean one thing everywhere. The grammar,
 * the units and the rule for a bare number are in docs/cli.md. */
#ifndef ALLOCSPIKE_CLI_PARSE_H
#define ALLOCSPIKE_CLI_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit statuses of every program and scenario (docs/cli.md). */
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAILED = 1, CLI_EXIT_USAGE = 2 };

/* A duration option with no unit of its own (e.g. --spike-len) refuses a bare number. */
#define CLI_UNIT_REQUIRED 0.0

/* Length of the non-negative decimal number at the start of s (digits, at most one '.', at least
 * one digit; no sign, exponent, "inf" or hex; under 64 characters), its value in *value; 0 when
 * there is none. A '.' followed by another '.' (the schedule's "A..B") is not part of it. */
size_t cli_scan_number(const char *s, double *value);

/* Length of the duration unit at the start of s ("ms", "s", "m" or "h") with its size in seconds
 * in *seconds; 0 when there is none or when a letter or digit follows it ("5min" is refused). */
size_t cli_scan_duration_unit(const char *s, double *seconds);

/* Each parser below reads all of text; on failure it writes "OPTION: 'TEXT' is not ... (e.g. ...)"
 * to err and returns false. */

/* A whole number in [min, max]. */
bool cli_parse_count(const char *option, const char *text, unsigned long long min,
                     unsigned long long max, unsigned long long *out, char *err, size_t err_size);

/* A decimal number in [min, max] (rates, shares, factors). */
bool cli_parse_number(const char *option, const char *text, double min, double max, double *out,
                      char *err, size_t err_size);

/* A size in bytes: NUMBER with an optional binary unit, K KiB KB (1024), M MiB MB, G GiB GB (the
 * letter in either case);
 * no unit is bytes. Rounded down to whole bytes, then checked against [min, max]. */
bool cli_parse_size(const char *option, const char *text, unsigned long long min,
                    unsigned long long max, unsigned long long *out, char *err, size_t err_size);

/* A duration in seconds: NUMBER UNIT with UNIT ms, s, m or h. A bare NUMBER is taken in
 * bare_unit seconds (0.001 for a --*-ms option, 1 for dnsperf's -l and -t) and refused when
 * bare_unit is CLI_UNIT_REQUIRED. The result must lie in [min_s, max_s]. */
bool cli_parse_duration(const char *option, const char *text, double bare_unit, double min_s,
                        double max_s, double *seconds, char *err, size_t err_size);

/* The same parsers, printing the message on stderr after the program's name; for options. */
bool cli_option_count(const char *option, const char *text, unsigned long long min,
                      unsigned long long max, unsigned long long *out);
bool cli_option_number(const char *option, const char *text, double min, double max, double *out);
/* A moment given as seconds since the epoch, fractions allowed (--start-at: the time every host of
 * a run counts from), in nanoseconds, never 0. */
bool cli_option_epoch(const char *option, const char *text, uint64_t *ns);
bool cli_option_size(const char *option, const char *text, unsigned long long min,
                     unsigned long long max, unsigned long long *out);
bool cli_option_duration(const char *option, const char *text, double bare_unit, double min_s,
                         double max_s, double *seconds);

/* An option given by its old name: one line on stderr naming the new one (docs/cli.md lists the
 * old names, accepted for one release). */
void cli_warn_renamed(const char *old_name, const char *new_name);

#endif
