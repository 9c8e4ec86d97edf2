#!/usr/bin/env python3
# tests/reports/chart_files_check.py - the chart files of a report stand on their own: each SVG
# draws the title its chart has on the page (so a file names its variant and quantity) and axis
# titles with units; the charts meant to be compared side by side (the "why" panels, the
# per-variant latency charts) have the same y axis. Standard library only.
# usage: chart_files_check.py RUN_DIR   (exit 1 listing the problems)
import glob
import html
import os
import re
import sys

UNIT = re.compile(r"\((MB|queries/s|ms|s|cores|number|% of highest footprint)\)|\(ms\), logarithmic")


def texts(svg):
    """Every <text> of a gnuplot SVG, unescaped, in order."""
    return [html.unescape(re.sub(r"<[^>]+>", "", t)).strip()
            for t in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, re.S)]


def y_ticks(svg):
    """The y axis's tick labels: gnuplot writes them right-aligned at the plot's left edge."""
    return [html.unescape(t).strip() for t in
            re.findall(r'<g transform="translate\([\d.]+,[\d.]+\)"[^>]*text-anchor="end">\s*<text>([^<]*)</text>',
                       svg)]


def main():
    run = sys.argv[1]
    page = open(os.path.join(run, "report.html"), encoding="utf-8").read()
    titles = {m.group(1): html.unescape(m.group(2)) for m in
              re.finditer(r'<h3 id="(chart-[a-z0-9-]+)-title">([^<]*)</h3>', page)}
    problems, groups = [], {}
    files = sorted(glob.glob(os.path.join(run, "charts", "*.svg")))
    for path in files:
        chart = os.path.basename(path)[:-4]
        t = texts(open(path, encoding="utf-8").read())
        if titles.get(chart) not in t:
            problems.append(f"{chart}.svg does not draw its title {titles.get(chart)!r}")
        if sum(1 for x in t if UNIT.search(x)) < 2 and not chart.startswith(("chart-ranking", "chart-cdf")):
            problems.append(f"{chart}.svg: fewer than two axis titles with a unit: {t[-12:]!r}")
        group = re.sub(r"-\d+$", "", chart)
        if group in ("chart-why", "chart-latency") and group != chart:
            groups.setdefault(group, {})[chart] = y_ticks(open(path, encoding="utf-8").read())
    for group, ticks in groups.items():
        axes = {tuple(v) for v in ticks.values()}
        if len(axes) != 1 or not next(iter(axes)):
            problems.append(f"{group} panels have different y axes: {ticks!r}")
        else:
            print(f"{group}: {len(ticks)} panels, one y axis {list(next(iter(axes)))}")
    print(f"{len(files)} chart files")
    for p in problems:
        print(p)
    return 1 if problems or not files else 0


if __name__ == "__main__":
    sys.exit(main())
