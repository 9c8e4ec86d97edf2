/* reports/junit.c - JUnit XML of check's conditions. */
#include "junit.h"

#include "strbuf.h"

/* XML text and attribute values need what an HTML page needs escaped (&, <, >, ", '), and the
 * texts are free of the control characters XML forbids: the page's escaper serves both. */
static void append_xml(struct strbuf *b, const char *text)
{
	strbuf_append_html(b, text);
}

/* <TAG message="MESSAGE">BODY</TAG> */
static void append_outcome(struct strbuf *b, const char *tag, const char *message,
                           const char *values, const char *body)
{
	strbuf_printf(b, "    <%s message=\"", tag);
	append_xml(b, message);
	strbuf_printf(b, "\" type=\"%s\">", tag);
	append_xml(b, values);
	if (values && *values)
		strbuf_append(b, "\n");
	append_xml(b, body);
	strbuf_printf(b, "</%s>\n", tag);
}

char *junit_xml(const char *suite, const char *classname, const struct junit_case *cases, size_t n)
{
	size_t failures = 0, errors = 0, skipped = 0;
	for (size_t i = 0; i < n; i++) {
		failures += cases[i].failure != NULL;
		errors += cases[i].error != NULL;
		skipped += cases[i].skipped != NULL;
	}
	struct strbuf b = {0};
	strbuf_append(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
	append_xml(&b, suite);
	strbuf_printf(&b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n", n,
	              failures, errors, skipped);
	strbuf_append(&b, "  <testsuite name=\"");
	append_xml(&b, suite);
	strbuf_printf(&b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n", n,
	              failures, errors, skipped);
	for (size_t i = 0; i < n; i++) {
		const struct junit_case *c = &cases[i];
		strbuf_append(&b, "   <testcase classname=\"");
		append_xml(&b, classname);
		strbuf_append(&b, "\" name=\"");
		append_xml(&b, c->name);
		strbuf_append(&b, "\">\n");
		if (c->error)
			append_outcome(&b, "error", "the condition cannot be evaluated", NULL,
			               c->error);
		else if (c->failure)
			append_outcome(&b, "failure", "the condition holds", c->values, c->failure);
		else if (c->skipped)
			append_outcome(&b, "skipped", c->skipped, NULL, NULL);
		if (!c->error && !c->failure && c->values && *c->values) {
			strbuf_append(&b, "    <system-out>");
			append_xml(&b, c->values);
			strbuf_append(&b, "</system-out>\n");
		}
		strbuf_append(&b, "   </testcase>\n");
	}
	strbuf_append(&b, "  </testsuite>\n</testsuites>\n");
	return strbuf_take(&b);
}
