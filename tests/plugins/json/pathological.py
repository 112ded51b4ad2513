"""Pathological JSON replies for tests/fuzz/test_pathological.py: each ``Case`` is run at
``size`` and ``8 * size``; check, heal and a StreamGuard fed in small chunks must grow about
linearly."""

from formatbook_core.fuzzing.pathological import Case

CASES = [
    # 8n (plus the 2 the operations add) under the depth limit (1,000): past it a reply is
    # refused on another path, whose steps do not compare with n's; that path has its own case
    Case("deep-arrays", lambda n: "[" * n + "]" * n, 124, "EXPECT JSON"),
    # warmed past the limit too: the refusal imports the healer (2.9 M steps the first time)
    Case("deep-arrays-past-the-depth-limit", lambda n: "[" * n + "]" * n, 1_100, "EXPECT JSON", warm=1_050),
    Case("deep-unclosed-objects", lambda n: '{"a":' * n, 150, "EXPECT JSON"),
    Case("long-string", lambda n: '{"a": "' + "x" * n + '"}', 2_500, "EXPECT JSON"),
    Case("long-unclosed-string", lambda n: '{"a": "' + "x" * n, 2_500, "EXPECT JSON"),
    Case("many-keys", lambda n: "{" + ",".join(f'"k{i}": {i}' for i in range(n)) + "}", 47, "EXPECT JSON"),
    Case("many-trailing-commas", lambda n: "[" + "1," * n + "]", 290, "EXPECT JSON"),
    Case("many-unquoted-keys", lambda n: "{" + ", ".join(f"k{i}: 'v'" for i in range(n)) + "}", 150, "EXPECT JSON"),
    Case("long-number", lambda n: "[" + "1" * n + "]", 3_200, "EXPECT JSON"),
    Case("backslash-run", lambda n: '["' + "\\" * n + '"]', 1_100, "EXPECT JSON"),
    Case("spaces-between-tokens", lambda n: "[1," + " " * n + "2]", 2_800, "EXPECT JSON"),
    Case("blanks-before-an-apostrophe", lambda n: "[x" + " " * n + '\'] {"a": 1}', 2_800, "EXPECT JSON"),
    Case("apostrophes-in-a-single-quoted-string", lambda n: "{'a': '" + "don't } " * n + "'}", 937, "EXPECT JSON"),
    Case("comments-holding-brackets", lambda n: "[" + "1, /* ] */ // }\n" * n + "2]", 92, "EXPECT JSON"),
    Case("unclosed-block-comment", lambda n: '{"a": 1 /*' + "*" * n, 1_400, "EXPECT JSON"),
    Case("prose-then-payload", lambda n: "word " * n + '{"a": 1}', 240, "EXPECT JSON"),
    Case("mentions-on-one-line", lambda n: "See " + " and ".join(["[1]"] * n) + ", then stop.", 150, "EXPECT JSON"),
    Case("lines-of-objects", lambda n: '{"id": 1}\n' * n, 260, "EXPECT JSON"),
    Case("windows-paths", lambda n: '{"p": "' + "C:\\Users\\new" * n + '"}', 375, "EXPECT JSON"),
    Case("many-fences", lambda n: "```json\n{}\n```\n" * n, 93, "EXPECT JSON"),
    Case("containers-cut-by-fences", lambda n: 'Data: {"a": 1,\n```\nn\n```\n' * n, 46, "EXPECT JSON"),
    Case(
        "containers-closed-across-fences",
        lambda n: 'x {"a": 1,\n```\nn\n```\n"b": [2]} ' * n,
        46,
        "EXPECT JSON",
    ),
    Case("fenced-payloads-continued", lambda n: 'x\n```json\n{"a": [1,\n```\n]} ' * n, 93, "EXPECT JSON"),
    Case("inner-quotes-a-value-follows", lambda n: '{"a": "' + 'x" 1 ' * n, 1_875, "EXPECT JSON"),
    Case("many-think-tags", lambda n: "<think>x</think>" * n + "[1]", 187, "EXPECT JSON"),
    Case(
        "values-counted",
        lambda n: "[" + ", ".join('"one two"' for _ in range(n)) + "]",
        375,
        "EXPECT JSON\nEXPECT MAX 100000 WORDS",
    ),
    # a think block before each fence: which blocks hold or overlap a fence was found by
    # scanning every block for every fence, and think_inside every block for every candidate
    Case(
        "think-blocks-and-fences",
        lambda n: ("<think>x</think>\n```\n" + "{}" + "\n```\n") * n,
        61,
        "EXPECT JSON",
    ),
]
