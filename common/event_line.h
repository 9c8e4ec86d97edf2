/* common/event_line.h - one events.jsonl line of a scenario's event (docs/run-folder.md,
 * "events.jsonl"): t_s, variant, event, the fields given as KEY=TEXT or KEY:=JSON, unix_s; one JSON
 * writer for `allocspike-report event` and the served controller (docs/controller.md). */
#ifndef ALLOCSPIKE_EVENT_LINE_H
#define ALLOCSPIKE_EVENT_LINE_H

#include <jansson.h>
#include <stdbool.h>

/* KEY=TEXT (a string, any byte escaped) or KEY:=JSON (the value as written) into fields; NULL, or
 * why arg is refused (the text goes before the argument: "not KEY=TEXT or KEY:=JSON:"). */
const char *event_line_field(json_t *fields, const char *arg);

/* Every one of args (count of them) as event_line_field reads it, into a new object, keys in their
 * order; NULL when one is refused: event_line_field's reason in *why, that arg in *bad. */
json_t *event_line_fields(char *const *args, int count, const char **why, const char **bad);

/* Whether variant and event can be written (UTF-8). */
bool event_line_names_valid(const char *variant, const char *event);

/* The line, without its newline (free it; NULL when a name is not UTF-8 or out of memory): t_s
 * (rounded to the millisecond) first unless NAN, variant, event, fields' keys in their order
 * (fields may be NULL), unix_s last unless NAN. */
char *event_line_text(double t_s, const char *variant, const char *event, const json_t *fields,
                      double unix_s);

#endif
