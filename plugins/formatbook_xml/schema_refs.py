"""A schema reads nothing but itself, unless the caller allows fetching.

:func:`check_references` runs on a schema document before lxml compiles it: an XSD
``import``/``include``/``redefine``/``override`` with a ``schemaLocation``, a RelaxNG
``include``/``externalRef`` with an ``href``, is an ``ExpectationError`` unless
``allow_fetch=True``; with it, each location (resolved against the schema's own URL) must
be ``http`` or ``https``. The fetching itself goes through :class:`FetchResolver`, the
only resolver the schema's parser has: it fetches ``http``/``https`` with the core's
:func:`~formatbook_core.fetching.fetch` (a deadline for the whole fetch, a size cap), and
answers an empty document for any other scheme, so that libxml2 never reads a file for a
schema. A DTD schema is parsed through :func:`DtdResolver`, which answers the DTD's own
text once and an empty document for every other load, however the DTD spells its
references (``&#83;YSTEM`` inside an entity's value included).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from formatbook_core import ExpectationError
from formatbook_core.fetching import Budget, FetchError, is_web

__all__ = ["check_references", "DtdResolver", "FetchResolver", "fetch"]

_XSD = "{http://www.w3.org/2001/XMLSchema}"
_RNG = "{http://relaxng.org/ns/structure/1.0}"
_REFERENCES = {
    "xsd": [(f"{_XSD}{name}", "schemaLocation") for name in ("import", "include", "redefine", "override")],
    "relaxng": [(f"{_RNG}include", "href"), (f"{_RNG}externalRef", "href")],
}


def check_references(doc: Any, kind: str, base_url: str | None, *, allow_fetch: bool) -> None:
    """Refuse every reference of the schema ``doc`` to another document (see the module doc)."""
    for tag, attribute in _REFERENCES.get(kind, []):
        for element in doc.iter(tag):
            location = element.get(attribute)
            if location is None:
                continue  # an xs:import of a namespace only: nothing is read
            what = f"<{tag.rsplit('}', 1)[-1]} {attribute}={location!r}>"
            if not allow_fetch:
                raise ExpectationError(
                    f"the {kind.upper()} schema refers to another document ({what}); "
                    "a schema reads nothing but itself unless allow_fetch=True"
                )
            target = urljoin(base_url or "", location)
            if not is_web(target):
                raise ExpectationError(
                    f"the {kind.upper()} schema refers to {target!r} ({what}): only http and https are fetched"
                )


def fetch(url: str, max_size: int, budget: Budget | None = None) -> str:
    """The text at the ``http``/``https`` ``url`` (at most ``max_size`` characters, within
    what is left of ``budget``, default a fresh one: :mod:`formatbook_core.fetching`);
    raises ``ExpectationError``."""
    try:
        return (budget or Budget()).fetch(url, max_size)
    except FetchError as err:
        raise ExpectationError(f"cannot fetch the schema {url!r}: {err.why}") from None


def FetchResolver(max_size: int) -> Any:  # noqa: N802 - a factory standing for a class (lxml imported lazily)
    """An lxml resolver that fetches ``http``/``https`` and nothing else, every document
    within one budget (an include of an include... cannot stretch the loading)."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    budget = Budget()

    class _Resolver(etree.Resolver):
        def resolve(self, url: str, pubid: str, context: Any) -> Any:
            if not url or not is_web(url):
                return self.resolve_string(b"", context)  # never libxml2's own loader
            try:
                text = fetch(url, max_size, budget)
            except ExpectationError:
                return self.resolve_string(b"", context)
            return self.resolve_string(text.encode("utf-8"), context, base_url=url)

    return _Resolver()


def DtdResolver(url: str, text: bytes) -> Any:  # noqa: N802 - a factory standing for a class (lxml imported lazily)
    """An lxml resolver that answers ``text`` for ``url`` (once) and an empty document for
    every other load: libxml2's own loaders never run, so no file is opened and nothing
    is fetched for a DTD schema."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    class _Resolver(etree.Resolver):
        def __init__(self) -> None:
            super().__init__()
            self.pending = True

        def resolve(self, asked: str, pubid: str, context: Any) -> Any:
            if self.pending and asked == url:
                self.pending = False  # once: a DTD naming itself reads nothing more
                return self.resolve_string(text, context)
            return self.resolve_string(b"", context)

    return _Resolver()
