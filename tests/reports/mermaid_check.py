#!/usr/bin/env python3
# tests/reports/mermaid_check.py - the Mermaid xychart-beta blocks of a Markdown file hold only the
# statements the report writes, each well formed: an init directive setting the colours, the chart
# type, a title, the axes, and bars or lines with one number per category (Mermaid itself is not
# needed: this is the subset of its grammar summary.md uses). Standard library only.
# usage: mermaid_check.py SUMMARY.md BLOCKS   (exit 1 listing the problems; BLOCKS: how many expected)
import json
import re
import sys

STR = r'"([^"%#;\n\\]*)"'
NUM = r"(-?\d+(?:\.\d+)?)"
INIT = re.compile(r"%%\{init: (\{.*\})\}%%")
TITLE = re.compile(rf"    title {STR}")
X_CATS = re.compile(rf"    x-axis {STR} \[({STR}(?:, {STR})*)\]")
X_RANGE = re.compile(rf"    x-axis {STR} {NUM} --> {NUM}")
Y_RANGE = re.compile(rf"    y-axis {STR} {NUM} --> {NUM}")
PLOT = re.compile(rf"    (bar|line) \[({NUM}(?:, {NUM})*)\]")


def blocks(markdown):
    """The text of each ```mermaid fenced block."""
    return re.findall(r"^```mermaid\n(.*?)^```$", markdown, re.S | re.M)


def check_block(text):
    """The problems of one block's text (an empty list if it is well formed)."""
    lines, problems = text.rstrip("\n").split("\n"), []
    m = INIT.fullmatch(lines[0]) if lines else None
    if not m:
        return [f"first line is not an init directive: {lines[:1]!r}"]
    try:
        palette = json.loads(m.group(1))["themeVariables"]["xyChart"]["plotColorPalette"]
        if not all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in palette.split(", ")):
            problems.append(f"palette is not colours: {palette!r}")
    except (ValueError, KeyError, TypeError) as e:
        problems.append(f"init directive is not the colour setting: {e}")
    if lines[1:2] != ["xychart-beta"]:
        return problems + [f"second line is not xychart-beta: {lines[1:2]!r}"]
    body = lines[2:]
    if len(body) < 4 or not TITLE.fullmatch(body[0]):
        return problems + [f"no title line: {body[:1]!r}"]
    cats = X_CATS.fullmatch(body[1])
    if not cats and not X_RANGE.fullmatch(body[1]):
        problems.append(f"x-axis line malformed: {body[1]!r}")
    y = Y_RANGE.fullmatch(body[2])
    if not y:
        return problems + [f"y-axis line malformed: {body[2]!r}"]
    lo, hi = float(y.group(2)), float(y.group(3))
    counts = set()
    for line in body[3:]:
        p = PLOT.fullmatch(line)
        if not p:
            problems.append(f"not a bar or line statement: {line!r}")
            continue
        values = [float(v) for v in p.group(2).split(", ")]
        counts.add(len(values))
        if any(v < lo or v > hi for v in values):
            problems.append(f"a value outside the y axis {lo}..{hi}: {line[:60]!r}")
    if cats:
        n = len(re.findall(STR, cats.group(2)))
        if counts != {n}:
            problems.append(f"{n} categories but series of {sorted(counts)} values")
    elif len(counts) > 1:
        problems.append(f"lines of different lengths: {sorted(counts)}")
    if not counts:
        problems.append("no bar or line")
    return problems


def main():
    text, expected = open(sys.argv[1], encoding="utf-8").read(), int(sys.argv[2])
    found = blocks(text)
    problems = [] if len(found) == expected else [f"{len(found)} mermaid blocks, expected {expected}"]
    for i, b in enumerate(found):
        problems += [f"block {i + 1}: {p}" for p in check_block(b)]
    for p in problems:
        print(p)
    print(f"{len(found)} mermaid blocks, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
