"""What a batch report says, gathered one verdict record at a time (memory flat in rows).

:class:`Tally` takes each record (and, when known, the input row it judged: its reply and
its grouping field) once and keeps only bounded state: counters capped in size, a
histogram per counted EXPECT line whose bins widen as its values spread, and the few
worst replies.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..expectations import SIGNS
from .highlight import MAX_MARKS, MAX_SHOWN

#: grouping fields looked for in the rows, in this order, when none is named
GROUP_FIELDS = ("model", "group", "provider", "variant", "system", "prompt_id", "task", "category", "source", "split")
#: the most distinct values a counter keeps; the rest are added up as OTHER
MAX_KEYS = 500
#: the most groups shown apart; the rest are added up as OTHER
MAX_GROUPS = 200
#: the most counted EXPECT lines given a histogram
MAX_HISTOGRAMS = 24
OTHER = "(others)"
#: the most of the worst replies shown with the same verdict and violation codes
SAME_FAILURE = 3
VERDICTS = ("pass", "healed", "fail")

_LIMIT = re.compile(r"(?i)^(?:-\s+)?(?:expect\s+)?([a-z]+)\s+([0-9]{1,18})\b")


def limit_of(line: str) -> tuple[str, int] | None:
    """``("max", 40)`` for ``EXPECT MAX 40 WORDS``; ``None`` when the line names no number."""
    found = _LIMIT.match(line.strip())
    if found is None or found.group(1).lower() not in SIGNS:
        return None
    return SIGNS[found.group(1).lower()], int(found.group(2))


class Capped(Counter[str]):
    """A counter of at most ``cap`` keys and ``OTHER``: a new key past the cap counts as ``OTHER``."""

    def __init__(self, cap: int = MAX_KEYS) -> None:
        super().__init__()
        self.cap = cap

    def add(self, key: str, n: int = 1) -> None:
        if key not in self and len(self) >= self.cap:
            key = OTHER
        self[key] += n


@dataclass
class Histogram:
    """Counts of whole numbers in at most ``MAX_BINS`` bins of one width, doubled as the
    values spread; with the EXPECT line's limit and how many values broke it."""

    line: str
    limit: tuple[str, int] | None
    MAX_BINS = 40
    width: int = 1
    bins: Counter[int] = field(default_factory=Counter)
    n: int = 0
    total: int = 0
    low: int | None = None
    high: int | None = None
    broken: int = 0

    def add(self, value: int) -> None:
        self.n += 1
        self.total += value
        self.low = value if self.low is None else min(self.low, value)
        self.high = value if self.high is None else max(self.high, value)
        self.bins[value // self.width] += 1
        while self.span_bins() > self.MAX_BINS:
            self.width *= 2
            merged: Counter[int] = Counter()
            for key, count in self.bins.items():
                merged[key // 2] += count
            self.bins = merged
        if self.limit is not None and _breaks(self.limit, value):
            self.broken += 1

    def span_bins(self) -> int:
        """How many bins lie between the lowest and the highest value."""
        if self.low is None or self.high is None:
            return 0
        return self.high // self.width - self.low // self.width + 1


def _breaks(limit: tuple[str, int], value: int) -> bool:
    sign, amount = limit
    return value > amount if sign == "max" else value < amount if sign == "min" else value != amount


@dataclass
class Group:
    """One group's verdicts and violation codes."""

    verdicts: Counter[str] = field(default_factory=Counter)
    codes: Capped = field(default_factory=Capped)


@dataclass(frozen=True)
class Worst:
    """One of the worst replies: its record (trimmed), its reply when known, its group."""

    line: Any
    ident: Any
    verdict: str
    record: dict[str, Any]
    reply: str | None
    length: int
    group: str | None


def _rank(record: Mapping[str, Any]) -> tuple[int, int, int]:
    verdict = record.get("verdict")
    level = 2 if verdict == "fail" else 1 if verdict == "healed" else 0
    return level, _length(record.get("violations")), _length(record.get("repairs"))


def _length(items: Any) -> int:
    return len(items) if isinstance(items, list) else 0


def group_value(value: Any) -> str:
    """A grouping field's value as a short label."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:79] + "…"


def record_codes(items: Any, key: str) -> list[str]:
    """The ``key`` of each item of a record's list (``code`` of violations, ``kind`` of repairs)."""
    if not isinstance(items, list):
        return []
    return [str(item.get(key)) for item in items if isinstance(item, Mapping)]


class Tally:
    """The report's numbers, one record at a time.

    ``group_by``: the grouping field (``None``: the first of ``GROUP_FIELDS`` the first row
    carries; ``""``: none). ``worst``: how many of the worst replies are kept (at most
    ``SAME_FAILURE`` with the same verdict and codes, so that the list shows several kinds)."""

    def __init__(self, group_by: str | None = None, worst: int = 20) -> None:
        self.group_by = group_by
        self.keep = worst
        self.rows = 0
        self.unreadable = 0
        self.verdicts: Counter[str] = Counter(dict.fromkeys(VERDICTS, 0))
        self.truncated = 0
        self.formats = Capped()
        self.codes = Capped()  # replies with the code
        self.code_hits = Capped()  # occurrences
        self.kinds = Capped()
        self.kind_hits = Capped()
        self.lines: dict[str, Counter[str]] = {}  # EXPECT line -> met / not met / not evaluated
        self.histograms: dict[str, Histogram] = {}
        self.groups: dict[str, Group] = {}
        # (rank and order, kind of failure, reply): a list of at most ``worst`` items,
        # scanned on each failure (a heap cannot drop the weakest of one kind)
        self._worst: list[tuple[tuple[tuple[int, int, int], int], tuple[str, ...], Worst]] = []
        self._seen = 0

    def skip(self) -> None:
        """A line of the verdicts that is not a verdict record."""
        self.unreadable += 1

    def add(self, record: Mapping[str, Any], row: Mapping[str, Any] | None = None, reply: str | None = None) -> None:
        """Count one verdict record; ``row`` is the input row it judged (for the group),
        ``reply`` its reply (for the worst replies)."""
        self.rows += 1
        verdict = str(record.get("verdict"))
        self.verdicts[verdict] += 1
        self.truncated += record.get("truncated") is True
        self.formats.add(str(record.get("format")))
        codes = record_codes(record.get("violations"), "code")
        kinds = record_codes(record.get("repairs"), "kind")
        for code in codes:
            self.code_hits.add(code)
        for code in dict.fromkeys(codes):
            self.codes.add(code)
        for kind in kinds:
            self.kind_hits.add(kind)
        for kind in dict.fromkeys(kinds):
            self.kinds.add(kind)
        self._expectations(record.get("expectations"))
        group = self._group(record, row)
        if group is not None:
            entry = self._group_entry(group)
            entry.verdicts[verdict] += 1
            for code in dict.fromkeys(codes):
                entry.codes.add(code)
        self._consider(record, reply, group)

    def _expectations(self, entries: Any) -> None:
        if not isinstance(entries, list):
            return
        for entry in entries:
            if not isinstance(entry, Mapping) or not isinstance(entry.get("expect"), str):
                continue
            line = entry["expect"]
            if line not in self.lines and len(self.lines) >= MAX_KEYS:
                line = OTHER
            ok = entry.get("ok")
            self.lines.setdefault(line, Counter())[
                "met" if ok is True else "not met" if ok is False else "not evaluated"
            ] += 1
            count = entry.get("count")
            if "count" not in entry or not isinstance(count, int) or isinstance(count, bool) or count < 0:
                continue
            histogram = self.histograms.get(line)
            if histogram is None:
                if len(self.histograms) >= MAX_HISTOGRAMS:
                    continue
                histogram = self.histograms[line] = Histogram(line, limit_of(line))
            histogram.add(count)

    def _group(self, record: Mapping[str, Any], row: Mapping[str, Any] | None) -> str | None:
        if self.group_by is None:  # detected on the first row
            self.group_by = next((n for n in GROUP_FIELDS if n in record or (row is not None and n in row)), "")
        if not self.group_by:
            return None
        if self.group_by in record:
            return group_value(record[self.group_by])
        if row is not None and self.group_by in row:
            return group_value(row[self.group_by])
        return "(none)"

    def _group_entry(self, group: str) -> Group:
        if group not in self.groups and len(self.groups) >= MAX_GROUPS:
            group = OTHER
        return self.groups.setdefault(group, Group())

    def _consider(self, record: Mapping[str, Any], reply: str | None, group: str | None) -> None:
        rank = _rank(record)
        if rank[0] == 0 or self.keep <= 0:
            return
        self._seen += 1
        key = (rank, -self._seen)  # the earlier of two equal replies stays
        alike = _alike(record)
        same = [i for i, (k, a, _) in enumerate(self._worst) if a == alike]
        if len(same) >= SAME_FAILURE:  # replace the weakest of its kind, or nothing
            place: int | None = min(same, key=lambda i: self._worst[i][0])
        elif len(self._worst) >= self.keep:  # replace the weakest of all, or nothing
            place = min(range(len(self._worst)), key=lambda i: self._worst[i][0])
        else:
            place = None
        if place is not None and key <= self._worst[place][0]:
            return
        kept = {k: record.get(k) for k in ("verdict", "format", "text", "counts")}
        for part in ("repairs", "violations", "set_aside"):
            items = record.get(part)
            kept[part] = items[:MAX_MARKS] if isinstance(items, list) else []
        if isinstance(kept["text"], str) and len(kept["text"]) > MAX_SHOWN:
            kept["text"] = kept["text"][:MAX_SHOWN]
        shown = reply[:MAX_SHOWN] if isinstance(reply, str) else None
        length = len(reply) if isinstance(reply, str) else 0
        worst = Worst(record.get("line"), record.get("id"), str(record.get("verdict")), kept, shown, length, group)
        if place is None:
            self._worst.append((key, alike, worst))
        else:
            self._worst[place] = (key, alike, worst)

    def worst(self) -> list[Worst]:
        """The worst replies kept, worst first (fail before healed, then more violations,
        then more repairs, then the earlier line), at most ``SAME_FAILURE`` of one kind."""
        return [w for _, _, w in sorted(self._worst, key=lambda item: item[0], reverse=True)]


def _alike(record: Mapping[str, Any]) -> tuple[str, ...]:
    """What makes two failures the same kind: the verdict and the violation codes (for a
    healed reply, the repair kinds)."""
    verdict = str(record.get("verdict"))
    codes = record_codes(record.get("violations"), "code") or record_codes(record.get("repairs"), "kind")
    return (verdict, *sorted(set(codes)))
