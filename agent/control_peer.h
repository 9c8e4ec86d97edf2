/* agent/control_peer.h - the PID of the process serving a Unix control socket (SO_PEERCRED): how a
 * sidecar finds the resolver it shares a process namespace with, without knowing its PID. */
#ifndef ALLOCSPIKE_AGENT_CONTROL_PEER_H
#define ALLOCSPIKE_AGENT_CONTROL_PEER_H

#include <stddef.h>
#include <sys/types.h>

/* Connects to path, retrying every 100 ms for up to wait_s seconds (the resolver beside us may
 * still be starting), and returns the PID of the process that accepted, as this process's PID
 * namespace numbers it. 0 with the reason in err: nothing answered in time, or the peer is in a
 * PID namespace we cannot see. */
pid_t control_peer_pid(const char *path, double wait_s, char *err, size_t err_size);

#endif
