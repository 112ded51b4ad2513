"""Hypothesis strategies for LLM-like replies: plain text, JSON and Markdown payloads with
prose around them, ``<think>`` blocks anywhere, fences, and the damage healing repairs;
and random chunkings of a reply. Used by the StreamGuard property tests.

The strategies a composite draws from are built once, here, not inside it: hypothesis
validates a strategy (and works out whether it can be empty) the first time it is drawn
from, which for one built in each draw was two fifths of the time spent generating.
"""

from __future__ import annotations

import functools
import itertools
import json

from hypothesis import strategies as st

from formatbook_core.reply import THINK_TAGS

WORDS = ("yes", "no", "the", "sky", "is", "blue", "Dr.", "e.g.", "3.5", "naïve", "don't", "x", "A")
ENDS = (".", "!", "?", "...", ",", ";", ":", "")
BREAKS = (" ", "  ", "\n", "\n\n", "\r\n", "\t", " \r")

word = st.sampled_from(WORDS)
sentence = st.builds(lambda ws, end: " ".join(ws) + end, st.lists(word, min_size=1, max_size=5), st.sampled_from(ENDS))


breaks = st.sampled_from(BREAKS)


@functools.cache
def _sentences(max_size: int) -> st.SearchStrategy[list[str]]:
    return st.lists(sentence, max_size=max_size)


@st.composite
def _prose(draw, max_sentences: int) -> str:
    parts = draw(_sentences(max_sentences))
    out = ""
    for part in parts:
        out += part + draw(breaks)
    return out


@functools.cache
def prose(max_sentences: int = 3) -> st.SearchStrategy[str]:
    """A few sentences joined by spaces and line breaks (may be empty)."""
    return _prose(max_sentences)


THINK_TAG = st.sampled_from(THINK_TAGS)
THINK_END_SPACE = st.sampled_from(("", "", " ", "\n "))


@st.composite
def _think_block(draw, closed: bool) -> str:
    tag = draw(THINK_TAG)
    cased = "".join(c.upper() if draw(st.booleans()) else c for c in tag)
    inner = draw(THOUGHTS)
    if not closed:
        return f"<{cased}>{inner}"
    space = draw(THINK_END_SPACE)
    return f"<{cased}>{inner}</{tag}{space}>"


@functools.cache
def think_block(closed: bool = True) -> st.SearchStrategy[str]:
    """A think block: any tag of ``THINK_TAGS`` in any case, ``</think >`` too; what it holds
    may look like a payload (a draft)."""
    return _think_block(closed)


# --- JSON -----------------------------------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-1000, 10**6), sentence, prose(2))
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(("a", "b", "name", "q")), inner, max_size=3)
    ),
    max_leaves=6,
)
containers = st.one_of(
    st.lists(json_values, min_size=1, max_size=3),
    st.dictionaries(st.sampled_from(("a", "b", "name", "q")), json_values, min_size=1, max_size=3),
)


INDENTS = st.sampled_from((None, 2))


@st.composite
def _json_text(draw) -> str:
    value = draw(containers)
    return json.dumps(value, indent=draw(INDENTS), ensure_ascii=draw(st.booleans()))


@functools.cache
def json_text() -> st.SearchStrategy[str]:
    return _json_text()


#: What a think block holds: prose, or a draft that looks like a payload.
THOUGHTS = st.one_of(prose(), st.just('{"answer": "a long draft of an answer. It goes on."}'), json_text())


