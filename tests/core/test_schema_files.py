"""Schema and contract files named in an EXPECT line are looked at before they are read:
only a regular file of at most MAX_SCHEMA_FILE_SIZE bytes is read (issue 30: a sparse 4 GB
file hung JSON loading and took 4.3 GB for Markdown; a FIFO would block)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from formatbook_core import ExpectationError
from formatbook_core.limits import MAX_SCHEMA_FILE_SIZE
from formatbook_core.registry import default_registry
from formatbook_core.schema_files import read_schema_bytes, read_schema_file, schema_path

#: Every format that reads a schema or contract file, and the file name it takes.
FORMATS = {
    "json": "schema.json",
    "yaml": "schema.json",
    "csv": "schema.json",
    "xml": "schema.xsd",
    "html": "schema.json",
    "icalendar": "schema.json",
    "markdown": "contract.md",
}


def _load(fmt: str, path: Path) -> Any:
    """Load ``path`` as ``fmt``'s schema on a thread: a FIFO must not block the caller."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(default_registry().get(fmt).load_schema(path))
        except BaseException as err:  # handed to the test
            out.append(err)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), f"{fmt}: loading the schema file blocked"
    return out[0]


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as f:
        f.truncate(size)  # sparse: costs no disk
    return path


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_sparse_4_gb_file_is_refused_unread(fmt: str, tmp_path: Path) -> None:
    path = _sparse(tmp_path / FORMATS[fmt], 4 * 2**30)
    err = _load(fmt, path)
    assert isinstance(err, ExpectationError), err
    assert str(path) in str(err) and f"{MAX_SCHEMA_FILE_SIZE:,} bytes" in str(err)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_fifo_is_refused_without_blocking(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / FORMATS[fmt]
    os.mkfifo(path)
    err = _load(fmt, path)
    assert isinstance(err, ExpectationError), err
    assert str(path) in str(err) and "a FIFO" in str(err)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_directory_is_refused(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / FORMATS[fmt]
    path.mkdir()
    err = _load(fmt, path)
    assert isinstance(err, ExpectationError), err
    assert str(path) in str(err) and "a directory" in str(err)


def test_a_device_is_refused() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    with pytest.raises(ExpectationError, match="a device"):
        read_schema_bytes("/dev/zero")


def test_a_file_of_exactly_the_cap_is_read(tmp_path: Path) -> None:
    head = b'{"type": "string", "description": "'
    tail = b'"}'
    path = tmp_path / "schema.json"
    path.write_bytes(head + b"x" * (MAX_SCHEMA_FILE_SIZE - len(head) - len(tail)) + tail)
    assert path.stat().st_size == MAX_SCHEMA_FILE_SIZE
    assert len(read_schema_bytes(path)) == MAX_SCHEMA_FILE_SIZE
    loaded = _load("json", path)
    assert not isinstance(loaded, BaseException), loaded
    assert loaded.schema["type"] == "string"


def test_one_byte_over_the_cap_is_refused(tmp_path: Path) -> None:
    path = _sparse(tmp_path / "schema.json", MAX_SCHEMA_FILE_SIZE + 1)
    with pytest.raises(ExpectationError, match="larger than"):
        read_schema_file(path)


def test_a_missing_file_is_an_os_error_for_the_caller_to_word(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_schema_file(tmp_path / "nowhere.json")
    with pytest.raises(ExpectationError, match="schema file not found"):
        _raise(_load("json", tmp_path / "nowhere.json"))


def test_schema_path_places_a_relative_name_under_base_dir(tmp_path: Path) -> None:
    assert schema_path("s.json", tmp_path) == tmp_path / "s.json"
    assert schema_path(tmp_path / "s.json", "/elsewhere") == tmp_path / "s.json"
    assert schema_path("s.json") == Path("s.json")


def _raise(value: Any) -> Any:
    if isinstance(value, BaseException):
        raise value
    return value


def test_a_small_file_is_read_without_a_large_buffer(tmp_path: Path) -> None:
    """Reads are sized to the file: a read of 1 MiB to see the end of a 300-byte contract
    made a 1 MiB buffer at every check naming it (the peak of checking a 20 KB reply)."""
    import tracemalloc  # noqa: PLC0415 - this test only

    path = tmp_path / "contract.md"
    path.write_text("## Output format\n- Short answer — text (required)\n" * 6, encoding="utf-8")
    tracemalloc.start()
    try:
        data = read_schema_bytes(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert data == path.read_bytes()
    assert peak < 8 * len(data)  # 1,048,600 bytes before


def test_a_file_longer_than_its_stat_said_is_read_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that grew after it was looked at: the reads go on until its end."""
    path = tmp_path / "schema.json"
    data = b'{"type": "object"}' + b" " * 3_000_000
    path.write_bytes(data)
    real = os.fstat

    def smaller(fd: int) -> os.stat_result:
        info = list(real(fd))
        info[6] = 10  # st_size
        return os.stat_result(info)

    monkeypatch.setattr(os, "fstat", smaller)
    assert read_schema_bytes(path) == data
