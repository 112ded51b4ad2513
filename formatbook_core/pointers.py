"""JSON pointers (RFC 6901): the one reader of them, for every format whose scopes are
pointers into a value (JSON, YAML, TOML), for local ``$ref`` in a schema (:func:`local_target`:
repairs, guidance, CSV's column types), and for the words the guidance gives a scope.

A pointer is read here once, into its reference tokens; a parsed value of dicts and
lists (JSON, TOML) is walked by :func:`resolve`, and a format with a tree of its own
(YAML's nodes) walks it with the tokens and says in its own words what it did not find.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from .results import ScopeNotFound


def parse_pointer(pointer: str) -> tuple[str, ...]:
    """The reference tokens of an RFC 6901 JSON pointer.

    ``""`` is the whole document; ``"/"`` is the member whose key is the empty string
    (as RFC 6901 says). A URI fragment (``"#/items/0"``, percent-decoded) is accepted
    too. Raises ``ScopeNotFound`` for text that is not a pointer.
    """
    if pointer.startswith("#"):
        pointer = unquote(pointer[1:])
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        raise ScopeNotFound(f"{pointer!r} is not a JSON pointer (it must start with '/')")
    # ~1 first: "~01" is the key "~1", not "/"
    return tuple(part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/"))


def is_index(token: str) -> bool:
    """Whether ``token`` is written as an array index (``0``, ``12``; not ``01``, ``-``)."""
    # ASCII only: str.isdigit() takes "²", which int() refuses
    return token.isascii() and token.isdigit() and (token == "0" or not token.startswith("0"))


def array_index(token: str, length: int) -> int | None:
    """The item ``token`` names in a list of ``length`` items, or ``None`` when it names
    none there."""
    if not is_index(token):
        return None
    index = int(token)
    return index if index < length else None


def resolve(value: Any, pointer: str, language: str = "JSON") -> tuple[Any, tuple[str | int, ...]]:
    """What the JSON pointer ``pointer`` names in the parsed ``value`` (dicts and lists, as
    JSON, TOML... parse them) and its path of keys and indexes. Raises ``ScopeNotFound``
    when the value has nothing there; ``language`` names the format in the message."""
    path: list[str | int] = []
    for token in parse_pointer(pointer):
        if isinstance(value, dict):
            if token not in value:
                raise ScopeNotFound(f"the {language} has no {pointer or token!r}: no key {token!r}")
            value = value[token]
            path.append(token)
        elif isinstance(value, list):
            index = array_index(token, len(value))
            if index is None:
                raise ScopeNotFound(f"the {language} has no {pointer!r}: no item {token!r} in a list of {len(value)}")
            value = value[index]
            path.append(index)
        else:
            raise ScopeNotFound(f"the {language} has no {pointer!r}: {token!r} is inside a scalar")
    return value, tuple(path)


def scope_problem(scope: str, language: str) -> str | None:
    """Why ``scope`` can never match in a format whose scopes are JSON pointers (its
    ``validate_scope``), or ``None`` when it is a pointer. ``language`` names the format
    in the message (``"JSON"``, ``"YAML"``)."""
    try:
        parse_pointer(scope)
    except ScopeNotFound as err:
        return f'{err}; a {language} scope is a JSON pointer such as "/{scope}"'
    return None


def local_target(root: Any, ref: str) -> Any:
    """What the local ``$ref`` ``ref`` (``"#/$defs/item"``) names in the schema ``root``,
    or ``None``: a reference to another document, a fragment that is no pointer (an
    anchor), or nothing there. Objects are walked by key, arrays by index."""
    if not ref.startswith("#"):
        return None
    try:
        tokens = parse_pointer(ref)
    except ScopeNotFound:
        return None
    target = root
    for token in tokens:
        if isinstance(target, dict) and token in target:
            target = target[token]
        elif isinstance(target, list) and (index := array_index(token, len(target))) is not None:
            target = target[index]
        else:
            return None
    return target
