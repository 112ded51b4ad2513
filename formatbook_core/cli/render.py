"""How the ``formatbook`` command shows its results.

Two renderers with one interface: ``RichRenderer`` (tables and colours, used when the
output is a terminal) and ``PlainRenderer`` (plain lines, used when the output is piped,
so that ``grep`` and tests read it easily, and on a terminal when rich is not installed:
it is the ``pretty`` extra). ``NO_COLOR`` switches colours off; rich is imported only when
a terminal asks for it, so that ``formatbook --help`` stays fast.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any

VERDICT_STYLE = {"pass": "bold green", "healed": "bold yellow", "fail": "bold red", "error": "bold magenta"}


def is_terminal(stream: IO[str]) -> bool:
    """True when ``stream`` is an interactive terminal that can show rich output."""
    try:
        return bool(stream.isatty()) and os.environ.get("TERM", "") != "dumb"
    except (AttributeError, ValueError):  # closed or fake streams
        return False


def has_rich() -> bool:
    """True when rich (the ``pretty`` extra) is installed; found without importing it."""
    return importlib.util.find_spec("rich") is not None


def make_renderer(stream: IO[str] | None = None) -> PlainRenderer:
    """The renderer suited to ``stream`` (stdout by default): rich on a terminal when rich
    is installed, plain lines otherwise."""
    stream = stream if stream is not None else sys.stdout
    if is_terminal(stream) and has_rich():
        return RichRenderer(stream)
    return PlainRenderer(stream)


def count_key(count: Any) -> str:
    """The key under which ``CheckResult.counts`` reports a ``Count``."""
    scope = getattr(count, "scope", None)
    unit = getattr(count, "noun", None) or getattr(count, "unit", "")  # a literal's noun is '","'
    return f'{unit} IN "{scope}"' if scope else str(unit)


def describe_limit(count: Any) -> str:
    """``min 2, max 3`` / ``exactly 1`` for a ``Count``."""
    parts = []
    if getattr(count, "exactly", None) is not None:
        parts.append(f"exactly {count.exactly}")
    if getattr(count, "min", None) is not None:
        parts.append(f"min {count.min}")
    if getattr(count, "max", None) is not None:
        parts.append(f"max {count.max}")
    return ", ".join(parts)


def limits_by_key(expectations: Any) -> dict[str, str]:
    """Each count key of ``expectations`` with its limits in words."""
    out: dict[str, list[str]] = {}
    for count in getattr(expectations, "counts", None) or ():
        text = describe_limit(count)
        if text:
            out.setdefault(count_key(count), []).append(text)
    return {k: ", ".join(v) for k, v in out.items()}


def _span(obj: Any) -> str:
    span = getattr(obj, "span", None)
    return f" [{span[0]}:{span[1]}]" if span is not None else ""


def _where(violation: Any) -> str:
    path = getattr(violation, "path", ()) or ()
    if path:
        return " at /" + "/".join(str(p) for p in path)
    return _span(violation)


def summarize(verdicts: Iterable[str]) -> dict[str, int]:
    """How many of each verdict, always with pass, healed and fail."""
    totals = {"pass": 0, "healed": 0, "fail": 0}
    for v in verdicts:
        totals[v] = totals.get(v, 0) + 1
    return totals


def summary_line(totals: dict[str, int]) -> str:
    n = sum(totals.values())
    parts = [f"{count} {name}" for name, count in totals.items() if count or name in ("pass", "healed", "fail")]
    return f"{n} repl{'y' if n == 1 else 'ies'}: " + ", ".join(parts)


class PlainRenderer:
    """Plain text, one fact per line: what is shown when the output is piped."""

    rich = False

    def __init__(self, stream: IO[str]):
        self.stream = stream

    def write(self, text: str = "") -> None:
        self.stream.write(text + "\n")

    def verdict(self, verdict: str, label: str = "", detail: str = "") -> None:
        parts = [verdict.upper().ljust(6)]
        if label:
            parts.append(label)
        if detail:
            parts.append(f"({detail})")
        self.write("  ".join(parts).rstrip())

    def table(self, title: str | None, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        cells = [[str(h) for h in headers]] + [[("" if c is None else str(c)) for c in row] for row in rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
        if title:
            self.write(title)
        for r in cells:
            self.write("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)).rstrip())

    def result(self, result: Any, *, label: str = "", expectations: Any = None, indent: str = "") -> None:
        """The verdict of one reply with its repairs, violations, set-aside text and counts."""
        self.verdict(result.verdict, label, result.format or "")
        self.details(result, expectations=expectations, indent=indent or "  ")

    def details(self, result: Any, *, expectations: Any = None, indent: str = "  ") -> None:
        w = self.write
        if result.repairs:
            w(f"{indent}repairs:")
            for r in result.repairs:
                w(f"{indent}  - {r.kind}: {r.message}{_span(r)}")
        if result.violations:
            w(f"{indent}violations:")
            for v in result.violations:
                w(f"{indent}  - {v.code}: {v.message}{_where(v)}")
        if result.set_aside:
            w(f"{indent}set aside:")
            for s in result.set_aside:
                w(f"{indent}  - {s.kind}: {_preview(s.text)}{_span(s)}")
        if result.counts:
            limits = limits_by_key(expectations)
            w(f"{indent}counts:")
            for key, n in result.counts.items():
                extra = f" ({limits[key]})" if key in limits else ""
                w(f"{indent}  - {key}: {n}{extra}")

    def error(self, message: str) -> None:
        self.write(message)


class RichRenderer(PlainRenderer):
    """Tables and colours for a terminal (``NO_COLOR`` respected by rich itself)."""

    rich = True

    def __init__(self, stream: IO[str]):
        super().__init__(stream)
        from rich.console import Console

        self.console = Console(file=stream, highlight=False, no_color=bool(os.environ.get("NO_COLOR")) or None)

    def write(self, text: str = "") -> None:
        self.console.print(text, markup=False)

    def verdict(self, verdict: str, label: str = "", detail: str = "") -> None:
        from rich.text import Text

        line = Text()
        line.append(verdict.upper().ljust(6), style=VERDICT_STYLE.get(verdict, "bold"))
        if label:
            line.append("  " + label)
        if detail:
            line.append(f"  ({detail})", style="dim")
        self.console.print(line)

    def table(self, title: str | None, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        from rich.table import Table
        from rich.text import Text

        table = Table(title=title, title_justify="left", show_lines=False)
        for h in headers:
            table.add_column(str(h), overflow="fold")
        for row in rows:
            cells = []
            for c in row:
                text = "" if c is None else str(c)
                style = VERDICT_STYLE.get(text.lower()) if text.lower() in VERDICT_STYLE else None
                cells.append(Text(text.upper() if style else text, style=style or ""))
            table.add_row(*cells)
        self.console.print(table)

    def details(self, result: Any, *, expectations: Any = None, indent: str = "  ") -> None:
        from rich.table import Table

        rows: list[tuple[str, str, str]] = []
        for r in result.repairs:
            rows.append(("repair", r.kind, f"{r.message}{_span(r)}"))
        for v in result.violations:
            rows.append(("violation", v.code, f"{v.message}{_where(v)}"))
        for s in result.set_aside:
            rows.append(("set aside", s.kind, f"{_preview(s.text)}{_span(s)}"))
        limits = limits_by_key(expectations)
        for key, n in result.counts.items():
            rows.append(("count", key, f"{n}" + (f" ({limits[key]})" if key in limits else "")))
        if not rows:
            return
        style = {"repair": "yellow", "violation": "red", "set aside": "cyan", "count": "blue"}
        table = Table(show_header=False, box=None, padding=(0, 1), pad_edge=False)
        table.add_column(style="dim")
        table.add_column()
        table.add_column(overflow="fold")
        for what, code, message in rows:
            table.add_row(indent + what, f"[{style[what]}]{_escape(code)}[/]", _escape(message))
        self.console.print(table)

    def error(self, message: str) -> None:
        self.console.print(message, style="red", markup=False)


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _preview(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
