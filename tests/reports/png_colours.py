#!/usr/bin/env python3
# tests/reports/png_colours.py - checks a screenshot holds enough pixels of each given colour (a
# chart's bars or lines drawn in its variants' colours). Standard library only.
# usage: png_colours.py SCREENSHOT.png RRGGBB=MIN_PIXELS...   (exit 1 if any colour falls short)
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_charts import near, pixels, png_read, rgb  # noqa: E402


def main():
    path, wants = sys.argv[1], [a.split("=") for a in sys.argv[2:]]
    width, height, bpp, rows = png_read(path)
    ok = True
    for colour, least in wants:
        want = rgb(colour)
        n = sum(1 for row in rows for p in pixels(row, bpp) if near(p, want, 12))
        verdict = n >= int(least)
        print(f"{path}: {colour}: {n} pixels (at least {least}): {'ok' if verdict else 'FAIL'}")
        ok = ok and verdict
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
