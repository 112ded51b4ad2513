"""A watch on a directory that reports every file opened in it (Linux inotify, via ctypes).

Security tests put a secret file in a temporary directory and assert that formatbook never
opens it: not that its text stays out of the output, but that the open itself never
happens, whoever would do it (Python, libxml2 or another C library). Where inotify is not
available, :func:`file_open_watch` skips the test.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

IN_OPEN = 0x00000020
IN_ISDIR = 0x40000000
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len: then len bytes of name


class FileOpenWatch:
    """The files opened in one directory since the watch started (or was last read)."""

    def __init__(self, fd: int, directory: Path) -> None:
        self.fd = fd
        self.directory = directory

    def opened(self) -> list[str]:
        """The names of the files opened since the last call (the directory's own opens,
        a listing, are left out)."""
        names: list[str] = []
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return names
            at = 0
            while at < len(data):
                _, mask, _, size = _EVENT.unpack_from(data, at)
                name = data[at + _EVENT.size : at + _EVENT.size + size].rstrip(b"\0").decode()
                at += _EVENT.size + size
                if mask & IN_OPEN and not mask & IN_ISDIR and name:
                    names.append(name)


@contextmanager
def file_open_watch(directory: str | os.PathLike[str]) -> Iterator[FileOpenWatch]:
    """Watch ``directory`` for file opens while the block runs (skips without inotify)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    init = getattr(libc, "inotify_init1", None)
    if init is None:
        pytest.skip("no inotify here: the file-open watch needs Linux")
    fd = init(os.O_NONBLOCK | os.O_CLOEXEC)
    if fd < 0:
        pytest.skip(f"inotify_init1 failed: {os.strerror(ctypes.get_errno())}")
    try:
        if libc.inotify_add_watch(fd, os.fsencode(directory), IN_OPEN) < 0:
            pytest.skip(f"inotify_add_watch failed: {os.strerror(ctypes.get_errno())}")
        yield FileOpenWatch(fd, Path(directory))
    finally:
        os.close(fd)
