"""Headless Chromium for the report and playground tests: the page after its script ran
(``--dump-dom``), a screenshot, and a tiny PNG reader (zlib only) to look at its pixels."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

CHROMIUM = next(
    (found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))), None
)

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium on PATH: the browser tests need Debian's chromium (apt-get install chromium; .ci/run installs it)",
)

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
)


def chromium(url: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Run headless Chromium once on ``url`` with a profile of its own."""
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory(prefix="fb-chromium-") as profile:
        command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args, url]
        env = {**os.environ, "HOME": profile}  # crashpad and fontconfig write under HOME
        run = subprocess.run(command, capture_output=True, timeout=180, env=env)
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")[-2000:]
    return run


def dump_dom(url: str) -> str:
    """The DOM once the page's script has run (virtual time lets its fetches finish)."""
    return chromium(url, "--virtual-time-budget=15000", "--dump-dom").stdout.decode("utf-8")


def screenshot(url: str, path: Path, size: tuple[int, int] = (900, 700)) -> Path:
    """A PNG of the page at ``size``."""
    chromium(url, "--virtual-time-budget=15000", f"--window-size={size[0]},{size[1]}", f"--screenshot={path}")
    assert path.is_file(), "chromium wrote no screenshot"
    return path


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG, unfiltered."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, header = 8, b"", b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG kind {depth=} {colour=}"
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        _unfilter(kind, line, previous, bpp)
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def _unfilter(kind: int, line: bytearray, up: bytearray, bpp: int) -> None:
    if kind == 0:
        return
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b = up[i]
        if kind == 1:
            line[i] = (line[i] + a) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + b) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
        else:
            c = up[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF


def pixels(path: Path) -> list[tuple[int, int, int]]:
    """Every pixel's RGB."""
    width, _, rows = read_png(path)
    bpp = len(rows[0]) // width
    return [(row[i], row[i + 1], row[i + 2]) for row in rows for i in range(0, len(row), bpp)]
