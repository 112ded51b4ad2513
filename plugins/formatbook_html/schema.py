"""The HTML schema, in its simple form: ``{"required": ["h1", "ul > li"]}`` — elements or
CSS selectors (cssselect) each of which must match at least one element of the reply.

Given as a dict, as JSON text, or as the path of a JSON file (relative to ``base_dir``).
A schema that cannot be used (an unknown key, a selector cssselect cannot read) is an
``ExpectationError`` when it is loaded, never a failure of each reply.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from formatbook_core import ExpectationError, Violation
from formatbook_core.schema_files import read_schema_file

from .select import Mirror, compile_selector

_KEYS = {"required"}


@dataclass(frozen=True)
class HtmlSchema:
    """The required selectors, each checked when loaded."""

    required: tuple[str, ...] = ()

    def violations(self, root: Any) -> list[Violation]:
        """One ``html.required`` violation per selector nothing in the tree matches."""
        if not self.required:
            return []
        mirror = Mirror(root)
        out = []
        for selector in self.required:
            if not mirror.select(selector):
                out.append(
                    Violation(
                        "html.required",
                        f"the HTML has no element matching the required selector {selector!r}",
                        keyword="required",
                        expected=selector,
                    )
                )
        return out


def load_schema(schema: Any, base_dir: Any = None) -> HtmlSchema | None:
    """An :class:`HtmlSchema` from a dict, JSON text or a JSON file; ``None`` for none."""
    if schema is None or isinstance(schema, HtmlSchema):
        return schema
    if isinstance(schema, (list, tuple)):
        schema = {"required": list(schema)}
    if isinstance(schema, (str, os.PathLike)):
        schema = _read(schema, base_dir)
    if not isinstance(schema, dict):
        raise ExpectationError(
            f'an HTML schema is a dict such as {{"required": ["h1", "ul > li"]}}, not {type(schema).__name__}'
        )
    unknown = set(schema) - _KEYS
    if unknown:
        raise ExpectationError(f"an HTML schema takes only 'required' (a list of CSS selectors), not {sorted(unknown)}")
    required = schema.get("required", [])
    if isinstance(required, str) or not isinstance(required, (list, tuple)):
        raise ExpectationError(f"'required' must be a list of CSS selectors, not {required!r}")
    for selector in required:
        compile_selector(selector)  # raises ExpectationError for a bad one
    return HtmlSchema(tuple(required))


def _read(source: Any, base_dir: Any) -> Any:
    text = os.fspath(source)
    if isinstance(source, str) and text.lstrip().startswith("{"):
        data = text
    else:
        path = Path(text)
        if not path.is_absolute() and base_dir is not None:
            path = Path(base_dir) / path
        try:
            data = read_schema_file(path, what="HTML schema")
        except OSError as err:
            raise ExpectationError(f"cannot read the HTML schema {text!r}: {err}") from None
    try:
        return json.loads(data)
    except ValueError as err:
        raise ExpectationError(f"the HTML schema {text[:60]!r} is not JSON: {err}") from None
