#!/usr/bin/env python3
"""scenarios/daemons/lib/footprint_poll.py - polls live samplers' `stats` for scenarios/footprint.sh.

usage: footprint_poll.py OUT_DIR PERIOD_S MAX_S NAME=SAMPLER_SOCKET[,CONTROL_SOCKET] ...

Every PERIOD_S seconds, for each NAME, asks SAMPLER_SOCKET (a live sampler, docs/daemons.md) for one
`stats` line and, when given, CONTROL_SOCKET (our resolver's control socket: the sampler preloaded
into our builds has no daemon figures) too, and appends one JSON line to OUT_DIR/NAME.jsonl:
{"unix_s", "live_bytes", "live_blocks", "inflight", "inflight_age_s", "size_classes"}, where
inflight_age_s is how old the daemon's figure is (the sidecar's file; 0 for our builds, asked at
once). A socket that does not answer
within a second is skipped for that round. Stops after MAX_S seconds or when its parent goes;
SIGTERM (the run's stop) ends it with status 0, between two lines.
"""
import json
import os
import signal
import socket
import sys
import time


def ask(path):
    """One `stats` line from a Unix socket as a dict, or None."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(1.0)
            s.connect(path)
            s.sendall(b"stats\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        return json.loads(data.decode())
    except (OSError, ValueError):
        return None


def stop(*_):
    """SIGTERM: asked to stop, no exit by a signal (the run's controller would report one). The stop
    signals the process and its group, so a second SIGTERM may follow: blocked, it stays pending
    through the interpreter's exit, whose handlers are the default ones again by then."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    sys.exit(0)


def main(argv):
    if len(argv) < 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out_dir, period, max_s = argv[1], float(argv[2]), float(argv[3])
    targets = []
    for arg in argv[4:]:
        name, _, socks = arg.partition("=")
        sampler, _, control = socks.partition(",")
        if not name or not sampler:
            print(f"footprint_poll.py: bad target '{arg}' (want NAME=SOCKET[,CONTROL])", file=sys.stderr)
            return 2
        targets.append((name, sampler, control or None))
    os.makedirs(out_dir, exist_ok=True)
    signal.signal(signal.SIGTERM, stop)
    files = {name: open(os.path.join(out_dir, name + ".jsonl"), "a", encoding="utf-8") for name, _, _ in targets}
    parent, start = os.getppid(), time.monotonic()
    while time.monotonic() - start < max_s and os.getppid() == parent:
        round_start = time.monotonic()
        for name, sampler, control in targets:
            line = ask(sampler)
            if line is None:
                continue
            inflight, age = line.get("inflight"), line.get("daemon_stats_age_s")
            if control:
                ctl = ask(control)
                inflight, age = (ctl.get("inflight"), 0.0) if ctl else (None, None)
            rec = {"unix_s": round(time.time(), 3), "live_bytes": line.get("live_bytes"),
                   "live_blocks": line.get("live_blocks"), "inflight": inflight, "inflight_age_s": age,
                   "size_classes": line.get("size_classes")}
            files[name].write(json.dumps(rec, separators=(",", ":")) + "\n")
            files[name].flush()
        time.sleep(max(0.0, period - (time.monotonic() - round_start)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
