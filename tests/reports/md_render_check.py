#!/usr/bin/env python3
# tests/reports/md_render_check.py - summary.md as GitHub renders it (cmark-gfm's HTML, with GitHub's
# extensions) holds exactly the structure the report wrote, whatever text a run folder carried:
# the headings, the verdict's sentences, the validity section's state, no link but the chart
# files, no code block but the Mermaid charts, no emphasis it did not write. Standard library only.
# usage: md_render_check.py RENDERED.html SUMMARY.json EXPECTED_H1   (exit 1 listing the problems)
import json
import re
import sys
from html.parser import HTMLParser

HEADINGS = ["Verdict", "Validity", "Peak / end of recovery per spike", "Traffic in spikes", "Terms",
            "Anonymous RSS", "Charts"]
REQUIRED = 4  # the first four always; Terms, Anonymous RSS and Charts when there is something to show
# where summary.md draws a chart as a Mermaid block
MERMAID_SECTIONS = {"Verdict", "Anonymous RSS"}


def norm(text):
    """Text as a reader sees it: control characters are spaces, runs of spaces one."""
    return re.sub(r"\s+", " ", re.sub(r"[\x00-\x1f\x7f]", " ", text)).strip()


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.elements = [], []  # elements: [tag, attrs, text, section]
        self.section = None

    def handle_starttag(self, tag, attrs):
        el = [tag, dict(attrs), "", self.section]
        self.elements.append(el)
        self.stack.append(el)

    def handle_endtag(self, tag):
        while self.stack:
            el = self.stack.pop()
            if el[0] == tag:
                break
        if tag == "h2":
            self.section = norm(self.elements_of("h2")[-1][2])

    def handle_data(self, data):
        for el in self.stack:
            el[2] += data

    def elements_of(self, tag):
        return [e for e in self.elements if e[0] == tag]


def main():
    rendered, summary_path, expected_h1 = sys.argv[1], sys.argv[2], sys.argv[3]
    page = Page()
    page.feed(open(rendered, encoding="utf-8").read())
    summary = json.load(open(summary_path, encoding="utf-8"))
    problems = []
    h1 = [norm(e[2]) for e in page.elements_of("h1")]
    if h1 != [norm(expected_h1)]:
        problems.append(f"h1 headings {h1!r}, expected [{norm(expected_h1)!r}]")
    h2 = [norm(e[2]) for e in page.elements_of("h2")]
    if h2[:REQUIRED] != HEADINGS[:REQUIRED] or h2 != [h for h in HEADINGS if h in h2]:
        problems.append(f"h2 headings {h2!r}, expected in the order of {HEADINGS!r}")
    for tag in ("h3", "h4", "h5", "h6", "del", "em", "img_other", "table_other"):
        if page.elements_of(tag):
            problems.append(f"a <{tag}> the report did not write")
    # a code block only as a Mermaid chart, where the report draws one
    mermaid = [e for e in page.elements_of("code") if e[1].get("class") == "language-mermaid"]
    if len(page.elements_of("pre")) != len(mermaid) or any(e[3] not in MERMAID_SECTIONS for e in mermaid):
        problems.append("a code block the report did not write")
    verdict = [norm(e[2]) for e in page.elements if e[0] == "li" and e[3] == "Verdict"]
    sentences = [norm(s) for s in summary["verdict"]["sentences"]]
    if verdict != sentences:
        problems.append(f"verdict items {verdict!r}, expected {sentences!r}")
    valid = summary["validity"]["valid"]
    validity_text = " ".join(norm(e[2]) for e in page.elements if e[3] == "Validity" and e[0] == "p")
    if valid != ("Nothing found" in validity_text):
        problems.append(f"validity section says {validity_text!r} for valid={valid}")
    for a in page.elements_of("a"):
        href = a[1].get("href", "")
        if not re.fullmatch(r"charts/chart-[a-z0-9-]+\.(png|svg)", href):
            problems.append(f"a link the report did not write: {href!r} ({norm(a[2])!r})")
    for img in page.elements_of("img"):
        if not re.fullmatch(r"charts/chart-[a-z0-9-]+\.png", img[1].get("src", "")):
            problems.append(f"an image the report did not write: {img[1]!r}")
    strong = [norm(e[2]) for e in page.elements_of("strong") if e[3] != "Terms"]
    if strong not in ([], ["This run may not show what it claims."]):
        problems.append(f"emphasis the report did not write: {strong!r}")
    codes = {norm(e[2]) for e in page.elements_of("code") if e not in mermaid}
    allowed = {"report.html", "summary.json"} | {r["code"] for r in summary["validity"]["reasons"]}
    # the legend under the anonymous RSS chart: each variant and its colour
    allowed |= {name for name in summary["variant_order"] if re.fullmatch(r"[A-Za-z0-9._-]+", name)}
    allowed |= {v.get("colour") for v in summary["variants"].values()}
    if not codes <= allowed:
        problems.append(f"code spans the report did not write: {sorted(codes - allowed)!r}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
