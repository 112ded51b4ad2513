"""Shrinking a failing input to a small one that fails the same way (delta debugging on
characters, then lines made simpler), within a bounded number of attempts."""

from __future__ import annotations

from collections.abc import Callable


def shrink(text: str, fails: Callable[[str], bool], max_attempts: int = 3_000) -> str:
    """The smallest text found that still ``fails``: removes ever smaller chunks while any
    removal keeps the failure, then replaces characters by ``a`` one at a time."""
    attempts = 0

    def tries(candidate: str) -> bool:
        nonlocal attempts
        attempts += 1
        return fails(candidate)

    size = max(1, len(text) // 2)
    while size >= 1 and attempts < max_attempts:
        i = 0
        removed = False
        while i < len(text) and attempts < max_attempts:
            candidate = text[:i] + text[i + size :]
            if tries(candidate):
                text = candidate
                removed = True
            else:
                i += size
        if not removed:
            size //= 2
    # simpler characters: a letter where any other character does as well
    for i in range(len(text)):
        if attempts >= max_attempts:
            break
        if text[i] not in "a\n" and tries(text[:i] + "a" + text[i + 1 :]):
            text = text[:i] + "a" + text[i + 1 :]
    return text
