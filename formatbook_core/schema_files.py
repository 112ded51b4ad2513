"""Schema and contract files named in an EXPECT line: the one place they are read.

EXPECT text may come from untrusted rows, and a name may point anywhere the process can
read: a file of 4 GB (sparse, so it costs its owner nothing), a FIFO that never yields a
byte, a device, a directory. A file is therefore looked at before it is read: only a
regular file of at most :data:`~formatbook_core.limits.MAX_SCHEMA_FILE_SIZE` bytes is
read, and never more than one byte beyond that, whatever the file does meanwhile.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .limits import MAX_SCHEMA_FILE_SIZE
from .options import Option
from .results import ExpectationError

#: The option every format that reads schema files by name takes (see :func:`schema_path`).
BASE_DIR = Option("base_dir", str, None, "where a schema given as a relative path is looked for")

_CHUNK = 1 << 20


def schema_path(name: str | os.PathLike[str], base_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the file ``name`` is: ``~`` expanded, a relative name under ``base_dir``
    when one is given (else the working directory)."""
    path = Path(name).expanduser()
    if not path.is_absolute() and base_dir is not None:
        path = Path(base_dir) / path
    return path


def read_schema_file(path: str | os.PathLike[str], *, what: str = "schema file", encoding: str = "utf-8") -> str:
    """The text of the file at ``path``, decoded with ``encoding``.

    Raises ``ExpectationError`` naming the file for what is not a regular file (a FIFO,
    a device, a directory) or holds more than ``MAX_SCHEMA_FILE_SIZE`` bytes; ``OSError``
    when it cannot be opened (``FileNotFoundError``...) and ``UnicodeDecodeError`` for
    text that is not in ``encoding``, for the caller to word."""
    data = read_schema_bytes(path, what=what)
    return data.decode(encoding)


def read_schema_bytes(path: str | os.PathLike[str], *, what: str = "schema file") -> bytes:
    """The bytes of the file at ``path`` (see :func:`read_schema_file`)."""
    name = os.fspath(path)
    _check(os.stat(name), name, what)  # before opening: opening a FIFO waits for a writer
    # non-blocking: a FIFO swapped in after the stat must not hold the open either
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        _check(info, name, what)  # what was opened, not what the name said before
        chunks: list[bytes] = []
        left = MAX_SCHEMA_FILE_SIZE + 1  # one byte more tells a file that grew past the cap
        # reads sized to the file: os.read makes a buffer of the size asked (shrunk after),
        # and a read of _CHUNK to see the end took 1 MiB for a contract of a few hundred
        # bytes, at every check naming a file (a 20 KB reply's: 52 bytes a character). The
        # first read asks a byte more than the file holds; after a short one, one byte
        # says whether the end is reached; a full one means the file grew: _CHUNK on
        size = info.st_size + 1
        while left > 0:
            chunk = os.read(fd, min(left, size))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
            size = _CHUNK if len(chunk) == size else 1
    finally:
        os.close(fd)
    if left <= 0:
        raise _too_large(name, what)
    return b"".join(chunks)


def _check(info: os.stat_result, name: str, what: str) -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a directory"
            if stat.S_ISDIR(info.st_mode)
            else "a FIFO"
            if stat.S_ISFIFO(info.st_mode)
            else "a device"
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "not a regular file"
        )
        raise ExpectationError(f"the {what} {name} is {kind}: only a regular file is read")
    if info.st_size > MAX_SCHEMA_FILE_SIZE:
        raise _too_large(name, what)


def _too_large(name: str, what: str) -> ExpectationError:
    return ExpectationError(
        f"the {what} {name} is larger than {MAX_SCHEMA_FILE_SIZE:,} bytes ({MAX_SCHEMA_FILE_SIZE >> 20} MiB),"
        " the most a schema file may hold"
    )
