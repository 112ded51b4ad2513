"""Hook specifications: how a plugin adds formats, counting units and expectation kinds.

A plugin is a module (named by an entry point in the ``formatbook`` group) with functions
marked ``@hookimpl``. Built-in formats are written exactly like third-party ones::

    from formatbook_core import hookimpl, BaseFormat

    class Toml(BaseFormat):
        name = "toml"
        ...

    @hookimpl
    def register_formats(register):
        register(Toml())
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

PROJECT_NAME = "formatbook"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


@hookspec
def register_formats(register: Callable[..., None]) -> None:
    """Register the formats this plugin provides.

    Called once when the registry loads plugins. Call ``register`` once per format:

    ``register(format)``
        ``format`` is an object following :class:`formatbook_core.FormatDefinition`
        (usually a :class:`formatbook_core.BaseFormat` subclass instance). Its ``name``,
        ``aliases`` and ``mime_types`` become lookup keys (case-insensitive).

    ``register(format, alias="tsv", options={"delimiter": "\\t"})``
        registers an extra alias that carries options: looking up ``tsv`` gives the
        format with those options applied to every call.

    The return value is ignored. A name claimed by two plugins is not an error at load
    time: looking that name up raises an error naming both plugins.

    :param register: the callback described above.
    """


@hookspec
def register_units(register: Callable[[Any], None]) -> None:
    """Register counting units (``EXPECT MAX 3 WORDS``).

    Call ``register(unit)`` once per unit. A unit has ``name`` (plural, lower case, such as
    ``"words"``), ``aliases`` (``("word",)``) and ``count(text) -> int``; see
    :class:`formatbook_core.counting.Unit` for the optional parts that let a count be kept
    while a reply streams. The return value is ignored.

    :param register: a callable taking one unit.
    """


@hookspec
def register_expectation_kinds(register: Callable[[Any], None]) -> None:
    """Register expectation kinds that are not counts (``EXPECT ENDS WITH "Thanks!"``).

    Call ``register(kind)`` once per kind. A kind has ``phrase`` (the lower-case words its
    EXPECT lines start with, such as ``"ends with"``), ``description`` and
    ``parse(args, line)``, which turns the rest of the line (a list of
    :class:`formatbook_core.kinds.Token`) into an instruction with ``describe()``,
    ``check(text) -> list[Violation]``, ``guidance()`` and ``stream()``; see
    :mod:`formatbook_core.kinds`. Two plugins registering one phrase make lines with that
    phrase fail with an error naming both. The return value is ignored.

    :param register: a callable taking one kind.
    """
