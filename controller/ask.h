/* controller/ask.h - allocspike-run ask: one request to a served run (supervise --serve), its
 * answer printed; the scenarios' side of the requests (docs/controller.md, "Requests"). */
#ifndef ALLOCSPIKE_CONTROLLER_ASK_H
#define ALLOCSPIKE_CONTROLLER_ASK_H

#include <stdio.h>

/* argv[0] is "ask"; the exit status. */
int ask_main(int argc, char **argv);
void ask_usage(FILE *out);

#endif
