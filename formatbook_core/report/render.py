"""A :class:`~formatbook_core.report.aggregate.Tally` as one self-contained HTML page.

The page is ``template.html`` (package data) with its sections filled in: inline CSS, an
inline script allowed by its hash in the page's Content-Security-Policy (no other script
runs, nothing is loaded from anywhere), histograms as inline SVG. Every number a test may
check carries a ``data-stat`` attribute; every text from the verdicts is escaped.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from importlib import resources

from .aggregate import VERDICTS, Histogram, Tally, Worst
from .highlight import escape, highlight, legend, marks_of

_MARKER = re.compile(r"__(STYLE|CSP_SCRIPT|TITLE|BODY|SCRIPT)__")
TOP = 25  # rows of the code and kind tables


def script_hash(script: str) -> str:
    """The Content-Security-Policy source that lets ``script`` (inline) run, and no other."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


def page(template: str, title: str, body: str, script: str) -> str:
    """``template`` with its title, body and script, the script's hash in the CSP."""
    values = {
        "STYLE": asset("style.css"),
        "CSP_SCRIPT": script_hash(script),
        "TITLE": escape(title),
        "BODY": body,
        "SCRIPT": script,
    }
    # one pass: a marker inside a value (a reply may say __SCRIPT__) is left as it is
    return _MARKER.sub(lambda found: values[found.group(1)], template)


def asset(name: str) -> str:
    """A text file shipped beside this module."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def render(tally: Tally, source: str) -> str:
    """The report page of ``tally`` (``source``: the verdicts file's name, shown in the title)."""
    sections = [
        _summary(tally),
        _table_section(
            "Violation codes", "codes", ["code", "replies", "occurrences"], _ranked(tally.codes, tally.code_hits)
        ),
        _table_section(
            "Repair kinds", "kinds", ["kind", "replies", "occurrences"], _ranked(tally.kinds, tally.kind_hits)
        ),
        _lines(tally),
        _histograms(tally),
        _groups(tally),
        _worst(tally),
    ]
    body = f"<h1>formatbook report <small>{escape(source)}</small></h1>" + "".join(s for s in sections if s)
    return page(asset("template.html"), f"formatbook report: {source}", body, asset("report.js"))


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def _summary(t: Tally) -> str:
    cards = [f'<div class="card"><div class="n" data-stat="rows">{t.rows}</div><div>replies</div></div>']
    for v in VERDICTS:
        n = t.verdicts[v]
        cards.append(
            f'<div class="card {v}"><div class="n" data-stat="{v}">{n}</div><div>{v} · {_pct(n, t.rows)}</div></div>'
        )
    others = [(v, n) for v, n in t.verdicts.items() if v not in VERDICTS and n]
    for v, n in others:
        cards.append(
            f'<div class="card"><div class="n" data-stat="verdict-{escape(v)}">{n}</div><div>{escape(v)}</div></div>'
        )
    bar = _split_bar([(v, t.verdicts[v]) for v in VERDICTS], t.rows)
    notes = []
    if t.truncated:
        notes.append(f'<span data-stat="truncated">{t.truncated}</span> healed as cut off by the end of the reply')
    if t.unreadable:
        notes.append(f'<span data-stat="unreadable">{t.unreadable}</span> lines were not verdict records (skipped)')
    formats = ", ".join(f"{escape(k)} {n}" for k, n in t.formats.most_common(10))
    if formats:
        notes.append(f"formats: {formats}")
    extra = "".join(f"<p class=note>{n}</p>" for n in notes)
    return f'<section id="summary"><h2>Verdicts</h2><div class="cards">{"".join(cards)}</div>{bar}{extra}</section>'


def _split_bar(parts: Sequence[tuple[str, int]], total: int) -> str:
    if not total:
        return ""
    x = 0.0
    rects = []
    for name, n in parts:
        w = 600 * n / total
        rects.append(
            f'<rect class="{name}" x="{x:.2f}" y="0" width="{w:.2f}" height="18"><title>{name} {n}</title></rect>'
        )
        x += w
    return f'<svg class="split" viewBox="0 0 600 18" width="600" height="18" role="img">{"".join(rects)}</svg>'


def _ranked(replies: Counter[str], hits: Counter[str]) -> list[list[str]]:
    return [[f"<code>{escape(k)}</code>", str(n), str(hits.get(k, 0))] for k, n in replies.most_common(TOP)]


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]], name: str) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="sortable" data-table="{name}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _table_section(title: str, name: str, headers: Sequence[str], rows: list[list[str]]) -> str:
    if not rows:
        return f'<section id="{name}"><h2>{title}</h2><p class=note>none</p></section>'
    return f'<section id="{name}"><h2>{title}</h2>{_table(headers, rows, name)}</section>'


def _lines(t: Tally) -> str:
    if not t.lines:
        return ""
    rows = [
        [f"<code>{escape(line)}</code>", str(c["met"]), str(c["not met"]), str(c["not evaluated"])]
        for line, c in t.lines.items()
    ]
    return (
        '<section id="lines"><h2>EXPECT lines</h2>'
        + _table(["line", "met", "not met", "not evaluated"], rows, "lines")
        + "</section>"
    )


