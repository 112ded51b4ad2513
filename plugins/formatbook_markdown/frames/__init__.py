"""Flex-MD frames: semi-structured Markdown that round-trips to JSON (the spec's layer A),
and finding Flex-MD objects in arbitrary text (layer C).

``model`` the data · ``header`` lexing lines (frame headers, meta, fences) · ``convert``
meta values and payloads · ``parse`` :func:`parse_flex_md` (its docstring holds the
grammar) · ``write`` :func:`stringify_flex_md` · ``validate`` :func:`validate_flex_md` ·
``json_form`` the JSON form · ``detect`` :func:`detect_objects`, :func:`parse_any`.
"""
