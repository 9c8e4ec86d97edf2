/* controller/seconds_text.h - whole seconds said for a person ("45 s", "10 min 40 s", "1 h 4 min"):
 * the one way the scenarios and the dry run say how long a run takes. */
#ifndef ALLOCSPIKE_CONTROLLER_SECONDS_TEXT_H
#define ALLOCSPIKE_CONTROLLER_SECONDS_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* s as text into out. */
void seconds_text(unsigned long long s, char *out, size_t size);

/* allocspike-run seconds-text S: the text of S whole seconds on stdout; the exit status. */
void seconds_text_usage(FILE *out);
int seconds_text_main(int argc, char **argv);

#endif
