"""The report and the playground in real headless Chromium: the pages render, their script
runs under their Content-Security-Policy, the numbers shown are the JSONL's, a reply's markup
stays text, and a screenshot is not blank. Skipped, saying why, without chromium."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from formatbook_core.report import write_report

from .browser import dump_dom, needs_chromium, pixels, screenshot
from .conftest import XSS, records, serving
from .test_report import stats, table
from .test_serve import EXAMPLES, post

pytestmark = needs_chromium

FAIL_RED, PASS_GREEN = (207, 34, 46), (26, 127, 55)  # style.css: --fail, --pass


def test_the_report_renders_with_the_jsonl_s_numbers(batch, tmp_path):
    page = tmp_path / "report.html"
    write_report(batch["verdicts"], page, replies=batch["rows"])
    dom = dump_dom(page.as_uri())
    assert 'data-ready="1"' in dom  # the page's script ran: its hash in the CSP is right
    rs = records(batch["verdicts"])
    shown = stats(dom)
    assert int(shown["rows"]) == len(rs)
    for verdict in ("pass", "healed", "fail"):
        assert int(shown[verdict]) == sum(r["verdict"] == verdict for r in rs)
    codes = {c for r in rs for c in (v["code"] for v in r["violations"])}
    assert set(table(dom, "codes")) == codes == {"json.heal", "schema.required", "schema.type", "count.max"}
    # a reply's <script> and <img onerror> stayed text: one script element, the title untouched
    assert dom.count("<script") == 1 and "<img" not in dom
    assert "<title>formatbook report: verdicts.jsonl</title>" in dom


def test_a_screenshot_of_the_report_is_not_blank(batch, tmp_path):
    page = tmp_path / "report.html"
    write_report(batch["verdicts"], page, replies=batch["rows"])
    colours = pixels(screenshot(page.as_uri(), tmp_path / "shot.png"))
    white = sum(c == (255, 255, 255) for c in colours)
    assert white < 0.97 * len(colours) and len(set(colours)) > 50
    assert FAIL_RED in colours and PASS_GREEN in colours  # the verdict split bar is drawn


@pytest.fixture
def playground(tmp_path: Path) -> Iterator[tuple[str, int]]:
    for name in ("fail-word-limit", "healed-csv-markdown-table"):
        for source in EXAMPLES.glob(f"{name}.*"):
            (tmp_path / source.name).write_bytes(source.read_bytes())
    (tmp_path / "schemas").mkdir()
    for source in (EXAMPLES / "schemas").glob("*"):
        (tmp_path / "schemas" / source.name).write_bytes(source.read_bytes())
    (tmp_path / "xss.txt").write_text(XSS)
    (tmp_path / "xss.expect").write_text("EXPECT JSON\n")
    with serving(tmp_path) as address:
        yield address


def test_the_playground_checks_and_streams_an_example(playground):
    host, port = playground
    dom = dump_dom(f"http://{host}:{port}/#example=fail-word-limit&run=stream")
    assert 'data-done="stream"' in dom
    reply = (EXAMPLES / "fail-word-limit.json").read_text(encoding="utf-8")
    expect = (EXAMPLES / "fail-word-limit.expect").read_text(encoding="utf-8")
    _, _, checked = post(playground, "/api/check", {"reply": reply, "expect": expect})
    _, _, streamed = post(playground, "/api/stream", {"reply": reply, "expect": expect, "chunk": 16})
    assert f'data-verdict="{checked["verdict"]}"' in dom and checked["verdict"] == "fail"
    assert f'data-stopped="{"yes" if streamed["stopped"] else "no"}"' in dom
    assert f"({streamed['fed']} of {streamed['length']} characters read)" in dom
    for code in {v["code"] for v in checked["violations"]}:
        assert code in dom
    assert checked["guidance"].split("\n")[0] in dom


def test_the_playground_shows_markup_in_a_reply_as_text(playground):
    host, port = playground
    dom = dump_dom(f"http://{host}:{port}/#example=xss&run=check")
    assert 'data-done="check"' in dom and 'data-verdict="fail"' in dom
    assert "<title>formatbook playground</title>" in dom
    marked = re.search(r'<pre id="marked" class="reply">(.*?)</pre>', dom, re.S)
    assert marked is not None and "<img" not in marked.group(1) and "<script" not in marked.group(1)
    assert "&lt;script&gt;document.title" in marked.group(1)


def test_a_screenshot_of_the_playground_is_not_blank(playground, tmp_path):
    host, port = playground
    shot = screenshot(f"http://{host}:{port}/#example=healed-csv-markdown-table&run=check", tmp_path / "play.png")
    colours = pixels(shot)
    assert sum(c != (255, 255, 255) for c in colours) > 0.03 * len(colours) and len(set(colours)) > 50
    assert (31, 136, 61) in colours  # the Check button's green: the page is drawn, not an error page
