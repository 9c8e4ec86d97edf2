/* controller/child_run.h - a program run to its end as a child that dies with the controller
 * (launch_exec: its own process group, SIGKILL when we die), Ctrl-C, SIGTERM and SIGHUP passed on
 * to it: `place --schedule`'s supervise, `repeat`'s runs. */
#ifndef ALLOCSPIKE_CONTROLLER_CHILD_RUN_H
#define ALLOCSPIKE_CONTROLLER_CHILD_RUN_H

/* Runs argv (name for launch_exec's messages) with ALLOCSPIKE_PARENT_PID set to us until it
 * ends; its exit status (128 + N for signal N), or -1 when it could not be started. *signalled
 * is the first INT, TERM or HUP that came meanwhile (passed on to it; it stops on its own stop
 * path, which is waited for), left alone when none came. */
int child_run(char **argv, const char *name, int *signalled);

#endif
