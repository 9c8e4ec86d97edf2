#!/usr/bin/env python3
# tests/reports/png_charts.py - checks a screenshot of report.html: the charts are drawn, not blank.
# Standard library only. Finds each chart by its spike shading (a colour only charts use), then
# counts distinct colours and line-colour pixels inside it.
# usage: png_charts.py SCREENSHOT.png MIN_CHARTS SHADE_RGB LINE_RGB...  (colours as rrggbb)
import struct
from collections import Counter
import sys
import zlib


def png_read(path):
    """Returns (width, height, bytes per pixel, rows of unfiltered bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit(f"{path}: unsupported PNG (depth {depth}, type {ctype})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytes(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        cur = raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]
        if ftype == 2:
            line = bytes((x + b) & 255 for x, b in zip(cur, prev))
        elif ftype != 0:
            line = bytearray(cur)
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                if ftype == 1:
                    line[i] = (line[i] + a) & 255
                    continue
                b = prev[i]
                if ftype == 3:
                    line[i] = (line[i] + ((a + b) >> 1)) & 255
                    continue
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
            line = bytes(line)
        else:
            line = bytes(cur)
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def pixels(row, bpp):
    """The (r, g, b) of each pixel of a decoded row."""
    return zip(row[0::bpp], row[1::bpp], row[2::bpp])


def rgb(text):
    return tuple(int(text[i : i + 2], 16) for i in (0, 2, 4))


def near(p, q, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(p, q))


def main():
    path, min_charts, shade = sys.argv[1], int(sys.argv[2]), rgb(sys.argv[3])
    lines = [rgb(c) for c in sys.argv[4:]]
    width, height, bpp, rows = png_read(path)
    # bands of rows holding a good run of the shading colour: one band per chart
    shaded = [sum(1 for p in pixels(row, bpp) if p == shade) >= 10 for row in rows]
    # (a horizontal line drawn across the shading splits it for a few rows: gaps are bridged)
    bands, start, gap = [], None, 0
    for y, s in enumerate(shaded + [False] * 9):
        if s:
            if start is None:
                start = y
            gap = 0
        elif start is not None:
            gap += 1
            if gap > 8:
                if y - gap + 1 - start >= 20:
                    bands.append((start, y - gap + 1))
                start, gap = None, 0
    print(f"{path}: {width}x{height}, {len(bands)} shaded chart areas: {bands}")
    ok = len(bands) >= min_charts
    if not ok:
        print(f"FAIL fewer than {min_charts} chart areas found")
    for i, (y0, y1) in enumerate(bands):
        counts = Counter()
        for row in rows[y0:y1]:
            counts.update(pixels(row, bpp))
        line_pixels = sum(n for c, n in counts.items() if any(near(c, l) for l in lines))
        verdict = len(counts) >= 8 and line_pixels >= 30
        print(f"chart area {i + 1} rows {y0}-{y1}: {len(counts)} colours, "
              f"{line_pixels} line pixels: {'ok' if verdict else 'BLANK'}")
        ok = ok and verdict
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
