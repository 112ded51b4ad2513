"""The data of Flex-MD frames (layer A): documents, frames, payloads and the issues
:func:`~.validate.validate_flex_md` reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

FlexMetaValue = str | list | int | float | bool | None
MetaTypeMode = Literal["strings", "infer", "schema"]


@dataclass
class FlexPayload:
    """A fenced block bound to a name by ``@payload:name: X``."""

    lang: str | None
    raw: str
    value: Any = None
    parse_error: str | None = None


@dataclass
class FlexFrame:
    """One frame: its header fields, meta, Markdown body and payloads."""

    type: str
    role: str | None = None
    id: str | None = None
    ts: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    title: str | None = None
    body_md: str = ""
    payloads: dict[str, FlexPayload] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The frame's JSON form (Flex-MD's field names; unset fields left out)."""
        from .json_form import flex_frame_to_dict  # noqa: PLC0415 - json_form imports this module

        return flex_frame_to_dict(self)


@dataclass
class FlexDocument:
    """A Flex-MD document: an optional title and meta, and its frames in order."""

    title: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    frames: list[FlexFrame] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The document's JSON form (``flex_document_to_dict``)."""
        from .json_form import flex_document_to_dict  # noqa: PLC0415 - json_form imports this module

        return flex_document_to_dict(self)


@dataclass(frozen=True)
class FlexIssue:
    """A problem :func:`validate_flex_md` found: a stable ``code``, a ``message`` and
    the 1-based ``line``; ``severity`` is ``"error"`` or ``"warning"``."""

    code: str
    message: str
    line: int
    severity: str = "error"


@dataclass
class FlexValidation:
    """``ok`` is true when no issue is an error."""

    ok: bool
    issues: list[FlexIssue]


#: The header keys that fill a frame's own fields (the others go to its meta).
FIELD_KEYS = ("role", "id", "ts", "title")
#: The meta keys whose values are lists of strings unless told otherwise.
DEFAULT_ARRAY_KEYS = ("tags", "refs")
