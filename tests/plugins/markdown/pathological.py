"""Pathological Markdown replies for tests/fuzz/test_pathological.py (see
tests/plugins/json/pathological.py)."""

from formatbook_core.fuzzing.pathological import Case

L1 = "EXPECT MARKDOWN level=1"
L2 = "EXPECT MARKDOWN level=2"
# the contract of examples/replies (sections Short answer, Reasoning, Assumptions); the
# suite runs from the project root
CONTRACT = "EXPECT MARKDOWN examples/replies/contracts/answer.md level=1"
CONTRACT_L2 = "EXPECT MARKDOWN examples/replies/contracts/answer.md level=2"

CASES = [
    Case("many-headings", lambda n: "".join(f"## Heading {i}\n\ntext\n\n" for i in range(n)), 140, L1),
    # locate read the text around each fence again for every fence (quadratic) until the
    # lines naming a section were found once (locate._Surroundings)
    Case("many-fences", lambda n: "```\ncode\n```\n\n" * n, 61, L1),
    Case("deep-quotes", lambda n: "> " * n + "x\n", 375, L1),
    Case("deep-lists", lambda n: "- " * n + "item\n", 190, L1),
    Case("long-line", lambda n: "word " * n, 1_200, L1),
    Case("many-paragraphs", lambda n: "A paragraph.\n\n" * n, 69, L1),
    Case("emphasis-run", lambda n: "*" * n + "x" + "*" * n, 1_875, L1),
    Case("bracket-run", lambda n: "[" * n + "x", 2_700, L1),
    Case("unclosed-fence", lambda n: "```\n" + "line\n" * n, 240, L1),
    Case("many-think-blocks", lambda n: "<think>x</think>\n" * n + "answer\n", 48, L1),
    Case(
        "backtick-run-in-section",
        lambda n: "## Short answer\n\n" + "`" * n,
        125,
        CONTRACT,
    ),
    Case(
        "spaces-in-paragraph",
        lambda n: "## Short answer\n\nYes" + " " * n,
        312,
        CONTRACT,
    ),
    Case(
        "bold-label-then-spaces",
        lambda n: "## Short answer\n\n**Answer:**" + " " * n,
        625,
        CONTRACT,
    ),
    Case(
        "one-long-line-strict-stream",
        lambda n: "x" * n,
        1_900,
        L1,
        strict=True,
    ),
    Case(
        "many-level-2-containers",
        lambda n: "## Short answer\n\n" + "```markdown\n## Reasoning\n\nx\n```\n" * n,
        30,
        CONTRACT_L2,
    ),
    Case(
        "table-in-section",
        lambda n: "## Short answer\n\n| a | b |\n| --- | --- |\n" + "| 1 | 2 |\n" * n,
        31,
        CONTRACT,
    ),
    Case(
        "table",
        lambda n: "| a | b |\n| --- | --- |\n" + "| 1 | 2 |\n" * n,
        85,
        L1,
    ),
]
