/* agent/root_hints.h - the root hints a row plan carries (docs/agent.md, "Taking the row from a
 * controller"): the run's hierarchy's `.` NS and A records, a few hundred bytes, so that an agent
 * host needs no copy of the run's root.hints. Checked as text, written beside the row's control
 * socket (CONTROL.root.hints, the agent's own folder) before the row starts with them. */
#ifndef ALLOCSPIKE_AGENT_ROOT_HINTS_H
#define ALLOCSPIKE_AGENT_ROOT_HINTS_H

#include <stdbool.h>
#include <stddef.h>

/* Far more than a hierarchy's hints (13 roots with two addresses each is under 2 KiB), and well
 * within a plan's 64 KiB. */
#define ROOT_HINTS_MAX_BYTES 16384

/* Whether text can be root hints: 1 to ROOT_HINTS_MAX_BYTES bytes of visible ASCII, spaces, tabs
 * and line ends; false with the reason in err. */
bool root_hints_text_valid(const char *text, char *err, size_t err_size);

/* text written (atomically) to CONTROL.root.hints, that path into path; false with the reason in
 * err. */
bool root_hints_keep(const char *control, const char *text, char *path, size_t path_size, char *err,
                     size_t err_size);

#endif
