"""Pathological YAML replies for tests/fuzz/test_pathological.py: each ``Case`` is run at
``size`` and ``8 * size``; check, heal and a StreamGuard fed in small chunks must grow about
linearly."""

from formatbook_core.fuzzing.pathological import Case

CASES = [
    Case("many-keys", lambda n: "".join(f"k{i}: v{i}\n" for i in range(n)), 45, "EXPECT YAML"),
    Case("long-plain-value", lambda n: "a: " + "word " * n + "\n", 94, "EXPECT YAML"),
    Case("long-unclosed-quote", lambda n: 'a: "' + "x " * n, 94, "EXPECT YAML"),
    Case(
        "deep-flow",
        lambda n: "a: " + "[" * n + "]" * n + "\n",
        30,
        "EXPECT YAML",
        # ruamel's simple-key scan costs the flow depth per token (30 -> 240 levels: 26x the
        # steps); libyaml's fast reading (fastload) reads these replies now: 5.9x for check,
        # 5.8x heal, 4.9x the guard, counted. Deeper flow is refused in one pass
    ),
    # 8n nests 480 flow collections: refused by the line scanner in one pass, where the
    # loader took seconds (its simple-key scan costs the flow depth per token)
    Case("deep-flow-mappings", lambda n: '[{"":' * n + "es\nof text.\n", 30, "EXPECT YAML"),
    Case("unclosed-flow", lambda n: "a: [" + "1, " * n, 170, "EXPECT YAML"),
    Case("tab-indented", lambda n: "root:\n" + "".join(f"\tk{i}: {i}\n" for i in range(n)), 44, "EXPECT YAML"),
    Case("colon-values", lambda n: "".join(f"k{i}: note: {i}\n" for i in range(n)), 52, "EXPECT YAML"),
    Case("many-aliases", lambda n: "a: &a x\nb: [" + ", ".join("*a" for _ in range(n)) + "]\n", 140, "EXPECT YAML"),
    Case("long-block-scalar", lambda n: "a: |\n" + "  line of text\n" * n, 55, "EXPECT YAML"),
    # the line pass of healing split the spaces between two dashes two ways each: 2**n
    Case("dash-run", lambda n: "- a\n- " + "-  " * n + "- b\n", 30, "EXPECT YAML"),
    # lines of white space check() strips at the end are held by the strict checker until
    # text follows them (then each is read once)
    Case("separator-lines", lambda n: "a: 1\n" + "\u2028\n" * n + "b: 2\n", 250, "EXPECT YAML"),
    Case(
        "values-counted",
        lambda n: "".join(f"- one two {i}\n" for i in range(n)),
        49,
        "EXPECT YAML\nEXPECT MAX 1000000 WORDS",
    ),
    # a think block before each fence: which blocks hold or overlap a fence was found by
    # scanning every block for every fence, and think_inside every block for every candidate
    Case(
        "think-blocks-and-fences",
        lambda n: ("<think>x</think>\n```\n" + "a: 1" + "\n```\n") * n,
        64,
        "EXPECT YAML",
    ),
    # each prose line before the data copied the lines after it to find the next one
    Case("prose-lines-then-data", lambda n: "Sentence here.\n" * n + "a: 1", 680, "EXPECT YAML"),
]
