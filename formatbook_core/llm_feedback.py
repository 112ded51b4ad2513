"""What ``ask`` says to a model: the first request and the correction after a bad reply.

A correction names what was wrong, where (a field name such as ``address.city``, a
section, or a quote of the text around a syntax error) and what to do, in a few short
lines a model acts on; it never repeats the whole prompt to a chat model, which still has
it in the conversation.
"""

from __future__ import annotations

import json
from typing import Any

from .expectations import Count, Expectations
from .prompting import count_guidance, field_name, guidance
from .results import Attempt, Violation
from .tallying import raised_by

#: At most this many problems are listed in a correction: the first ones matter most.
MAX_PROBLEMS = 8
_QUOTE = 40  # characters of reply text quoted around a position


def build_prompt(prompt: str, expectations: Expectations, *, with_guidance: bool = True) -> str:
    """The first request: the caller's prompt and the format instructions."""
    text = guidance(expectations) if with_guidance else ""
    return f"{prompt}\n\n{text}" if text else prompt


def correction(previous: Attempt, expectations: Expectations) -> str:
    """The short user message sent after a bad reply: what was wrong, where, what to do."""
    lines: list[str] = []
    if previous.stopped:
        position = previous.stop_position
        # a count stops at the end of what was received: quoting it says nothing
        where = _near(previous.reply, position) if position is not None and position < len(previous.reply) else ""
        lines.append(
            f"Your reply was stopped after {len(previous.reply)} characters because it could no longer be "
            f"accepted: {previous.stop_reason or 'it broke the rules'}{where}."
        )
        reminders = [count_guidance(c, expectations.fmt) for c in expectations.counts if c.upper is not None]
        reminders += [i.guidance() for i in expectations.instructions if _streams(i)]
        if reminders:
            lines.append("Remember: " + " ".join(reminders))
    else:
        problems = [v for v in previous.result.violations if v.code != "reply.stopped"]
        lines.append("Your reply was not accepted:" if problems else "Your reply did not meet the requirements.")
        for v in problems[:MAX_PROBLEMS]:
            lines.append("- " + describe(v, previous.reply, expectations))
        if len(problems) > MAX_PROBLEMS:
            lines.append(f"- and {len(problems) - MAX_PROBLEMS} more problem(s)")
    lines.append("Reply again with the complete corrected answer only, following the instructions above.")
    return "\n".join(lines)


def build_reprompt(prompt: str, expectations: Expectations, previous: Attempt, *, with_guidance: bool = True) -> str:
    """For a prompt callable (no conversation): the first request, the previous reply
    quoted and the correction, in one prompt."""
    base = build_prompt(prompt, expectations, with_guidance=with_guidance)
    return f"{base}\n\nYour previous reply was:\n<<<\n{previous.reply}\n>>>\n{correction(previous, expectations)}"


def describe(v: Violation, reply: str, expectations: Expectations) -> str:
    """One problem as a model reads it: where, what, and what to do."""
    where = where_words(v, reply, expectations)
    what = v.message.rstrip(".")
    fix = _fix(v, expectations)
    text = f"{where}: {what}" if where else what
    return f"{text}. {fix}" if fix else f"{text}."


def where_words(v: Violation, reply: str, expectations: Expectations) -> str:
    """``field "address.zip"``, ``section "Reasoning"``, ``near `…{"a": tru3…` ``, or ``""``."""
    if v.path:
        return _path_words(v.path, expectations)
    if v.span is not None and not v.code.startswith(("count.", "schema.")):
        return _near(reply, v.span.start).lstrip(" ,")
    return ""


def _path_words(path: tuple[str | int, ...], expectations: Expectations) -> str:
    fmt = expectations.fmt
    kind = (fmt.scope_kind if fmt is not None else None) or ""
    if kind == "JSON pointer" or any(isinstance(p, int) for p in path):
        return f"field {_quoted(field_name(path))}"
    if kind.endswith(" name"):  # "section name" -> section "Reasoning"
        return f"{kind[: -len(' name')]} {_quoted(' / '.join(str(p) for p in path))}"
    return f"at {_quoted(field_name(path))}"


