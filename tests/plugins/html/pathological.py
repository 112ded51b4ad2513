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

# the sizes put the run at n where a quadratic shape would show in the steps counted (a
# quadratic share of about 8% of the steps at n fails; tests/fuzz/README.md says how the
# sizes were chosen). Many fences: JSON's cases cover the core's fence scanner.
_SIZES = {
    "deep-divs": 800,
    "distinct-unclosed-bold": 400,
    "reconstructed-bold": 800,
    "many-attributes": 3_125,
    "huge-attribute": 6_300,
    "many-text-tokens": 1_600,
    "misnested": 1_560,
    "nested-anchors": 400,
    "table-voodoo": 2_000,
    "optgroups": 410,
    "long-numeric-reference": 3_125,
    "many-lt": 400,
}

# html5lib is quadratic on these up to their bound (max_depth open elements, MAX_CLONES
# recreated ones): n stays under the bound and 8n passes it, so the large run does the
# bounded work and some more. At the default bounds (1,000 open elements, 20,000 clones)
# that work was 20 million steps a run (13 s of the suite for distinct-unclosed-bold):
# the depth bound is lowered here (the same code refuses at any bound; tests/plugins/html/
# test_limits.py holds the defaults), and the recreated <b>s grow with n (attacks.py keeps
# 300 of them, which pass MAX_CLONES before the paragraphs that depend on n are read)
_EXPECT = {"deep-divs": "EXPECT HTML max_depth=200", "distinct-unclosed-bold": "EXPECT HTML max_depth=100"}
_MAKE = {
    "reconstructed-bold": lambda n: "".join(f"<p><b x={i}></p>" for i in range(n // 40)) + "<p>x</p>" * (n // 40),
}

CASES = [
    Case(name, _MAKE.get(name, make), _SIZES[name], _EXPECT.get(name, "EXPECT HTML")) for name, make in ATTACKS.items()
]
CASES += [
    Case(
        "paragraphs",
        lambda n: "<p>Some <b>bold</b> text &amp; a <a href='x'>link</a>.</p>\n" * (n // 60),
        6_250,
        "EXPECT HTML",
    ),
    Case("prose-then-html", lambda n: "word " * (n // 5) + "<p>x</p>", 3_125, "EXPECT HTML"),
    Case("unclosed-paragraphs-strict", lambda n: "<div>" + "<p>x" * (n // 4), 790, "EXPECT HTML", strict=True),
    Case("many-closing-tags-no-gt", lambda n: "<p>x</p>" + "</a" * (n // 3), 2_400, "EXPECT HTML"),
    Case(
        "values-counted",
        lambda n: "<ul>" + "<li>one two</li>" * (n // 16) + "</ul>",
        1_400,
        'EXPECT HTML\nEXPECT MAX 1000000 WORDS\nEXPECT MAX 1000000 WORDS IN "ul > li"',
    ),
    # a think block before each fence: which blocks hold or overlap a fence was found by
    # scanning every block for every fence, and think_inside every block for every candidate
    Case(
        "think-blocks-and-fences",
        lambda n: ("<think>x</think>\n```\n" + "<p>a</p>" + "\n```\n") * n,
        59,
        "EXPECT HTML",
    ),
]
