/* reports/junit.h - check's conditions as JUnit XML, the test report CI systems read (GitLab,
 * Jenkins, GitHub actions that publish test results). */
#ifndef ALLOCSPIKE_REPORTS_JUNIT_H
#define ALLOCSPIKE_REPORTS_JUNIT_H

#include <stddef.h>

/* One condition. Every text is as check prints it for a terminal (terminal_text.h: valid UTF-8,
 * no control character but line breaks); junit_xml escapes it for XML. */
struct junit_case {
	const char *name;    /* the condition as given */
	const char *values;  /* the figures it read, per variant */
	const char *failure; /* NULL: it passed; else why it failed */
	const char *error;   /* NULL, or why it could not be evaluated */
	const char *skipped; /* NULL, or why it was not decided (n/a, --allow-missing) */
};

/* A document of one testsuite named suite with one testcase per condition, class name classname;
 * a failed one has a <failure> with the values and why, one that could not be evaluated an
 * <error>. Caller frees. */
char *junit_xml(const char *suite, const char *classname, const struct junit_case *cases, size_t n);

#endif
