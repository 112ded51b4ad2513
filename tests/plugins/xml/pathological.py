"""Pathological XML replies for tests/fuzz/test_pathological.py: each ``Case`` is run at
``size`` and ``8 * size``; check, heal and a StreamGuard fed in small chunks must grow about
linearly."""

from formatbook_core.fuzzing.pathological import Case

CASES = [
    Case("deep-unclosed", lambda n: "<a>" * n, 30, "EXPECT XML max_depth=250"),
    Case("long-text", lambda n: "<a>" + "word " * n + "</a>", 570, "EXPECT XML"),
    Case("long-unclosed-text", lambda n: "<a>" + "x" * n, 2_900, "EXPECT XML"),
    Case("many-elements", lambda n: "<r>" + "<i k='v'>t</i>" * n + "</r>", 120, "EXPECT XML"),
    Case("many-ampersands", lambda n: "<a>" + "AT&T " * n + "</a>", 270, "EXPECT XML"),
    Case("many-stray-lt", lambda n: "<a>" + "a < b " * n + "</a>", 260, "EXPECT XML"),
    Case("many-html-entities", lambda n: "<a>" + "&nbsp;" * n + "</a>", 220, "EXPECT XML"),
    Case(
        "many-unquoted-attributes",
        lambda n: "<a " + " ".join(f"k{i}={i}" for i in range(n)) + "/>",
        120,
        "EXPECT XML",
    ),
    Case("many-roots", lambda n: "<a>x</a>\n" * n, 47, "EXPECT XML root=r"),
    Case("many-candidates", lambda n: "<a/> and " * n, 130, "EXPECT XML"),
    Case("misnested-run", lambda n: "<r>" + "<b><i>x</b></i>" * n + "</r>", 63, "EXPECT XML"),
    Case("unclosed-comment", lambda n: "<a><!--" + "-x" * n, 470, "EXPECT XML"),
    Case("unclosed-attribute", lambda n: '<a b="' + "x" * n, 2_900, "EXPECT XML"),
    Case("long-name", lambda n: "<" + "n" * n + ">x</" + "n" * n + ">", 1_500, "EXPECT XML"),
    Case("prose-then-payload", lambda n: "word " * n + "<a>1</a>", 570, "EXPECT XML"),
    Case("values-counted", lambda n: "<r>" + "<v>one two</v>" * n + "</r>", 375, "EXPECT XML\nEXPECT MAX 100000 WORDS"),
    # a think block before each fence: which blocks hold or overlap a fence was found by
    # scanning every block for every fence, and think_inside every block for every candidate
    Case(
        "think-blocks-and-fences",
        lambda n: ("<think>x</think>\n```\n" + "<a/>" + "\n```\n") * n,
        56,
        "EXPECT XML",
    ),
    # the locator's walk looked an end tag up in the whole stack of open elements (and in
    # the list of elements closed through), copying it reversed: quadratic when thousands
    # stay open
    Case("deep-open-stray-ends", lambda n: "<x>" * n + "</y>" * n, 210, "EXPECT XML max_depth=100000"),
    Case("closed-through-then-stray", lambda n: "<r>" + "<b><i>x</b>" * n + "</z>" * n, 54, "EXPECT XML"),
]
