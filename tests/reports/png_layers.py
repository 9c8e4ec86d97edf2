#!/usr/bin/env python3
# tests/reports/png_layers.py - measures the "why" panels in a screenshot of report.html: finds each
# panel by its layer colours and counts the pixels of each layer, so a test can say which kind of
# memory a panel shows most of; and the pixels near colours a panel must not use (the allocators':
# a layer in a variant's colour would read as that variant). Standard library only.
# usage: png_layers.py SCREENSHOT.png NAME=rrggbb... [-rrggbb...]
#   prints "panel I NAME PIXELS" per panel and layer, "panel I forbidden PIXELS" (near any -rrggbb)
import sys

from png_charts import near, pixels, png_read, rgb


def main():
    path = sys.argv[1]
    layers = [(a.split("=")[0], rgb(a.split("=")[1])) for a in sys.argv[2:] if "=" in a]
    forbidden = [rgb(a[1:]) for a in sys.argv[2:] if a.startswith("-")]
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
        bad = 0
        for row in rows[y0:y1]:
            for p in pixels(row, bpp):
                if p in colours:
                    counts[colours[p]] += 1
                elif any(near(p, f, 12) for f in forbidden):
                    bad += 1
        for name, _ in layers:
            print(f"panel {i} {name} {counts[name]}")
        print(f"panel {i} forbidden {bad}")
    print(f"panels {len(bands)}")


main()
