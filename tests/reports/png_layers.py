#!/usr/bin/env python3
# tests/reports/png_layers.py - measures the "why" panels in a screenshot of report.html: finds each
# panel by its layer colours and counts the pixels of each layer, so a test can say which kind of
# memory a panel shows most of. Standard library only.
# usage: png_layers.py SCREENSHOT.png NAME=rrggbb...   prints "panel I NAME PIXELS" per panel and layer
import sys

from png_charts import pixels, png_read, rgb


def main():
    path = sys.argv[1]
    layers = [(a.split("=")[0], rgb(a.split("=")[1])) for a in sys.argv[2:]]
    colours = {c: name for name, c in layers}
    width, height, bpp, rows = png_read(path)
    # a panel: a run of at least 20 rows each holding 10 or more pixels of layer colours (a
    # legend swatch is shorter)
    flags = [sum(1 for p in pixels(row, bpp) if p in colours) >= 10 for row in rows]
    bands, start = [], None
    for y, f in enumerate(flags + [False]):
        if f and start is None:
            start = y
        elif not f and start is not None:
            if y - start >= 20:
                bands.append((start, y))
            start = None
    for i, (y0, y1) in enumerate(bands):
        print(f"panel {i} rows {y0}-{y1}")
        counts = {name: 0 for name, _ in layers}
        for row in rows[y0:y1]:
            for p in pixels(row, bpp):
                if p in colours:
                    counts[colours[p]] += 1
        for name, _ in layers:
            print(f"panel {i} {name} {counts[name]}")
    print(f"panels {len(bands)}")


main()
