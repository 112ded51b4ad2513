"""Detecting Flex-MD objects in arbitrary text, and parse_any."""

from __future__ import annotations

import json
import pathlib

import pytest

from formatbook_markdown.frames.detect import DetectedObject, ParseAnyResult, detect_objects, parse_any
from formatbook_markdown.frames.model import FlexDocument, FlexFrame, FlexPayload

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "detect"


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(o.kind, o.raw) for o in detect_objects(text)]


def _check_offsets(text: str, objects: list[DetectedObject]) -> None:
    last = 0
    for o in objects:
        assert o.raw == text[o.start : o.end]
        assert o.start >= last  # in text order, no overlap
        last = o.end
        assert 0.0 <= o.confidence <= 1.0


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.txt")), ids=lambda p: p.stem)
def test_fixture_detection(path: pathlib.Path) -> None:
    text = path.read_text(encoding="utf-8")
    expected = json.loads((FIXTURES / f"{path.stem}.expected.json").read_text(encoding="utf-8"))
    objects = detect_objects(text)
    _check_offsets(text, objects)
    got = [{"kind": o.kind, "confidence": o.confidence, "raw": o.raw, "inner": o.inner} for o in objects]
    assert got == expected


def test_flexmd_fence_is_tier_a() -> None:
    text = "Intro.\n\n```flexmd\n[[message role=user]]\nhi\n```\n\nOutro."
    objects = detect_objects(text)
    _check_offsets(text, objects)
    assert [(o.kind, o.confidence) for o in objects] == [
        ("markdown_snippet", 0.3),
        ("flexmd_fence", 0.95),
        ("markdown_snippet", 0.3),
    ]
    fence = objects[1]
    assert (fence.start, fence.end) == (8, 46)
    assert fence.inner == "[[message role=user]]\nhi\n"
    assert objects[0].raw == "Intro." and objects[2].raw == "Outro."


@pytest.mark.parametrize("info", ["FlexMD", "flex-md title=x", "flexmd"])
def test_flexmd_info_spellings(info: str) -> None:
    assert [o.kind for o in detect_objects(f"```{info}\n[[m]]\n```")] == ["flexmd_fence"]


def test_unclosed_flexmd_fence_has_lower_confidence() -> None:
    objects = detect_objects("```flexmd\n[[m]]\nbody")
    assert [(o.kind, o.confidence, o.raw, o.inner) for o in objects] == [
        ("flexmd_fence", 0.8, "```flexmd\n[[m]]\nbody", "[[m]]\nbody")
    ]


def test_json_fence_needs_the_flexdocument_shape() -> None:
    good = '```json\n{"frames": [{"type": "m"}]}\n```'
    assert _kinds(good) == [("flexdoc_json_fence", good)]
    for other in [
        '```json\n{"a": 1}\n```',
        '```json\n{"frames": 1}\n```',
        "```json\n{broken\n```",
        '```\n{"frames": []}\n```',
    ]:
        assert _kinds(other) == [("markdown_snippet", other)]


def test_indented_code_is_no_fence() -> None:
    text = "Example:\n\n    ```flexmd\n    [[m]]\n    ```\n"
    assert _kinds(text) == [("markdown_snippet", text.strip())]


def test_fence_in_a_block_quote_is_found() -> None:
    text = "> ```flexmd\n> [[m]]\n> ```"
    objects = detect_objects(text)
    assert [(o.kind, o.confidence, o.raw, o.inner) for o in objects] == [("flexmd_fence", 0.95, text, "[[m]]\n")]


def test_raw_frames_need_two_markers_one_a_header() -> None:
    one_marker = "Some text\n[[message]]\nhello"
    assert [o.kind for o in detect_objects(one_marker)] == ["markdown_snippet"]
    chat = "@alice: hi\n@bob: hello"
    assert [o.kind for o in detect_objects(chat)] == ["markdown_snippet"]
    two = "Here is the log:\n\n[[message role=user]]\n@tags: a\nhello\n"
    objects = detect_objects(two)
    _check_offsets(two, objects)
    assert [(o.kind, o.raw) for o in objects] == [
        ("markdown_snippet", "Here is the log:"),
        ("raw_flexmd", "[[message role=user]]\n@tags: a\nhello"),
    ]
    assert objects[1].confidence == pytest.approx(0.75)
    assert objects[1].inner is None


def test_raw_frames_take_in_title_and_meta_above() -> None:
    text = "Preface.\n\n# Log\n@src: x\n\n[[m]]\n[[m]]\n"
    assert _kinds(text) == [("markdown_snippet", "Preface."), ("raw_flexmd", "# Log\n@src: x\n\n[[m]]\n[[m]]")]


