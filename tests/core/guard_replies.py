"""Hypothesis strategies for LLM-like replies: plain text, JSON and Markdown payloads with
prose around them, ``<think>`` blocks anywhere, fences, and the damage healing repairs;
and random chunkings of a reply. Used by the StreamGuard property tests."""

from __future__ import annotations

import itertools
import json

from hypothesis import strategies as st

from formatbook_core.reply import THINK_TAGS

WORDS = ("yes", "no", "the", "sky", "is", "blue", "Dr.", "e.g.", "3.5", "naïve", "don't", "x", "A")
ENDS = (".", "!", "?", "...", ",", ";", ":", "")
BREAKS = (" ", "  ", "\n", "\n\n", "\r\n", "\t", " \r")

word = st.sampled_from(WORDS)
sentence = st.builds(lambda ws, end: " ".join(ws) + end, st.lists(word, min_size=1, max_size=5), st.sampled_from(ENDS))


@st.composite
def prose(draw, max_sentences: int = 3) -> str:
    """A few sentences joined by spaces and line breaks (may be empty)."""
    parts = draw(st.lists(sentence, max_size=max_sentences))
    out = ""
    for part in parts:
        out += part + draw(st.sampled_from(BREAKS))
    return out


@st.composite
def think_block(draw, closed: bool = True) -> str:
    """A think block: any tag of ``THINK_TAGS`` in any case, ``</think >`` too; what it holds
    may look like a payload (a draft)."""
    tag = draw(st.sampled_from(THINK_TAGS))
    cased = "".join(c.upper() if draw(st.booleans()) else c for c in tag)
    inner = draw(st.one_of(prose(), st.just('{"answer": "a long draft of an answer. It goes on."}'), json_text()))
    if not closed:
        return f"<{cased}>{inner}"
    space = draw(st.sampled_from(("", "", " ", "\n ")))
    return f"<{cased}>{inner}</{tag}{space}>"


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


@st.composite
def json_text(draw) -> str:
    value = draw(containers)
    return json.dumps(value, indent=draw(st.sampled_from((None, 2))), ensure_ascii=draw(st.booleans()))


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
    for name in draw(st.lists(st.sampled_from(sorted(damage)), max_size=2, unique=True)):
        text = damage[name](text)
    return text


# --- Markdown -------------------------------------------------------------------------


@st.composite
def markdown_text(draw) -> str:
    blocks = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(("heading", "para", "list", "ordered", "code")))
        if kind == "heading":
            blocks.append("#" * draw(st.integers(1, 3)) + " " + draw(sentence))
        elif kind == "para":
            blocks.append(draw(prose(2)).strip() or "x")
        elif kind == "list":
            blocks.append("\n".join("- " + s for s in draw(st.lists(sentence, min_size=1, max_size=3))))
        elif kind == "ordered":
            blocks.append(
                "\n".join(f"{i}. {s}" for i, s in enumerate(draw(st.lists(sentence, min_size=1, max_size=3)), 1))
            )
        else:
            blocks.append("```\n" + draw(sentence) + "\n```")
    return "\n\n".join(blocks) + draw(st.sampled_from(("", "\n")))


@st.composite
def contract_markdown(draw) -> str:
    """Sections for the contract in ``fixtures/guard_contract.md`` (Short answer, Reasoning),
    some spelled or shaped as its repair plan changes them, and sections it does not name."""
    out = ""
    headings = ("## Short answer", "## short answer", "## Reasoning", "# Notes", "Short answer:", "## Short answer ##")
    bodies = ("Yes.", "1. Because.\n2. So.", "- a\n- b", "Dr. x said e.g. no.\nTwo lines", "")
    for heading in draw(st.lists(st.sampled_from(headings), max_size=3)):
        out += heading + "\n" + draw(st.sampled_from(bodies)) + draw(st.sampled_from(("\n\n", "\n", "")))
    return out


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
    paras = [
        draw(st.one_of(prose(3), long_line(), long_lines())).strip() or "x" for _ in range(draw(st.integers(1, 3)))
    ]
    out = "\n\n".join(paras)
    return out + draw(
        st.sampled_from(("", "", "", "\n---", "\n===", "\n- item", "\n# Notes", "\n|---|", "\nx | y\n--- | ---"))
    )


#: Words for long paragraphs: plain ones, and some with the inline syntax that stops a
#: paragraph being plain (emphasis, a link, a tag, a pipe, a code span) or is a heading.
LONG_WORDS = ("word", "two", "Dr.", "e.g.", "end.", "x", "*em*", "[a](b)", "<b>", "|", "`c`", "##", "Reasoning")


@st.composite
def long_line(draw) -> str:
    """One line of 8 to 20 words: around the 12 words a setext heading may hold."""
    pool = LONG_WORDS[:5] if draw(st.booleans()) else LONG_WORDS  # half of them plain
    return " ".join(draw(st.lists(st.sampled_from(pool), min_size=8, max_size=20)))


@st.composite
def long_lines(draw) -> str:
    """A paragraph of two or three lines (never a heading at L1+, whatever follows)."""
    return "\n".join(draw(long_line()) for _ in range(draw(st.integers(2, 3))))


@st.composite
def streamed_contract_markdown(draw) -> str:
    """Sections for the contract in ``fixtures/guard_contract.md`` shaped to test what the
    Markdown checker settles while streaming (``stream_values``): see STREAM_HEADINGS."""
    out = ""
    for heading in draw(st.lists(st.sampled_from(STREAM_HEADINGS), min_size=1, max_size=4)):
        # paragraphs twice as often as the other bodies: they are what is counted early
        body = draw(st.one_of(stream_paragraphs(), stream_paragraphs(), st.sampled_from(STREAM_BODIES)))
        out += heading + draw(st.sampled_from(("\n", "\n\n"))) + body + draw(st.sampled_from(("\n\n", "\n", "")))
    return out


# --- replies --------------------------------------------------------------------------


@st.composite
def reply(draw, payload, fenced: bool = True, last: bool = False) -> str:
    """Prose, think blocks and (when ``fenced``) a fence around one payload, any of them
    possibly absent; unless the payload comes ``last``, a think block may also end the
    reply unclosed (a model cut off mid-thought)."""
    body = draw(payload)
    if fenced and draw(st.booleans()):
        fence = draw(st.sampled_from(("```", "```json", "```markdown", "~~~")))
        body = f"{fence}\n{body}\n{fence[:3]}"
    before = draw(st.lists(st.one_of(prose(), think_block()), max_size=3))
    after = [] if last else draw(st.lists(st.one_of(prose(), think_block()), max_size=2))
    tail = "" if last else draw(st.one_of(st.just(""), think_block(closed=False)))
    sep = st.sampled_from(("", " ", "\n", "\n\n"))
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
