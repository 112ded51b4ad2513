"""The verdicts of the last few texts a format read, kept by the text's identity.

``is_valid``, ``validate``, ``heal`` and a checker's ``finish`` of one reply ask about the
same string object in a row, and a format whose reading is costly (a library parsing the
whole text) would read it once per question. A format keeps its verdicts here: only
immutable answers (a tuple of ``Violation``), never a parsed value, which a caller may
change (every value is read anew). A text is held with its verdict, so no other object
can take its identity; an equal new string is read again, as a benchmark's ``fresh()``
wants. Used by HTML, iCalendar, vCard and YAML.
"""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["Verdicts"]

V = TypeVar("V")


class Verdicts(Generic[V]):
    """The verdicts of the last ``size`` texts, newest first: ``get`` and ``put`` by the
    text object and a ``key`` (what else the verdict depends on: the schema, the limits),
    compared with ``==``."""

    __slots__ = ("_entries", "_size")

    def __init__(self, size: int = 4) -> None:
        self._size = size
        # replaced whole, never changed in place: a reader in another thread sees one or the other
        self._entries: tuple[tuple[str, object, V], ...] = ()

    def get(self, text: object, key: object = None) -> V | None:
        """The verdict kept for ``text`` (that object) under ``key``, else ``None``."""
        if isinstance(text, str):
            for seen, seen_key, verdict in self._entries:
                if seen is text and seen_key == key:
                    return verdict
        return None

    def put(self, text: object, verdict: V, key: object = None) -> None:
        """Keep ``verdict`` for ``text`` under ``key``, first; its earlier entry is dropped
        (a text read again pushes no other text out) and the oldest beyond ``size``."""
        if not isinstance(text, str):
            return
        others = tuple(e for e in self._entries if not (e[0] is text and e[1] == key))
        self._entries = ((text, key, verdict), *others[: self._size - 1])