def test_markers_beyond_the_sniff_window_do_not_count() -> None:
    far = "[[m]]\n" + "text\n" * 45 + "@a: 1\n"
    assert [o.kind for o in detect_objects(far)] == ["markdown_snippet"]
    near = "[[m]]\n" + "text\n" * 30 + "@a: 1\n"
    assert [o.kind for o in detect_objects(near)] == ["raw_flexmd"]


def test_markers_inside_code_do_not_count() -> None:
    text = "[[m]]\n```\n@a: 1\n[[n]]\n```\n"
    assert [o.kind for o in detect_objects(text)] == ["markdown_snippet"]


def test_snippet_confidence_follows_structure() -> None:
    assert detect_objects("plain words")[0].confidence == 0.3
    assert detect_objects("# Heading\ntext")[0].confidence == 0.5
    assert detect_objects("| a | b |\n| - | - |\n| 1 | 2 |")[0].confidence == 0.5


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t"])
def test_blank_text_is_none(text: str) -> None:
    assert detect_objects(text) == [DetectedObject("none", 0.0, 0, len(text), text, None)]


def test_crlf_offsets() -> None:
    text = "Hi\r\n\r\n```flexmd\r\n[[m]]\r\n```\r\nBye"
    objects = detect_objects(text)
    _check_offsets(text, objects)
    assert [(o.kind, o.raw) for o in objects] == [
        ("markdown_snippet", "Hi"),
        ("flexmd_fence", "```flexmd\r\n[[m]]\r\n```"),
        ("markdown_snippet", "Bye"),
    ]


# ------------------------------------------------------------------ parse_any


def test_parse_any_mixed() -> None:
    text = (
        "Intro\n\n"
        "```flexmd\n[[message role=user]]\nhi\n```\n\n"
        "Middle\n\n"
        '```json\n{"frames": [{"type": "note", "id": 5, "payloads": {"p": {"lang": "json", "raw": "[1]", "value": [1]}}}]}\n```\n\n'
        "[[message role=assistant]]\n@tags: x\nbye\n"
    )
    result = parse_any(text)
    assert result == ParseAnyResult(
        flex_docs=[
            FlexDocument(frames=[FlexFrame(type="message", role="user", body_md="hi")]),
            FlexDocument(frames=[FlexFrame(type="note", id="5", payloads={"p": FlexPayload("json", "[1]", [1])})]),
            FlexDocument(frames=[FlexFrame(type="message", role="assistant", meta={"tags": ["x"]}, body_md="bye")]),
        ],
        markdown_snippets=["Intro", "Middle"],
        remainder="Intro\n\nMiddle",
    )


def test_parse_any_plain_and_empty() -> None:
    assert parse_any("Just **Markdown**.\n\n- a") == ParseAnyResult(
        [], ["Just **Markdown**.\n\n- a"], "Just **Markdown**.\n\n- a"
    )
    assert parse_any("") == ParseAnyResult([], [], "")


# ------------------------------------------------------------------ hostile input


def test_megabyte_text() -> None:
    text = (
        ("Some prose with [[brackets]] and @at: signs. " * 20 + "\n\n- a list\n\n") * 1200
    ) + "```flexmd\n[[m]]\nend\n```"
    assert len(text) > 1_000_000
    objects = detect_objects(text)
    assert [o.kind for o in objects] == ["markdown_snippet", "flexmd_fence"]
    assert objects[1].inner == "[[m]]\nend\n"
    _check_offsets(text, objects)


def test_many_headers_without_markers_stay_linear() -> None:
    # each header alone, 41 lines apart: the sniff window is bounded, so this is cheap
    text = ("[[m]]\n" + "x\n" * 41) * 2000
    assert [o.kind for o in detect_objects(text)] == ["markdown_snippet"]
    with_fence = text + "```\ncode\n```\n"  # now the CommonMark parse runs as well
    assert [o.kind for o in detect_objects(with_fence)] == ["markdown_snippet"]


def test_binary_ish_text() -> None:
    text = "\x00\x01\x02[[m]]\n@a: \x00\n\udcff```flexmd\n\ufffe" * 5000
    objects = detect_objects(text)
    _check_offsets(text, objects)
    assert objects
    result = parse_any(text)
    assert isinstance(result, ParseAnyResult)


def test_not_a_string() -> None:
    with pytest.raises(TypeError):
        detect_objects(None)  # type: ignore[arg-type]