def _histograms(t: Tally) -> str:
    if not t.histograms:
        return ""
    figures = "".join(_histogram(h) for h in t.histograms.values())
    return f'<section id="histograms"><h2>Counts against their limits</h2><div class="hists">{figures}</div></section>'


def _histogram(h: Histogram) -> str:
    """One histogram as SVG: a bar a bin, the limit as a dashed line, values past it in red."""
    if h.low is None or h.high is None:
        return ""
    low, high = h.low, h.high
    if h.limit is not None:  # the axis reaches the limit, so that its line is drawn
        low, high = min(low, h.limit[1]), max(high, h.limit[1] + 1)
    first, last = low // h.width, high // h.width
    nbins = last - first + 1
    tallest = max(h.bins.values())
    width, height, top = 360, 120, 8
    bar = width / nbins
    rects = []
    for i in range(nbins):
        n = h.bins.get(first + i, 0)
        if not n:
            continue
        lo = (first + i) * h.width
        hi = lo + h.width - 1
        bad = h.limit is not None and _bin_breaks(h.limit, lo, hi)
        bh = (height - top) * n / tallest
        label = f"{lo}" if lo == hi else f"{lo}–{hi}"
        rects.append(
            f'<rect class="{"bad" if bad else "ok"}" x="{i * bar:.2f}" y="{height - bh:.2f}" '
            f'width="{max(bar - 1, 0.5):.2f}" height="{bh:.2f}"><title>{label}: {n}</title></rect>'
        )
    marker = ""
    if h.limit is not None:
        sign, amount = h.limit
        position = amount + (1 if sign == "max" else 0)  # a MAX is broken past its amount
        x = (position / h.width - first) * bar
        if 0 <= x <= width:
            marker = f'<line class="limit" x1="{x:.2f}" x2="{x:.2f}" y1="0" y2="{height}"><title>{sign} {amount}</title></line>'
    caption = (
        f'<code>{escape(h.line)}</code><br><span data-stat="hist-n">{h.n}</span> counted, '
        f"{h.low}–{h.high}, mean {h.total / h.n:.1f}"
    )
    if h.limit is not None:
        caption += f', <span class="bad" data-stat="hist-broken">{h.broken}</span> past the limit'
    svg = (
        f'<svg class="hist" viewBox="0 0 {width} {height + 14}" width="{width}" height="{height + 14}" role="img">'
        f"{''.join(rects)}{marker}"
        f'<text x="0" y="{height + 12}">{first * h.width}</text>'
        f'<text x="{width}" y="{height + 12}" text-anchor="end">{(last + 1) * h.width - 1}</text>'
        "</svg>"
    )
    return f"<figure>{svg}<figcaption>{caption}</figcaption></figure>"


def _bin_breaks(limit: tuple[str, int], lo: int, hi: int) -> bool:
    sign, amount = limit
    if sign == "max":
        return lo > amount
    if sign == "min":
        return hi < amount
    return not lo <= amount <= hi


def _groups(t: Tally) -> str:
    if not t.groups:
        return ""
    rows = []
    for name, g in sorted(t.groups.items(), key=lambda item: -sum(item[1].verdicts.values())):
        n = sum(g.verdicts.values())
        top = ", ".join(f"<code>{escape(c)}</code> {k}" for c, k in g.codes.most_common(3))
        rows.append([escape(name), str(n), *(str(g.verdicts[v]) for v in VERDICTS), _pct(g.verdicts["fail"], n), top])
    headers = [t.group_by or "group", "replies", *VERDICTS, "fail %", "top violation codes"]
    return (
        f'<section id="groups"><h2>By {escape(t.group_by or "group")}</h2>{_table(headers, rows, "groups")}</section>'
    )


def _worst(t: Tally) -> str:
    items = t.worst()
    if not items:
        return ""
    return (
        f'<section id="worst"><h2>The worst replies <small>({len(items)})</small></h2>'
        + "".join(reply_card(w) for w in items)
        + "</section>"
    )


def reply_card(w: Worst) -> str:
    """One reply: where it was, its verdict, the reply with its marks, the list, the payload."""
    marks = marks_of(w.record)
    head = [f'<span class="verdict {escape(w.verdict)}">{escape(w.verdict)}</span>']
    if w.line is not None:
        head.append(f"line {escape(w.line)}")
    if w.ident is not None:
        head.append(f"id <code>{escape(w.ident)}</code>")
    if w.group is not None:
        head.append(f"group <code>{escape(w.group)}</code>")
    codes = ", ".join(dict.fromkeys(m.label for m in marks if m.cls == "v"))
    if codes:
        head.append(escape(codes))
    if w.reply is not None:
        shown = f'<pre class="reply">{highlight(w.reply, marks, w.length)}</pre>'
    else:
        shown = '<p class="note">the reply is not in the verdicts (give the input with --replies to see it marked)</p>'
    text = w.record.get("text")
    payload = (
        f'<h4>checked payload</h4><pre class="payload">{escape(text)}</pre>' if isinstance(text, str) and text else ""
    )
    return f'<details class="worst" open><summary>{" · ".join(head)}</summary>{shown}{legend(marks)}{payload}</details>'
