"""A real batch run to report on: replies of two models, checked by ``formatbook check --jsonl``."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from formatbook_core.cli import main
from formatbook_core.serve import make_server

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
}
XSS = "not json <script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\">"
REPLIES = [
    '{"name": "Ada", "age": 36}',  # pass
    "Sure! ```json\n{'name': 'Bob', age: 3,}\n```",  # healed: quotes, a bare key, a trailing comma
    XSS,  # fail: json.heal
    '{"name": "C"',  # fail: cut off, then schema.required
    '{"name": "Dan", "age": "x"}',  # fail: schema.type
    '{"name": "Eve Ann Mary Lou Sue", "age": 5}',  # fail: count.max (6 words > MAX 4)
]


def write_rows(path: Path, n: int) -> Path:
    """``n`` rows: reply ``i % 6`` of REPLIES, model ``a`` for even rows and ``b`` for odd ones,
    with a blank line after row 10 (verdict ``line`` numbers count it)."""
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps({"id": f"r{i}", "model": "ab"[i % 2], "reply": REPLIES[i % 6]}) + "\n")
            if i == 10:
                f.write("\n")
    return path


@pytest.fixture
def batch(tmp_path: Path) -> dict[str, Path]:
    """A batch run's input, schema and verdicts (JSONL)."""
    (tmp_path / "s.json").write_text(json.dumps(SCHEMA))
    rows = write_rows(tmp_path / "in.jsonl", 30)
    out = tmp_path / "verdicts.jsonl"
    code = main(
        ["check", "--jsonl", str(rows), "-e", f"JSON {tmp_path / 's.json'}", "-e", "MAX 4 WORDS"]
        + ["--out", str(out), "--workers", "1"]
    )
    assert code == 1  # some replies fail
    return {"dir": tmp_path, "rows": rows, "verdicts": out}


def records(path: Path) -> list[dict]:
    """The verdict records of a JSONL file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@contextmanager
def serving(examples: Path) -> Iterator[tuple[str, int]]:
    """``formatbook serve`` of ``examples`` on a free local port, in a thread: (host, port)."""
    srv = make_server("127.0.0.1", 0, examples)
    thread = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield "127.0.0.1", srv.server_address[1]
    finally:
        srv.shutdown()
        srv.server_close()
