/* controller/unix_ask.h - allocspike-run unix-ask: one line to a daemon's control channel on a
 * Unix stream socket (kresd's), its answer printed: the daemon definitions' definition_unix_ask. */
#ifndef ALLOCSPIKE_CONTROLLER_UNIX_ASK_H
#define ALLOCSPIKE_CONTROLLER_UNIX_ASK_H

#include <stdio.h>

/* argv[0] is "unix-ask"; the exit status. */
int unix_ask_main(int argc, char **argv);
void unix_ask_usage(FILE *out);

#endif
