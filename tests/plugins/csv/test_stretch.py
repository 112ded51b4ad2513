"""Healing line by line as text (``heal/stretch.py``) agrees with the plan it stands in
for: on many generated tables, each damaged in the ways models damage CSV (and in some
others), both give the same healed text, the same repairs (kind, message, span), the same
value, or the same refusal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from formatbook_core import HealError
from formatbook_csv import heal as healing
from formatbook_csv.heal import stretch

CELLS = ["a", "b c", "", "x,y", 'say "hi"', "1.5", " lead", "tail ", "p|q", "s;t", "...", "é", '"', "h0", 'said "x" y']


def _field(rng: random.Random, d: str) -> str:
    cell = rng.choice(CELLS)
    if any(c in cell for c in f'{d}"') or (cell[:1] == " " and rng.random() < 0.8) or rng.random() < 0.05:
        return '"' + cell.replace('"', '""') + '"'
    return cell


def _damage(rng: random.Random, lines: list[str], d: str) -> list[str]:
    kind = rng.randrange(9)
    if kind == 0:  # blanks after delimiters, on some rows
        return [d.join(line.split(d)) if rng.random() < 0.3 else line.replace(d, d + " ") for line in lines]
    if kind == 1:  # blank lines between rows (some of blanks)
        out = []
        for line in lines:
            out.append(line)
            if rng.random() < 0.5:
                out.append(rng.choice(["", " ", "\t ", ""]))
        return out
    if kind == 2:  # quotes not doubled
        return [line.replace('""', '"') for line in lines]
    if kind == 3:  # a blank before the first field or a tab after a delimiter
        i = rng.randrange(len(lines))
        lines[i] = rng.choice([" ", "\t", ""]) + lines[i].replace(d, d + "\t", 1)
        return lines
    if kind == 4:  # an empty field past the last column, a row cut short
        i = rng.randrange(len(lines))
        lines[i] = rng.choice([lines[i] + d, lines[i].rsplit(d, 1)[0], lines[i] + d + "x"])
        return lines
    if kind == 5:  # the header repeated, an elision
        lines.insert(rng.randrange(1, len(lines) + 1), rng.choice([lines[0], "...", " ... "]))
        return lines
    if kind == 6:  # a stray quote or white space of another kind
        i = rng.randrange(len(lines))
        at = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:at] + rng.choice(['"', "\u00a0", "\r", " "]) + lines[i][at:]
        return lines
    return lines


def _markdown(rng: random.Random) -> str:
    """A Markdown table: emphasis on a header name, pipes around or not, blank lines, a
    cell escaping a pipe, a row short of a cell, prose after it."""
    width = rng.randint(1, 4)
    names = [rng.choice(["h{}", "**h{}**", "_h{}_", "h {}", "h,{}"]).format(i) for i in range(width)]
    outer = rng.random() < 0.8

    def row(cells: list[str]) -> str:
        body = rng.choice([" | ", "|", " |  "]).join(cells)
        return f"| {body} |" if outer else body

    lines = [row(names), row([rng.choice(["---", ":--", "-:", ":-:"]) for _ in names])]
    for _ in range(rng.randint(1, 5)):
        cells = [rng.choice(CELLS).replace("|", rng.choice(["\\|", "/"])) for _ in names]
        if rng.random() < 0.1:
            cells.pop()
        lines.append(row(cells))
        if rng.random() < 0.2:
            lines.append(rng.choice(["", "  "]))
    if rng.random() < 0.1:
        lines.append(rng.choice(["That is all.", "...", row(names)]))
    return "\n".join(lines) + rng.choice(["", "\n", "\n\n"])


def _reply(rng: random.Random) -> tuple[str, dict[str, str]]:
    text, options = _lf_reply(rng)
    if rng.random() < 0.3:  # every line ended by CRLF (a carriage return alone stays one)
        text = text.replace("\n", "\r\n")
    return text, options


def _lf_reply(rng: random.Random) -> tuple[str, dict[str, str]]:
    if rng.random() < 0.25:
        return _markdown(rng), rng.choice([{}, {"delimiter": ","}, {"delimiter": "auto"}, {"delimiter": ";"}])
    d = rng.choice([",", ",", ";", "|", "\t"])
    width = rng.randint(1, 4)
    lines = [d.join(f"h{i}" for i in range(width))]
    lines += [d.join(_field(rng, d) for _ in range(width)) for _ in range(rng.randint(1, 6))]
    for _ in range(rng.randint(0, 2)):
        lines = _damage(rng, lines, d)
    text = "\n".join(lines) + rng.choice(["", "\n", "\n\n"])
    if rng.random() < 0.3:  # the last row cut off
        text = text.rstrip("\n")
        text = text[: rng.randrange(text.rfind("\n") + 1, len(text) + 1)]
    return text, rng.choice([{}, {"delimiter": ","}, {"delimiter": "auto"}, {"delimiter": ";"}])


def _outcome(text: str, options: dict[str, str]) -> Any:
    try:
        healed = healing.heal(text, None, options)
    except HealError as e:
        return ("refused", str(e), [(v.code, v.message, v.span) for v in e.violations])
    value = healed.analysis.value if healed.analysis is not None else None
    return (healed.text, [(r.kind, r.message, r.span) for r in healed.repairs], value)


def test_line_by_line_healing_agrees_with_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(29)
    cases = [_reply(rng) for _ in range(500)]
    fast = [_outcome(text, options) for text, options in cases]
    calls: list[bool] = []
    real = stretch.heal

    def counted(h: Any) -> bool:
        calls.append(real(h))
        return calls[-1]

    monkeypatch.setattr(stretch, "heal", counted)
    for text, options in cases:
        _outcome(text, options)
    taken = sum(calls)
    monkeypatch.setattr(stretch, "heal", lambda h: False)
    for (text, options), got in zip(cases, fast, strict=True):
        assert got == _outcome(text, options), (text, options)
    assert taken > 100  # the line-by-line healing was tried, and took many of them


def test_the_common_damage_is_healed_line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checked by hand: blanks after commas on a row with and without a quote, a blank
    line, a last row cut off."""
    text = 'id,note\n1, a\n\n2, "b, c"\n3'
    taken: list[bool] = []
    real = stretch.heal
    monkeypatch.setattr(stretch, "heal", lambda h: taken.append(real(h)) or taken[-1])
    healed = healing.heal(text, None, {"delimiter": ","})
    assert taken == [True]
    assert healed.text == 'id,note\n1,a\n2,"b, c"'
    assert [(r.kind, r.span.start, r.span.end) for r in healed.repairs] == [
        ("space_after_delimiter", 8, 12),  # the quote-free row: one repair for the line
        ("blank_line", 13, 14),
        ("space_after_delimiter", 16, 17),  # the row with a quote: one for each field
        ("truncated_row", 24, 25),
    ]
    assert healed.analysis is not None
    assert healed.analysis.value == [{"id": "1", "note": "a"}, {"id": "2", "note": "b, c"}]
