"""The inputs the contract feeds every format: hostile garbage (empty, binary, lone
surrogates, deep nesting of every bracket kind, a few MB), damaged copies of a sample, a
sample wrapped in prose. A plugin adds inputs of its own through its contract class
(``FormatContract.attack_inputs``, ``damaged_inputs``)."""

from __future__ import annotations

from collections.abc import Callable

#: Characters that structure documents in most formats: random text drawn from them (and
#: from the samples) reaches far more parser states than arbitrary Unicode does.
STRUCTURAL = "{}[]()<>\"'`,:;=#*-_|&!?/\\.@ \t\n\r0123456789abcEtrufalsenul"

# How far the character-by-character and prefix checks go on inputs that are not samples.
CHAR_FEED_LIMIT = 5_000
PREFIX_LIMIT = 64


def _huge_prose(size: int) -> str:
    words = "the quick brown fox jumps over the lazy dog, said the model. "
    return (words * (size // len(words) + 1))[:size]


_GARBAGE: dict[str, Callable[[int], str]] = {
    "empty": lambda n: "",
    "whitespace": lambda n: " \n\t\r\n  \u00a0\u2028",
    "binary": lambda n: "\x00\xff\ufffd\x01\x7f\x1b[31m" + bytes(range(256)).decode("latin-1") * 4,
    "lone-surrogates": lambda n: "\ud800\udfff\udc00x\ud83d",
    "nul-run": lambda n: "\x00" * 1000,
    "bom": lambda n: "\ufeff",
    "crlf": lambda n: "a\r\nb\r\n\r\n\r",
    "prose": lambda n: "Sorry, I can't help with that.",
    "unclosed-fence": lambda n: '```json\n{"a": ',
    "unclosed-think": lambda n: "<think>let me see",
    "deep-brackets": lambda n: "[" * 100_000,
    "deep-braces": lambda n: "{" * 100_000,
    "deep-balanced-brackets": lambda n: "[" * 50_000 + "]" * 50_000,
    "deep-objects": lambda n: '{"a":' * 50_000,
    "deep-tags": lambda n: "<a>" * 50_000,
    "deep-balanced-tags": lambda n: "<a>" * 20_000 + "</a>" * 20_000,
    "deep-parens": lambda n: "(" * 100_000,
    "deep-blockquotes": lambda n: "> " * 50_000 + "x",
    "deep-list-items": lambda n: "- " * 50_000 + "x",
    "deep-emphasis": lambda n: "*" * 50_000 + "x" + "*" * 50_000,
    "deep-yaml-flow": lambda n: "a: " + "[" * 50_000,
    "many-lines": lambda n: "\n" * 200_000,
    "many-fences": lambda n: "```\n" * 20_000,
    "huge-prose": _huge_prose,
    "huge-line": lambda n: "x" * n,
    "huge-unclosed-string": lambda n: '"' + "x" * n,
}


def garbage_names() -> list[str]:
    """The names of the garbage inputs, in a stable order (for test ids)."""
    return list(_GARBAGE)


def garbage_inputs(huge_size: int = 2_000_000) -> list[tuple[str, str]]:
    """``(name, text)`` pairs of hostile inputs; the huge ones have ``huge_size`` characters."""
    return [(name, make(huge_size)) for name, make in _GARBAGE.items()]


def garbage_input(name: str, huge_size: int = 2_000_000) -> str:
    """One garbage input by name (see ``garbage_names``)."""
    return _GARBAGE[name](huge_size)


def mangled_variants(sample: str) -> list[tuple[str, str]]:
    """``(label, text)`` damaged copies of a valid sample, the kind of damage healing is for:
    truncation, a trailing comma, a dropped first or last character, swapped quotes, the
    sample twice. Variants equal to the sample are left out."""
    out: list[tuple[str, str]] = []
    n = len(sample)
    for label, cut in (("truncated-half", n // 2), ("truncated-two-thirds", 2 * n // 3), ("truncated-last", n - 1)):
        if 0 < cut < n:
            out.append((label, sample[:cut]))
    closer = max(sample.rfind("}"), sample.rfind("]"))
    if closer > 0:
        out.append(("trailing-comma", sample[:closer].rstrip() + ", " + sample[closer:]))
    if n > 1:
        out.append(("first-char-dropped", sample[1:]))
    if '"' in sample:
        out.append(("quotes-swapped", sample.replace('"', "'")))
    if sample.strip():
        out.append(("doubled", sample + "\n" + sample))
        out.append(("indented", "  " + sample.replace("\n", "\n  ")))
    seen: set[str] = {sample}
    unique = []
    for label, text in out:
        if text not in seen:
            seen.add(text)
            unique.append((label, text))
    return unique


def _fence_for(sample: str) -> str:
    # A fence longer than any backtick run inside the sample, so the sample cannot close it.
    longest = run = 0
    for ch in sample:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


def wrap_in_prose(sample: str, name: str) -> list[tuple[str, str]]:
    """``(label, reply)``: the sample as a model would send it, with prose, a fence tagged
    with ``name`` (as written and in capitals), or a ``<think>`` block around it."""
    fence = _fence_for(sample)
    return [
        ("fenced", f"Here you go:\n{fence}{name}\n{sample}\n{fence}\nHope it helps"),
        ("fenced-upper", f"Sure!\n\n{fence}{name.upper()}\n{sample}\n{fence}\n"),
        ("after-think", f"<think>\nThe user wants {name}. Let me write it.\n</think>\n{sample}"),
    ]


def prefix_positions(length: int, limit: int = PREFIX_LIMIT) -> list[int]:
    """Prefix lengths to try ``can_be_valid`` on: all of them for a short text, else the
    first and last few and ``limit`` evenly spaced ones in between."""
    if length + 1 <= limit:
        return list(range(length + 1))
    picks = set(range(8)) | set(range(length - 7, length + 1))
    picks |= {round(i * length / limit) for i in range(limit + 1)}
    return sorted(p for p in picks if 0 <= p <= length)


def show(text: str, width: int = 60) -> str:
    if len(text) <= width:
        return repr(text)
    return f"{text[:width]!r}... ({len(text)} chars)"
