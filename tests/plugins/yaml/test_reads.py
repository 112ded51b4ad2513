"""How often a check() reads the YAML payload, counted (issue 24: one read of a clean
reply, values and a schema included). A read is the fast path's (libyaml's events, no
nodes: :mod:`formatbook_yaml.fastload`) or ruamel's composition; a scope needs the nodes,
composed once, after the fast read."""

from __future__ import annotations

import pytest

import formatbook_yaml.loading as loading
import formatbook_yaml.syntax as syntax
from formatbook_core import Count, Expectations, check

CLEAN = "name: Ada\nage: 36\ntags:\n  - a\n  - b\n"
SCHEMA = {"type": "object", "required": ["name"], "properties": {"age": {"type": "integer"}}}


@pytest.fixture
def reads(monkeypatch):
    """The texts read: composed by ruamel (where the strict reading calls it), or read by
    the fast path (when it answers)."""
    calls = []
    compose = loading.compose_graph
    fast = syntax.fast_values

    def fast_read(text, **kw):
        out = fast(text, **kw)
        if out is not None:
            calls.append(text)
        return out

    monkeypatch.setattr(
        loading, "compose_graph", lambda text, max_depth: calls.append(text) or compose(text, max_depth)
    )
    monkeypatch.setattr(syntax, "fast_values", fast_read)
    return calls


@pytest.mark.parametrize("expect", ["EXPECT YAML", "EXPECT YAML\nEXPECT MAX 50 WORDS"])
def test_a_clean_reply_is_read_once(reads, expect):
    result = check(CLEAN, expect)
    assert result.verdict == "pass" and result.value["tags"] == ["a", "b"]
    assert len(reads) == 1


def test_a_scope_composes_the_nodes_once(reads):
    result = check(CLEAN, 'EXPECT YAML\nEXPECT MAX 50 WORDS\nEXPECT MAX 3 WORDS IN "/tags"')
    assert result.verdict == "pass" and result.value["tags"] == ["a", "b"]
    assert reads == [CLEAN.strip()] * 2  # the fast read, then the nodes the scope is found in


def test_a_clean_reply_is_read_once_with_a_schema(reads):
    result = check(CLEAN, Expectations(format="yaml", schema=SCHEMA, counts=[Count("words", max=50)]))
    assert result.verdict == "pass" and result.counts == {"words": 4}
    assert len(reads) == 1


def test_a_clean_payload_in_prose_is_read_once(reads):
    result = check(f"Here it is:\n\n{CLEAN}\nDone.", "EXPECT YAML\nEXPECT MAX 50 WORDS")
    assert result.verdict == "healed" and result.counts == {"words": 4}
    assert len(reads) == 1


def test_a_broken_reply_is_read_twice(reads):
    result = check("name: Ada\nage: 36\ntags: [a, b\n", "EXPECT YAML\nEXPECT MAX 50 WORDS")
    assert result.verdict == "healed" and result.counts == {"words": 4}
    # the payload (whose reading healing starts from), the closed text heal confirms (whose
    # reading the pipeline takes): was 8 before the reading flowed through
    assert reads == ["name: Ada\nage: 36\ntags: [a, b", "name: Ada\nage: 36\ntags: [a, b]"]


def test_the_values_read_from_the_analysis_are_extract_values(reads):
    from formatbook_core.registry import default_registry  # noqa: PLC0415

    fmt = default_registry().get("yaml")
    analysis = fmt.analyze(CLEAN)
    assert fmt.values_of(analysis, CLEAN) == fmt.extract_values(CLEAN) == ["Ada", "36", "a", "b"]
    assert fmt.scope_of(analysis, CLEAN, "/tags") == fmt.extract_scope(CLEAN, "/tags") == ["a", "b"]


def test_a_refused_text_is_read_once_by_every_verb(reads):
    from formatbook_core.registry import default_registry  # noqa: PLC0415

    fmt = default_registry().get("yaml")
    # 20,000 aliases: refused only once ruamel has composed them all (the fast path leaves
    # past 10,000 expanded nodes)
    bomb = "a: &a x\nb: [" + ", ".join("*a" for _ in range(20_000)) + "]\n"
    assert not fmt.is_valid(bomb)
    codes = [v.code for v in fmt.validate(bomb)]
    assert codes == [v.code for v in fmt.analyze(bomb).violations] == ["yaml.alias_expansion"]
    checker = fmt.stream()
    checker.feed(bomb)
    assert not checker.finish()
    assert reads == [bomb]
    # another text, another read; an equal copy is another text (read again)
    copy = bomb.encode().decode()
    assert not fmt.is_valid(copy) and reads == [bomb, bomb]
    # the values read with any root: one read more, then remembered as well
    assert fmt.extract_values(bomb) == fmt.extract_values(bomb) == []
    assert len(reads) == 3
    # a valid text is read anew each time (its value is never shared)
    assert fmt.analyze(CLEAN).value is not fmt.analyze(CLEAN).value


def test_healing_reads_a_text_cut_off_inside_a_string_once(reads):
    """Between its steps healing asks only whether a text reads: one that ends inside an
    open quoted scalar (the line scanner's reading, libyaml's parser refusing it too) is
    refused without ruamel's composition, which would word the refusal."""
    reply = 'title: Note: one\nitems: [a, b]\nnote: "cut'
    result = check(reply, "EXPECT YAML")
    assert result.verdict == "healed" and result.value == {"title": "Note: one", "items": ["a", "b"], "note": "cut"}
    assert result.text == "title: 'Note: one'\nitems: [a, b]\nnote: \"cut\""
    # the healed text only: the line scanner refuses the payload ("a plain scalar holds
    # ': '"), and the text in between ('Note: one' quoted, still cut off) is not composed
    # (it was before: 2 reads)
    assert reads == [result.text]
