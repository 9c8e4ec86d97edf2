/* agent/systemd_unit.h - a resolver run by systemd, named by its unit (--systemd-unit): its main
 * process as systemd tells it (`systemctl show --property=MainPID`), asked again when that process
 * ends, so that the agent follows the unit through a restart. */
#ifndef ALLOCSPIKE_AGENT_SYSTEMD_UNIT_H
#define ALLOCSPIKE_AGENT_SYSTEMD_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <event2/event.h>

/* systemctl's answer must come within this long. */
#define SYSTEMD_UNIT_ASK_MS 2000
/* What is kept of its answer: a PID and a newline, with room to spare. */
#define SYSTEMD_UNIT_OUT_MAX 64

/* A unit name systemctl is given: letters, digits and ":-_.@\" only, not starting with '-' (never
 * an option), with a type suffix after its last '.', at most 255 bytes. */
bool systemd_unit_name_valid(const char *unit);

/* The unit's main process; 0 with the reason in err when it has none (stopped, or a type without
 * one) or systemctl could not tell. */
pid_t systemd_unit_main_pid(const char *unit, char *err, size_t err_size);

/* The same question asked without waiting, so that the reads go on while systemd answers (the
 * unit followed through a restart): done gets what systemd_unit_main_pid would return, from base's
 * loop, within SYSTEMD_UNIT_ASK_MS; the ask is freed after it. NULL when systemctl could not be
 * started. */
typedef void (*systemd_unit_answered)(pid_t pid, const char *err, void *arg);
struct systemd_unit_ask;
struct systemd_unit_ask *systemd_unit_ask(struct event_base *base, const char *unit,
                                          systemd_unit_answered done, void *arg);

/* An ask not yet answered, given up: systemctl killed and reaped, done never called. */
void systemd_unit_ask_cancel(struct systemd_unit_ask *ask);

#endif
