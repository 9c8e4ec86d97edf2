/* controller/unix_ask.c - allocspike-run unix-ask (unix_ask.h). */
#include "unix_ask.h"

#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "control_client.h"

/* A control channel is a terminal: it never says an answer ended, so what came within this long
 * (or up to a '}', the end of a JSON answer, or the peer's close) is the answer. */
#define UNIX_ASK_ANSWER_MS 1000
#define UNIX_ASK_MAX_BYTES (1 << 20)

void unix_ask_usage(FILE *out)
{
	fprintf(
	    out,
	    "allocspike-run unix-ask SOCKET TEXT\n"
	    "  TEXT and a newline sent to the Unix stream socket SOCKET; what comes back until\n"
	    "  a '}' arrives, the peer closes or 1 s passes, printed as it came\n");
}

int unix_ask_main(int argc, char **argv)
{
	if (argc != 3) {
		unix_ask_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	size_t len = strlen(argv[2]);
	char *text = malloc(len + 2), *answer = malloc(UNIX_ASK_MAX_BYTES), err[512];
	if (!text || !answer) {
		free(text);
		free(answer);
		fprintf(stderr, "allocspike-run unix-ask: out of memory\n");
		return CLI_EXIT_FAILED;
	}
	memcpy(text, argv[2], len);
	memcpy(text + len, "\n", 2);
	enum control_ask_end how;
	ssize_t got = control_ask(argv[1], text, '}', UNIX_ASK_ANSWER_MS, answer,
	                          UNIX_ASK_MAX_BYTES, &how, err, sizeof(err));
	if (got >= 0)
		fwrite(answer, 1, (size_t)got, stdout);
	else
		fprintf(stderr, "allocspike-run unix-ask: %s\n", err);
	free(text);
	free(answer);
	return got >= 0 ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}