#: Damage healing repairs, each a function of the JSON text: single quotes, Python
#: literals, a trailing comma, unquoted keys.
JSON_DAMAGE = {
    "single quotes": lambda t: t.replace('"', "'") if "'" not in t else t,
    "python literals": lambda t: t.replace("true", "True").replace("null", "None"),
    "trailing comma": lambda t: t[:-1] + ",]" if t.endswith("]") else t[:-1] + ",}",
    "unquoted keys": lambda t: t.replace('"a":', "a:").replace('"name":', "name:"),
}
#: A reply cut off mid-payload (healing closes what is open).
JSON_CUT = {"cut end": lambda t: t[: max(1, len(t) * 2 // 3)]}
#: A string with unescaped inner quotes, which healing keeps as one string.
JSON_INNER_QUOTES = {"inner quotes": lambda t: t.replace('": "', '": "He said "hi" to me. ', 1)}


@st.composite
def json_payload(draw, damage: dict) -> str:
    text = draw(json_text())
    if not damage:
        return text
    for name in draw(_damage_names(tuple(sorted(damage)))):
        text = damage[name](text)
    return text


@functools.cache
def _damage_names(names: tuple[str, ...]) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(names), max_size=2, unique=True)


# --- Markdown -------------------------------------------------------------------------


BLOCK_KINDS = st.sampled_from(("heading", "para", "list", "ordered", "code"))
ITEMS = st.lists(sentence, min_size=1, max_size=3)
LAST_BREAK = st.sampled_from(("", "\n"))


@st.composite
def markdown_text(draw) -> str:
    blocks = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(BLOCK_KINDS)
        if kind == "heading":
            blocks.append("#" * draw(st.integers(1, 3)) + " " + draw(sentence))
        elif kind == "para":
            blocks.append(draw(prose(2)).strip() or "x")
        elif kind == "list":
            blocks.append("\n".join("- " + s for s in draw(ITEMS)))
        elif kind == "ordered":
            blocks.append("\n".join(f"{i}. {s}" for i, s in enumerate(draw(ITEMS), 1)))
        else:
            blocks.append("```\n" + draw(sentence) + "\n```")
    return "\n\n".join(blocks) + draw(LAST_BREAK)


@st.composite
def contract_markdown(draw) -> str:
    """Sections for the contract in ``fixtures/guard_contract.md`` (Short answer, Reasoning),
    some spelled or shaped as its repair plan changes them, and sections it does not name."""
    out = ""
    for heading in draw(_CONTRACT_HEADINGS):
        out += heading + "\n" + draw(_CONTRACT_BODIES) + draw(_AFTER_BODY)
    return out


_CONTRACT_HEADINGS = st.lists(
    st.sampled_from(
        ("## Short answer", "## short answer", "## Reasoning", "# Notes", "Short answer:", "## Short answer ##")
    ),
    max_size=3,
)
_CONTRACT_BODIES = st.sampled_from(("Yes.", "1. Because.\n2. So.", "- a\n- b", "Dr. x said e.g. no.\nTwo lines", ""))
_AFTER_BODY = st.sampled_from(("\n\n", "\n", ""))


#: Headings for streamed counts: level-1 sections (whose values settle while streaming),
#: deeper duplicates a later level-1 one replaces, setext headings, labels, other headings.
STREAM_HEADINGS = (
    "# Short answer",
    "## Short answer",
    "# Reasoning",
    "## Reasoning",
    "# short answer:",
    "Short answer\n===",
    "Short answer\n---",
    "**Short answer:**",
    "**Reasoning**",
    "# Notes",
    "## Notes",
    "Notes\n---",
    "### Short answer",
    "  # Notes",
    "  ## Short answer",
)
#: Bodies: paragraphs (some later turned into setext headings), the empty value, lists,
#: a glued heading, a label mid-paragraph, HTML, a table, code.
STREAM_BODIES = (
    "None",
    "None.",
    "1. Because.\n2. So.",
    "- a\n- b\n\nAfter the list.",
    "Yes. ## Reasoning",
    "Yes. **Reasoning:** because.",
    "<!-- a comment\n\nstill -->",
    "<div>\nhtml</div>",
    "a | b\n--- | ---\nc | d",
    "```\ncode here\n```",
    "> quoted ## Short answer",
    "> # Notes",
    "    indented code",
    "text\n  ===",
    "- item\n  ---",
    "* a\n* b",
    "1) a\n2) b",
    "+ x",
    "* * *\n\n- - -",
    "text\n- x",
)


@st.composite
def stream_paragraphs(draw) -> str:
    """Plain paragraphs (the values counted while streaming), one may end as a setext
    heading or run into a list."""
    paras = [draw(PARAGRAPHS).strip() or "x" for _ in range(draw(st.integers(1, 3)))]
    out = "\n\n".join(paras)
    return out + draw(PARAGRAPH_ENDS)


#: Words for long paragraphs: plain ones, and some with the inline syntax that stops a
#: paragraph being plain (emphasis, a link, a tag, a pipe, a code span) or is a heading.
LONG_WORDS = ("word", "two", "Dr.", "e.g.", "end.", "x", "*em*", "[a](b)", "<b>", "|", "`c`", "##", "Reasoning")


PLAIN_LONG_LINE = st.lists(st.sampled_from(LONG_WORDS[:5]), min_size=8, max_size=20)
ANY_LONG_LINE = st.lists(st.sampled_from(LONG_WORDS), min_size=8, max_size=20)


@st.composite
def _long_line(draw) -> str:
    words = PLAIN_LONG_LINE if draw(st.booleans()) else ANY_LONG_LINE  # half of them plain
    return " ".join(draw(words))


@functools.cache
def long_line() -> st.SearchStrategy[str]:
    """One line of 8 to 20 words: around the 12 words a setext heading may hold."""
    return _long_line()


@st.composite
def _long_lines(draw) -> str:
    return "\n".join(draw(long_line()) for _ in range(draw(st.integers(2, 3))))


@functools.cache
def long_lines() -> st.SearchStrategy[str]:
    """A paragraph of two or three lines (never a heading at L1+, whatever follows)."""
    return _long_lines()


PARAGRAPHS = st.one_of(prose(3), long_line(), long_lines())
PARAGRAPH_ENDS = st.sampled_from(
    ("", "", "", "\n---", "\n===", "\n- item", "\n# Notes", "\n|---|", "\nx | y\n--- | ---")
)


@st.composite
def streamed_contract_markdown(draw) -> str:
    """Sections for the contract in ``fixtures/guard_contract.md`` shaped to test what the
    Markdown checker settles while streaming (``stream_values``): see STREAM_HEADINGS."""
    out = ""
    for heading in draw(_STREAM_HEADING_LISTS):
        body = draw(_STREAM_BODIES)
        out += heading + draw(_AFTER_HEADING) + body + draw(_AFTER_BODY)
    return out


_STREAM_HEADING_LISTS = st.lists(st.sampled_from(STREAM_HEADINGS), min_size=1, max_size=4)
# paragraphs twice as often as the other bodies: they are what is counted early
_STREAM_BODIES = st.one_of(stream_paragraphs(), stream_paragraphs(), st.sampled_from(STREAM_BODIES))
_AFTER_HEADING = st.sampled_from(("\n", "\n\n"))


# --- replies --------------------------------------------------------------------------


FENCES = st.sampled_from(("```", "```json", "```markdown", "~~~"))
BEFORE = st.lists(st.one_of(prose(), think_block()), max_size=3)
AFTER = st.lists(st.one_of(prose(), think_block()), max_size=2)
TAIL = st.one_of(st.just(""), think_block(closed=False))
SEPARATORS = st.sampled_from(("", " ", "\n", "\n\n"))


@st.composite
def reply(draw, payload, fenced: bool = True, last: bool = False) -> str:
    """Prose, think blocks and (when ``fenced``) a fence around one payload, any of them
    possibly absent; unless the payload comes ``last``, a think block may also end the
    reply unclosed (a model cut off mid-thought)."""
    body = draw(payload)
    if fenced and draw(st.booleans()):
        fence = draw(FENCES)
        body = f"{fence}\n{body}\n{fence[:3]}"
    before = draw(BEFORE)
    after = [] if last else draw(AFTER)
    tail = "" if last else draw(TAIL)
    sep = SEPARATORS
    out = ""
    for part in before:
        out += part + draw(sep)
    out += body
    for part in after:
        out += draw(sep) + part
    return out + tail


@st.composite
def chunkings(draw, text: str) -> list[str]:
    """``text`` cut at random places (chunks of one character to the whole text)."""
    if not text:
        return [""]
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=min(len(text), 40))))
    if draw(st.booleans()) and len(text) < 400:
        cuts = list(range(1, len(text)))  # one character at a time
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]
