"""The HTML format under the contract suite, with HTML's own hostile and damaged inputs."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core.testing import FormatContract

from ...contract.foreign_attacks import FOREIGN_ATTACKS
from .attacks import ATTACKS

# the contract's huge inputs are 2 MB; these shapes are answered at 100 KB (html5lib
# parses about a megabyte a second, and every attack is run through every method). Every
# limit an input reaches, it reaches well within that: max_depth at 5,000 characters,
# MAX_CLONES within 3,100, MAX_HEAL_ERRORS (the nearest) past 80 KB of misnested
# tags; each input gets the same verdict, heal and checker answers at 100 KB as at 300 KB
_SIZE = 100_000


def _sized(make):
    return lambda _huge: make(_SIZE)


class TestHtmlContract(FormatContract):
    format = get_format("html")
    # facts the core's tests read (tests/contract/facts.py): a short payload valid as it
    # stands, the violation of a reply with none (nothing outside its think blocks), and
    # replies of every verdict for the tests of whole results
    payload = "<p>a</p>"
    no_payload_code = "html.no_element"
    verdict_replies = ("<p>Hello <b>world</b></p>", "Sure:\n\n<div><p>cut", "## Markdown", "")
    huge_size = _SIZE
    hypothesis_examples = 100
    attack_inputs = {
        **FOREIGN_ATTACKS,
        **{name: _sized(make) for name, make in ATTACKS.items()},
        "script": "<p>hi</p><script>fetch('http://example.com/x'); document.write('<b>')</script>",
        "external-resources": '<img src="file:///etc/passwd"><link rel=stylesheet href="http://example.com/x.css"><p>x</p>',
        "xxe-doctype": '<!DOCTYPE html [<!ENTITY x SYSTEM "file:///etc/passwd">]><p>&x;</p>',
        "svg-mathml": "<svg><foreignObject><p>x</p></foreignObject><path d='M0'/></svg><math><mi>x</mi></math>",
        "nul-and-controls": "<p>a\x00b\x01c\x7f\ufdd0</p>",
        "plaintext": "<plaintext><p>x</p>",
        "cr-lines": "<p>a\r\nb\rc</p>\r\n<div>\r",
    }
    damaged_inputs = {
        "unclosed": "<div><p>Hello <b>world",
        "misnested": "<p><b><i>Important</b></i> text</p>",
        "bare-ampersand": "<p>AT&T and R&D</p>",
        "stray-end-tag": "<p>one</p></div><p>two</p>",
        "table-text": "<table>oops<tr><td>cell</td></tr></table>",
        "html-no-doctype": "<html><head><title>T</title></head><body><p>x</p></body></html>",
        "duplicate-attribute": '<p class="a" class="b">x</p>',
        "cut-in-tag": '<ul><li>one</li><li class="x',
        "head-in-fragment": "<head><title>t</title></head><body><p>x</p></body>",
        "comment-dashes": "<p>x</p><!-- a -- b -->",
        "pre-newline": "<pre>\n\ncode</pre><div>",
    }