def _near(reply: str, position: int | None) -> str:
    """``, near `…text…` ``: the reply around ``position``, on one line."""
    if position is None or not reply:
        return ""
    start = max(0, position - _QUOTE // 2)
    snippet = reply[start : start + _QUOTE]
    snippet = " ".join(snippet.split())
    if not snippet:
        return ""
    lead = "…" if start > 0 else ""
    tail = "…" if start + _QUOTE < len(reply) else ""
    quote = (lead + snippet + tail).replace("`", "'")
    return f", near `{quote}`"


def _quoted(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _fix(v: Violation, expectations: Expectations) -> str:
    """What to do about ``v``, when the violation's kind says it."""
    code, expected = v.code, v.expected
    if code.startswith("count."):
        return _count_fix(code, _count_of(v, expectations), expectations)
    instruction = _instruction_of(v, expectations)
    if instruction is not None:
        return str(instruction.guidance())
    if code == "reply.empty":
        return "Write the answer as text."
    if code == "reply.cut":
        return "Write a shorter reply that ends completely: it must fit the length limit."
    if code.endswith(".not_found"):
        return f"Reply with {_format_name(expectations)} only."
    if code == "schema.required" and isinstance(v.message, str) and "'" in v.message:
        return "Add it."
    if code == "schema.type" and isinstance(expected, (str, list)):
        return f"Use {_type_words(expected)}."
    if code == "schema.enum" and isinstance(expected, list):
        return "Use one of: " + ", ".join(_json(e) for e in expected[:12]) + "."
    if code in ("schema.maxLength", "schema.minLength") and isinstance(expected, int):
        bound = "at most" if code == "schema.maxLength" else "at least"
        return f"Use {bound} {expected} characters."
    if code in ("schema.maxItems", "schema.minItems") and isinstance(expected, int):
        bound = "at most" if code == "schema.maxItems" else "at least"
        return f"Give {bound} {expected} items."
    if code == "schema.additionalProperties":
        return "Remove the fields the format does not list."
    if code.endswith((".syntax", ".heal")):
        return f"Write valid {_format_name(expectations)}."
    return ""


def _count_of(v: Violation, expectations: Expectations) -> Count | None:
    """The count a ``count.*`` violation is about."""
    return next((c for c in expectations.counts if raised_by(v, c)), None)


def _instruction_of(v: Violation, expectations: Expectations) -> Any:
    """The instruction a violation is about: its ``keyword`` is the kind's phrase (the start
    of the instruction's EXPECT line); of several, the one naming ``expected``."""
    if not v.keyword or not expectations.instructions:
        return None
    found = [i for i in expectations.instructions if _described(i).lower().startswith(v.keyword.lower())]
    if len(found) > 1 and v.expected is not None:
        found = [i for i in found if str(v.expected) in _described(i)] or found
    return found[0] if found else None


def _described(instruction: Any) -> str:
    try:
        return str(instruction.describe())
    except Exception:  # a plugin's bug must not break the correction
        return ""


def _streams(instruction: Any) -> bool:
    try:
        return instruction.stream() is not None
    except Exception:
        return False


def _count_fix(code: str, count: Count | None, expectations: Expectations) -> str:
    if count is None:
        return ""
    rule = count_guidance(count, expectations.fmt).rstrip(".")
    verb = {"count.max": "Shorten it", "count.min": "Write more", "count.exactly": "Adjust it"}.get(code, "Fix it")
    return f"{verb}: {rule[0].lower()}{rule[1:]}."


def _format_name(expectations: Expectations) -> str:
    fmt = expectations.fmt
    return fmt.name.upper() if fmt is not None else "the expected format"


def _type_words(expected: Any) -> str:
    names = {
        "string": "a string",
        "integer": "a whole number",
        "number": "a number",
        "boolean": "true or false",
        "array": "an array",
        "object": "an object",
        "null": "null",
    }
    kinds = expected if isinstance(expected, list) else [expected]
    return " or ".join(names.get(str(k), str(k)) for k in kinds)


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)
