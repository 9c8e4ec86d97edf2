/* agent/systemd_unit.h - a resolver run by systemd, named by its unit (--systemd-unit): its main
 * process as systemd tells it (`systemctl show --property=MainPID`), asked again when that process
 * ends, so that the agent follows the unit through a restart. */
#ifndef ALLOCSPIKE_AGENT_SYSTEMD_UNIT_H
#define ALLOCSPIKE_AGENT_SYSTEMD_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* systemctl's answer must come within this long: the agent asks from its event loop. */
#define SYSTEMD_UNIT_ASK_MS 2000

/* A unit name systemctl is given: letters, digits and ":-_.@\" only, not starting with '-' (never
 * an option), with a type suffix after its last '.', at most 255 bytes. */
bool systemd_unit_name_valid(const char *unit);

/* The unit's main process; 0 with the reason in err when it has none (stopped, or a type without
 * one) or systemctl could not tell. */
pid_t systemd_unit_main_pid(const char *unit, char *err, size_t err_size);

#endif
