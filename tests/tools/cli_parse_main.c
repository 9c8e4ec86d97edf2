/* tests/tools/cli_parse_main.c - allocspike-test-cli-parse KIND TEXT [BARE]: one value through
 * common/cli_parse.c, durations in whole milliseconds, sizes in bytes (tests/build/stdout_full.sh
 * runs it into /dev/full). Exit 2 when the value is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "close_stdout.h"

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-test-cli-parse");
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: allocspike-test-cli-parse duration|size|number|count TEXT "
		                "[BARE_MS]\n");
		return CLI_EXIT_USAGE;
	}
	const char *kind = argv[1], *text = argv[2];
	bool ok;
	if (strcmp(kind, "duration") == 0) {
		/* BARE_MS: milliseconds a bare number counts */
		double bare = argc == 4 ? atof(argv[3]) / 1000 : CLI_UNIT_REQUIRED, s = 0;
		ok = cli_option_duration("duration", text, bare, 0.001, 604800, &s);
		if (ok)
			printf("%.0f\n", s * 1000);
	} else if (strcmp(kind, "size") == 0) {
		unsigned long long b = 0;
		ok = cli_option_size("size", text, 0, ~0ULL, &b);
		if (ok)
			printf("%llu\n", b);
	} else if (strcmp(kind, "number") == 0) {
		double x = 0;
		ok = cli_option_number("number", text, 0, 1e300, &x);
		if (ok)
			printf("ok\n");
	} else if (strcmp(kind, "count") == 0) {
		unsigned long long n = 0;
		ok = cli_option_count("count", text, 0, ~0ULL, &n);
		if (ok)
			printf("%llu\n", n);
	} else {
		fprintf(stderr, "allocspike-test-cli-parse: unknown kind '%s'\n", kind);
		return CLI_EXIT_USAGE;
	}
	return ok ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}
