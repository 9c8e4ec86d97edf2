#!/usr/bin/env python3
# tests/agent/exposition_check.py FILE - checks a /metrics body against the Prometheus text format
# (version 0.0.4) and the agent's conventions: every sample's metric has one HELP and one TYPE line
# before it, a counter's name ends in _total, label values are quoted and escaped, values parse as
# floats, no series repeats. Prints "metric{labels} value" per sample, sorted; exit 1 with the line
# number on the first fault.
import re
import sys

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(r"^(%s)(\{%s(?:,%s)*\})? (\S+)$" % (NAME, LABEL, LABEL))


def fail(n, why):
    sys.exit("%s:%d: %s" % (sys.argv[1], n, why))


def main():
    helps, types, seen, out = {}, {}, set(), []
    with open(sys.argv[1], encoding="utf-8") as f:
        for n, line in enumerate(f.read().split("\n")[:-1], 1):
            if line.startswith("# HELP ") or line.startswith("# TYPE "):
                kind, name, rest = line[2:6], *line[7:].split(" ", 1)
                if not re.fullmatch(NAME, name):
                    fail(n, "bad metric name %r" % name)
                table = helps if kind == "HELP" else types
                if name in table:
                    fail(n, "second %s for %s" % (kind, name))
                if kind == "TYPE" and rest not in ("counter", "gauge"):
                    fail(n, "type %r" % rest)
                if kind == "TYPE" and (rest == "counter") != name.endswith("_total"):
                    fail(n, "%s: counters and only counters end in _total" % name)
                table[name] = rest
                continue
            m = SAMPLE.match(line)
            if not m:
                fail(n, "not a sample line: %r" % line)
            name, labels, value = m.groups()
            if name not in helps or name not in types:
                fail(n, "%s has no HELP or TYPE before it" % name)
            float(value)  # raises on a value Go's ParseFloat would refuse too
            if (name, labels) in seen:
                fail(n, "series %s%s twice" % (name, labels))
            seen.add((name, labels))
            out.append("%s%s %s" % (name, labels or "", value))
    for line in sorted(out):
        print(line)


main()
