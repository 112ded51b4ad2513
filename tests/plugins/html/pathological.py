"""Pathological HTML replies for tests/fuzz/test_pathological.py: each ``Case`` is run at
``size`` and ``8 * size``; check, heal and a StreamGuard fed in small chunks must grow about
linearly. The shapes are those of ``attacks.py`` (html5lib is quadratic on several of them
without the limits of formatbook_html.tree and .parse), plus ordinary replies."""

from formatbook_core.fuzzing.pathological import Case

try:  # loaded as a file by the pathological runner, or as a package module by pytest
    from .attacks import ATTACKS
except ImportError:  # pragma: no cover - the runner imports this file on its own
    import importlib.util
    import sys
    from pathlib import Path

    _spec = importlib.util.spec_from_file_location("html_attacks", Path(__file__).with_name("attacks.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["html_attacks"] = _module
    _spec.loader.exec_module(_module)
    ATTACKS = _module.ATTACKS

# the sizes put the run at n where a quadratic shape would show in the steps counted
# (valid shapes are parsed whole; the hostile ones stop at their bound, so they are cheap
# at any size). Many fences: JSON's cases cover the core's
# fence scanner.
_SIZES = {
    "deep-divs": 3_125,
    "distinct-unclosed-bold": 3_125,
    "reconstructed-bold": 3_125,
    "many-attributes": 3_125,
    "huge-attribute": 50_000,
    "many-text-tokens": 12_500,
    "misnested": 3_125,
    "nested-anchors": 3_125,
    "table-voodoo": 3_125,
    "optgroups": 3_125,
    "long-numeric-reference": 3_125,
    "many-lt": 3_125,
}

CASES = [Case(name, make, _SIZES[name], "EXPECT HTML") for name, make in ATTACKS.items()]
CASES += [
    Case(
        "paragraphs",
        lambda n: "<p>Some <b>bold</b> text &amp; a <a href='x'>link</a>.</p>\n" * (n // 60),
        12_500,
        "EXPECT HTML",
    ),
    Case("prose-then-html", lambda n: "word " * (n // 5) + "<p>x</p>", 3_125, "EXPECT HTML"),
    Case("unclosed-paragraphs-strict", lambda n: "<div>" + "<p>x" * (n // 4), 6_250, "EXPECT HTML", strict=True),
    Case("many-closing-tags-no-gt", lambda n: "<p>x</p>" + "</a" * (n // 3), 3_125, "EXPECT HTML"),
    Case(
        "values-counted",
        lambda n: "<ul>" + "<li>one two</li>" * (n // 16) + "</ul>",
        3_125,
        'EXPECT HTML\nEXPECT MAX 1000000 WORDS\nEXPECT MAX 1000000 WORDS IN "ul > li"',
    ),
    # a think block before each fence: which blocks hold or overlap a fence was found by
    # scanning every block for every fence, and think_inside every block for every candidate
    Case(
        "think-blocks-and-fences",
        lambda n: ("<think>x</think>\n```\n" + "<p>a</p>" + "\n```\n") * n,
        125,
        "EXPECT HTML",
    ),
]
