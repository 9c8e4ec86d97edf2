#!/usr/bin/env python3
# tests/reports/page_fit.py - whether every table of a page fits the window with no sideways
# scrolling. The report has no script; a copy of it gets one that measures each table as Chromium
# laid it out and writes the widths into the page, which `chromium --headless --dump-dom` prints.
# Standard library only.
# usage: page_fit.py inject PAGE.html COPY.html     (the copy with the measuring script)
#        page_fit.py check DUMPED_DOM.html          (exit 1 naming each table that does not fit)
import html
import json
import re
import sys

MEASURE = """<script>
const view = document.documentElement.clientWidth;
const tables = [...document.querySelectorAll('table')].map((t, i) => {
  const box = t.closest('.scroll');
  return {table: t.id || t.className || 'table ' + i, width: Math.ceil(t.getBoundingClientRect().width),
          right: Math.ceil(t.getBoundingClientRect().right),
          scrolls: box ? box.scrollWidth > box.clientWidth + 1 : false};
});
const out = document.createElement('pre');
out.id = 'page-fit';
out.textContent = JSON.stringify({view: view, page: document.documentElement.scrollWidth, tables: tables});
document.body.appendChild(out);
</script>"""


def inject(page, copy):
    text = open(page, encoding="utf-8").read()
    open(copy, "w", encoding="utf-8").write(text.replace("</body>", MEASURE + "</body>", 1))


def check(dom):
    m = re.search(r'<pre id="page-fit">(.*?)</pre>', open(dom, encoding="utf-8").read(), re.S)
    if not m:
        print("no measurement in the dumped page (did the script run?)")
        return 1
    fit = json.loads(html.unescape(m.group(1)))
    problems = []
    if fit["page"] > fit["view"]:
        problems.append(f"the page is {fit['page']} px wide in a {fit['view']} px window")
    for t in fit["tables"]:
        if t["scrolls"] or t["right"] > fit["view"]:
            problems.append(f"table {t['table']}: {t['width']} px, scrolls sideways")
    widest = max(fit["tables"], key=lambda t: t["width"], default=None)
    print(f"window {fit['view']} px, {len(fit['tables'])} tables, widest "
          f"{widest['table'] if widest else '-'} {widest['width'] if widest else 0} px")
    for p in problems:
        print(p)
    return 1 if problems or not fit["tables"] else 0


if __name__ == "__main__":
    if sys.argv[1] == "inject":
        inject(sys.argv[2], sys.argv[3])
        sys.exit(0)
    sys.exit(check(sys.argv[2]))
