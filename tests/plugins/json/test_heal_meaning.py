"""A heal keeps the meaning or refuses (issue 25), and a healer treats text as cut off
only where the reply ends (issue 30): each class with variants of its own, through
check() and a StreamGuard fed in chunks."""

from __future__ import annotations

import pytest

from formatbook_core import StreamGuard, check


def _guard_agrees(reply: str, expect: str) -> None:
    """A guard fed ``reply`` in chunks never stops what check() accepts, at check()'s own counts."""
    result = check(reply, expect)
    for size in (1, 2, 5, 1000):
        guard = StreamGuard(expect)
        fed = all(guard.feed(reply[i : i + size]) for i in range(0, len(reply), size))
        if result.ok:
            assert fed, (reply, size)
        assert guard.finish().ok == result.ok


# --- a backslash that escapes nothing: the string's backslashes are literal -----------
PATHS = [
    ('{"path": "C:\\Users\\ada\\new"}', {"path": "C:\\Users\\ada\\new"}),
    ('{"path": "D:\\data\\tmp\\report.txt"}', {"path": "D:\\data\\tmp\\report.txt"}),
    ("{'dir': 'C:\\Program Files\\nodejs'}", {"dir": "C:\\Program Files\\nodejs"}),
    ('```json\r\n{"p": "\\\\server\\share\\new folder"}\r\n```', {"p": "\\server\\share\\new folder"}),
    ('<think>a path</think>{"p": "C:\\Temp\\u_files\\b"}', {"p": "C:\\Temp\\u_files\\b"}),
    ('Voilà : {"chemin": "C:\\Utilisateurs\\élodie\\notes"}', {"chemin": "C:\\Utilisateurs\\élodie\\notes"}),
]


@pytest.mark.parametrize(("reply", "value"), PATHS)
def test_a_raw_windows_path_keeps_its_backslashes(reply, value):
    result = check(reply, "EXPECT JSON")
    assert result.ok and result.value == value
    assert "invalid_escape" in [r.kind for r in result.repairs]
    assert check(result.text, "EXPECT JSON").value == value  # idempotent
    _guard_agrees(reply, "EXPECT JSON")
    words = len(" ".join(value.values()).split())
    _guard_agrees(reply, f"EXPECT JSON\nEXPECT MAX {words} WORDS")


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ('{"a": "line one\\nline two"}', {"a": "line one\nline two"}),  # JSON as it stands
        ('{"a": "tab\\there \\\\ and \\"q\\""}', {"a": 'tab\there \\ and "q"'}),
        ('{"a": "it\\\'s\\nfine"}', {"a": "it's\nfine"}),  # \' is the apostrophe meant, no literal mode
    ],
)
def test_a_string_without_such_a_backslash_reads_as_json(reply, value):
    assert check(reply, "EXPECT JSON").value == value
