"""Hostile replies: the bounds on html5lib's super-linear shapes, the limits as options,
no network or file access, nothing run."""

from __future__ import annotations

import builtins
import socket

import pytest

from formatbook_core import check, get_format
from formatbook_html.parse import MAX_ATTRIBUTES, parse
from formatbook_html.tree import MAX_CLONES

from .attacks import ATTACKS

fmt = get_format("html")


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("deep-divs", "html.too_deep"),
        ("distinct-unclosed-bold", "html.too_deep"),
        ("many-attributes", "html.too_complex"),
        ("long-numeric-reference", "html.too_complex"),
    ],
)
def test_bounded_shapes_get_their_violation(name, code):
    violations = fmt.validate(ATTACKS[name](200_000))
    assert violations[0].code == code
    assert violations[0].span is not None


def test_reconstruction_is_bounded():
    parsed = parse("".join(f"<p><b x={i}></p>" for i in range(300)) + "<p>x</p>" * 1000)
    assert parsed.limit is not None and parsed.limit.code == "html.too_complex"
    assert str(MAX_CLONES) in parsed.limit.message.replace(",", "")


def test_attribute_bound_is_exact():
    ok = "<p " + " ".join(f"a{i}=1" for i in range(MAX_ATTRIBUTES)) + ">x</p>"
    too_many = "<p " + " ".join(f"a{i}=1" for i in range(MAX_ATTRIBUTES + 2)) + ">x</p>"
    assert fmt.is_valid(ok)
    assert fmt.validate(too_many)[0].code == "html.too_complex"


def test_max_depth_option():
    text = "<div>" * 30 + "x" + "</div>" * 30
    assert fmt.is_valid(text)
    assert fmt.validate(text, max_depth=20)[0].code == "html.too_deep"
    assert not check(text, "EXPECT HTML max_depth=20").ok
    assert not fmt.can_be_valid("<div>" * 30, max_depth=20)
    assert fmt.can_be_valid("<div>" * 30)


def test_max_size_option():
    assert fmt.validate("<p>" + "x" * 100 + "</p>", max_size=50)[0].code == "html.too_large"
    checker = fmt.stream(max_size=50)
    assert not checker.feed("<p>" + "x" * 100)


def test_valid_text_in_many_tokens_is_fine():
    text = ATTACKS["many-text-tokens"](300_000)
    assert fmt.is_valid(text)


@pytest.mark.parametrize(
    "text",
    [
        '<img src="http://example.com/track.png" alt="x"><link rel=stylesheet href="file:///etc/passwd">'
        '<iframe src="http://example.com"></iframe><script src="http://example.com/x.js"></script><p>x</p>',
        '<!DOCTYPE html SYSTEM "http://example.com/evil.dtd"><p>&x;</p>',
        "<svg><image href='file:///etc/shadow'/></svg><p onload=alert(1)>x</p>",
    ],
)
def test_no_network_and_no_file_access(monkeypatch, text):
    def refuse(*args, **kwargs):
        raise AssertionError(f"network or file access: {args!r}")

    # html5lib and cssselect are loaded already: any open() or socket now is the reply's doing
    fmt.is_valid("<p>warm up</p>", schema={"required": ["p"]})
    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(builtins, "open", refuse)
    fmt.validate(text, schema={"required": ["p"]})
    fmt.extract_values(text)
    fmt.can_be_valid(text)
    try:
        fmt.heal(text)
    except Exception as err:  # HealError only
        assert type(err).__name__ == "HealError"
    check(text, 'EXPECT HTML\nEXPECT MAX 10 WORDS IN "p"')


def test_scripts_are_text_not_run():
    text = "<p>x</p><script>raise SystemExit; document.write('<b>bold</b>')</script>"
    assert fmt.is_valid(text)
    assert fmt.extract_values(text) == ["x"]


def test_a_name_open_nowhere_is_out_of_scope_at_once():
    """Under n <div>s (no <p> open) each start tag asked whether a <p> was in scope by
    walking the whole stack: quadratic up to max_depth. The stack counts its names now;
    the steps for 8x the divs grow about linearly, and the verdicts are html5lib's."""
    from formatbook_core.fuzzing.pathological import count_steps  # noqa: PLC0415 - a test helper

    def run(n: int) -> None:
        fmt.validate("<div>" * n + "<p>x</p>" + "</div>" * n)

    run(10)
    small, large = count_steps(run, 100), count_steps(run, 800)
    assert large < 10 * small, (small, large)
    assert fmt.is_valid("<div>" * 800 + "<p>x</p>" + "</div>" * 800)
    # open somewhere: the walk still decides (a <p> inside a <button> is out of button scope)
    assert fmt.is_valid("<p><button><div>x</div></button></p>")
    assert fmt.is_valid("<ul><li>a<li>b</ul><select><option>x<option>y</select>")
