# scenarios/lib/events.sh - the scenario's lines of events.jsonl (docs/run-folder.md), written by the
# run's controller (procs.sh), which keeps the file and its clock: t_s counts from the start of the
# schedule, so events before it wait in the controller and get their negative t_s once the origin is
# set (docs/controller.md, "The events' clock"). The processes' `started` and `exited` are its own, and
# so are the scenario's other events (rows, calibration, warm-up): what is left here are the clocks.

# events_push FILE : later events go to FILE with a clock of their own (a cpu.sh pass; drive's serial
# gives each row a new clock) until events_pop, which writes what is pending there and goes back to
# the file before (an interrupted run's end pops what is left: the controller's finish).
events_push() { procs_ask events-push "$1"; }
events_pop() { procs_ask events-pop; }
