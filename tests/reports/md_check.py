#!/usr/bin/env python3
# tests/reports/md_check.py - lints summary.md as GitHub-flavoured Markdown renders it, and checks
# its variant-by-spike grid against summary.json. Standard library only.
# usage: md_check.py SUMMARY.md SUMMARY.json   (exit 1 listing the problems)
import json
import re
import sys


def lint(lines):
    """Problems a renderer would show: broken tables, skipped heading levels, stray markup."""
    problems, level, fence = [], 0, False
    for i, line in enumerate(lines, 1):
        if line.startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        if line != line.rstrip():
            problems.append(f"{i}: trailing whitespace")
        if "\t" in line:
            problems.append(f"{i}: a tab")
        m = re.match(r"(#+)( ?)", line)
        if m:
            if not m.group(2):
                problems.append(f"{i}: heading without a space after '#'")
            new = len(m.group(1))
            if new > level + 1:
                problems.append(f"{i}: heading level {new} after level {level}")
            level = new
            if i > 1 and lines[i - 2] != "":
                problems.append(f"{i}: no blank line before the heading")
        if re.search(r"<[a-zA-Z/][^>]*>", re.sub(r"\\<", "", re.sub(r"`[^`]*`", "", line))):
            problems.append(f"{i}: raw HTML")
        if line.count("`") % 2:
            problems.append(f"{i}: unbalanced backtick")
    if fence:
        problems.append("unterminated code fence")
    if lines and lines[-1] == "" and len(lines) > 1 and lines[-2] == "":
        problems.append("more than one blank line at the end")
    problems += [f"{p}" for p in table_problems(lines)]
    return problems


def cells(line):
    """A table row's cells (escaped pipes are not separators)."""
    body = line.strip()
    if not (body.startswith("|") and body.endswith("|")):
        return None
    return [c.strip() for c in re.split(r"(?<!\\)\|", body[1:-1])]


def tables(lines):
    """(first line number, header cells, rows of cells) for each table."""
    out, i = [], 0
    while i < len(lines):
        head = cells(lines[i])
        if head is not None and i + 1 < len(lines) and cells(lines[i + 1]) is not None and re.fullmatch(
            r"\|( *:?-{3,}:? *\|)+", lines[i + 1].strip()
        ):
            rows, j = [], i + 2
            while j < len(lines) and cells(lines[j]) is not None:
                rows.append((j + 1, cells(lines[j])))
                j += 1
            out.append((i + 1, head, cells(lines[i + 1]), rows))
            i = j
        else:
            i += 1
    return out


def table_problems(lines):
    problems = []
    for start, head, sep, rows in tables(lines):
        if start > 1 and lines[start - 2] != "":
            problems.append(f"{start}: no blank line before the table")
        if len(sep) != len(head):
            problems.append(f"{start + 1}: separator has {len(sep)} cells, header {len(head)}")
        for n, row in rows:
            if len(row) != len(head):
                problems.append(f"{n}: {len(row)} cells, header has {len(head)}")
    # a line that looks like a table row but belongs to no table (missing separator)
    in_table = {n for _, _, _, rows in tables(lines) for n, _ in rows}
    in_table |= {s for s, *_ in tables(lines)} | {s + 1 for s, *_ in tables(lines)}
    for i, line in enumerate(lines, 1):
        if cells(line) is not None and i not in in_table:
            problems.append(f"{i}: a table row outside a table")
    return problems


def grid_problems(lines, summary):
    """The peak / end grid must hold summary.json's spikes, in MB with one decimal, each column
    headed by its spike's number."""
    problems = []
    grid = [t for t in tables(lines) if t[1][0] == "variant" and t[1][1:2] and t[1][1].startswith("spike ")]
    if len(grid) != 1:
        return ["no single peak / end grid"]
    _, head, _, rows = grid[0]
    if len(head) - 1 != summary["spike_count"]:
        problems.append(f"grid has {len(head) - 1} spike columns, summary.json {summary['spike_count']}")
    names = [r[0].replace("\\", "") for _, r in rows]
    if names != summary["variant_order"]:
        problems.append(f"grid rows {names} != variant_order {summary['variant_order']}")
    fmt = lambda kb: "n/a" if kb is None else f"{kb / 1024:.1f}"
    for (n, row), name in zip(rows, summary["variant_order"]):
        by_number = {s["spike"]: s for s in summary["variants"][name].get("spikes", [])}
        for label, cell in zip(head[1:], row[1:]):
            k = int(label.split()[1])
            s = by_number.get(k)
            want = "n/a" if s is None else f"{fmt(s['peak_anon_kb'])} / {fmt(s['end_anon_kb'])}"
            if cell != want:
                problems.append(f"{n}: {name} spike {k}: '{cell}', summary.json says '{want}'")
    return problems


def main():
    md_path, json_path = sys.argv[1:3]
    text = open(md_path, encoding="utf-8").read()
    if not text.endswith("\n"):
        print(f"{md_path}: does not end with a newline")
        sys.exit(1)
    lines = text.split("\n")[:-1]
    problems = lint(lines) + grid_problems(lines, json.load(open(json_path)))
    for p in problems:
        print(f"{md_path}:{p}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
