"""A guard and its twin that never spares its checker, and what both answer when asked.

``StreamGuard`` spares a quiet checker (``quiet()``) the chunks that cannot change its
answer; the reference is the same guard never asking. The tests of that (the core's, with a
throwaway format, and JSON's) feed both the same chunks through :func:`answers`.
"""

from __future__ import annotations

from formatbook_core import Expectations, StreamGuard


def never_asking(expect: Expectations) -> StreamGuard:
    """``StreamGuard(expect)`` that feeds its checker every chunk as it comes."""
    guard = StreamGuard(expect)
    guard._quiets = False
    guard._reask = guard._spare_end = -1
    return guard


def answers(guard: StreamGuard, chunks: list[str], probe: int) -> list[tuple]:
    """Every feed's status (``ok, reason, position, complete``: the only rows of four);
    every ``probe``-th feed ``headroom()``, ``can_end()``, ``closing()`` and ``status``,
    every third such feed the text; halfway the guard goes on as its copy; at the end
    ``finish()`` (its verdict, counts and violations) and the room after it."""
    out: list[tuple] = []
    for n, chunk in enumerate(chunks):
        if n == len(chunks) // 2:
            guard = guard.copy()
        s = guard.feed(chunk)
        out.append((s.ok, s.reason, s.position, s.complete))
        if n % probe == 0:
            out.append(("asked", guard.headroom(), guard.can_end(), guard.closing(), guard.status.ok))
        if n % (3 * probe) == 1:
            out.append(("text", guard.text))
        if not s.ok:
            break
    result = guard.finish()
    out.append(("finish", result.ok, dict(result.counts or {}), [v.code for v in result.violations], guard.headroom()))
    return out
