/* controller/seconds_text.c - whole seconds for a person (seconds_text.h). */
#include "seconds_text.h"

#include "cli_parse.h"

void seconds_text(unsigned long long s, char *out, size_t size)
{
	if (s < 60)
		snprintf(out, size, "%llu s", s);
	else if (s >= 3600)
		snprintf(out, size, "%llu h %llu min", s / 3600, s % 3600 / 60);
	else if (s % 60)
		snprintf(out, size, "%llu min %llu s", s / 60, s % 60);
	else
		snprintf(out, size, "%llu min", s / 60);
}

void seconds_text_usage(FILE *out)
{
	fprintf(out, "allocspike-run seconds-text S\n"
	             "  S whole seconds as a person reads them: 45 s, 10 min 40 s, 1 h 4 min\n");
}

int seconds_text_main(int argc, char **argv)
{
	unsigned long long s;
	char err[256], text[64];
	if (argc != 2 ||
	    !cli_parse_count("seconds-text S", argv[1], 0, ~0ULL, &s, err, sizeof(err))) {
		if (argc == 2)
			fprintf(stderr, "allocspike-run %s\n", err);
		seconds_text_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	seconds_text(s, text, sizeof(text));
	puts(text);
	return CLI_EXIT_OK;
}
