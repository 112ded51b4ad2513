"""The JSON form of a Flex-MD document (Flex-MD's field names), both ways."""

from __future__ import annotations

import json
from typing import Any

from .model import FlexDocument, FlexFrame, FlexPayload


def is_flex_document_shape(obj: Any) -> bool:
    """True for a JSON value shaped like a FlexDocument: an object whose ``frames`` is a
    list of objects (each ``type``, when present, a string)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("frames"), list):
        return False
    return all(isinstance(f, dict) and isinstance(f.get("type", ""), str) for f in obj["frames"])


def _opt_str(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _meta_value(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, list):
        return [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str) for v in value]
    return json.dumps(value, ensure_ascii=False, default=str)


def flex_document_from_dict(obj: Any) -> FlexDocument:
    """A :class:`FlexDocument` from its JSON form (Flex-MD's field names; ``parseError``
    or ``parse_error``). Tolerant: values of the wrong type are turned into strings;
    raises ``ValueError`` only when :func:`is_flex_document_shape` is false."""
    if not is_flex_document_shape(obj):
        raise ValueError("not a FlexDocument: expected an object with a 'frames' list of objects")
    meta = obj.get("meta")
    doc = FlexDocument(
        title=_opt_str(obj.get("title")),
        meta={str(k): _meta_value(v) for k, v in meta.items()} if isinstance(meta, dict) else {},
    )
    for f in obj["frames"]:
        fmeta = f.get("meta")
        frame = FlexFrame(
            type=f.get("type", ""),
            role=_opt_str(f.get("role")),
            id=_opt_str(f.get("id")),
            ts=_opt_str(f.get("ts")),
            meta={str(k): _meta_value(v) for k, v in fmeta.items()} if isinstance(fmeta, dict) else {},
            title=_opt_str(f.get("title")),
            body_md=_opt_str(f.get("body_md")) or "",
        )
        payloads = f.get("payloads")
        if isinstance(payloads, dict):
            for name, p in payloads.items():
                if not isinstance(p, dict):
                    continue
                raw = p.get("raw")
                frame.payloads[str(name)] = FlexPayload(
                    lang=_opt_str(p.get("lang")),
                    raw=raw if isinstance(raw, str) else json.dumps(p.get("value"), ensure_ascii=False, default=str),
                    value=p.get("value"),
                    parse_error=_opt_str(p.get("parseError", p.get("parse_error"))),
                )
        doc.frames.append(frame)
    return doc


def flex_document_to_dict(doc: FlexDocument) -> dict[str, Any]:
    """The JSON form of ``doc`` (Flex-MD's field names; fields that are unset left out)."""
    out: dict[str, Any] = {}
    if doc.title is not None:
        out["title"] = doc.title
    if doc.meta:
        out["meta"] = dict(doc.meta)
    out["frames"] = [flex_frame_to_dict(f) for f in doc.frames]
    return out


def flex_frame_to_dict(f: FlexFrame) -> dict[str, Any]:
    """The JSON form of one frame (fields that are unset left out)."""
    d: dict[str, Any] = {"type": f.type}
    for key in ("role", "id", "ts"):
        if getattr(f, key) is not None:
            d[key] = getattr(f, key)
    if f.meta:
        d["meta"] = dict(f.meta)
    if f.title is not None:
        d["title"] = f.title
    if f.body_md:
        d["body_md"] = f.body_md
    if f.payloads:
        d["payloads"] = {}
        for name, p in f.payloads.items():
            pd: dict[str, Any] = {"raw": p.raw, "value": p.value}
            if p.lang is not None:
                pd["lang"] = p.lang
            if p.parse_error is not None:
                pd["parseError"] = p.parse_error
            d["payloads"][name] = pd
    return d
