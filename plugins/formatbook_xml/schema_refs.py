"""A schema reads nothing but itself, unless the caller allows fetching.

:func:`check_references` runs on a schema document before lxml compiles it: an XSD
``import``/``include``/``redefine``/``override`` with a ``schemaLocation``, a RelaxNG
``include``/``externalRef`` with an ``href``, is an ``ExpectationError`` unless
``allow_fetch=True``; with it, each location (resolved against the schema's own URL) must
be ``http`` or ``https``. The fetching itself goes through :class:`FetchResolver`, the
only resolver the schema's parser has: it fetches ``http``/``https`` with a timeout and a
size cap, and answers an empty document for any other scheme, so that libxml2 never
reads a file for a schema. A DTD schema is parsed through :func:`DtdResolver`, which
answers the DTD's own text once and an empty document for every other load, however the
DTD spells its references (``&#83;YSTEM`` inside an entity's value included).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin, urlsplit

from formatbook_core import ExpectationError

__all__ = ["check_references", "DtdResolver", "FetchResolver", "fetch", "TIMEOUT"]

#: Seconds a schema fetch may take.
TIMEOUT = 10.0
_XSD = "{http://www.w3.org/2001/XMLSchema}"
_RNG = "{http://relaxng.org/ns/structure/1.0}"
_REFERENCES = {
    "xsd": [(f"{_XSD}{name}", "schemaLocation") for name in ("import", "include", "redefine", "override")],
    "relaxng": [(f"{_RNG}include", "href"), (f"{_RNG}externalRef", "href")],
}


def _web(url: str) -> bool:
    return urlsplit(url).scheme.lower() in ("http", "https")


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
            if not _web(target):
                raise ExpectationError(
                    f"the {kind.upper()} schema refers to {target!r} ({what}): only http and https are fetched"
                )


def fetch(url: str, max_size: int) -> str:
    """The text at the ``http``/``https`` ``url`` (at most ``max_size`` bytes, within
    :data:`TIMEOUT`); raises ``ExpectationError``."""
    import urllib.request  # noqa: PLC0415 - the network only when a fetch is asked for

    if not _web(url):
        raise ExpectationError(f"only http and https are fetched, not {url!r}")
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.HTTPHandler(),
        urllib.request.HTTPSHandler(),
        urllib.request.HTTPRedirectHandler(),
        urllib.request.HTTPErrorProcessor(),
        urllib.request.HTTPDefaultErrorHandler(),
    ):
        opener.add_handler(handler)
    try:
        with opener.open(url, timeout=TIMEOUT) as response:
            data = response.read(max_size + 1)
    except Exception as err:
        raise ExpectationError(f"cannot fetch the schema {url!r}: {err}") from None
    if len(data) > max_size:
        raise ExpectationError(f"the schema at {url!r} is larger than {max_size:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ExpectationError(f"the schema at {url!r} is not UTF-8: {err}") from None


def FetchResolver(max_size: int) -> Any:  # noqa: N802 - a factory standing for a class (lxml imported lazily)
    """An lxml resolver that fetches ``http``/``https`` and nothing else."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    class _Resolver(etree.Resolver):
        def resolve(self, url: str, pubid: str, context: Any) -> Any:
            if not url or not _web(url):
                return self.resolve_string(b"", context)  # never libxml2's own loader
            try:
                text = fetch(url, max_size)
            except ExpectationError:
                return self.resolve_string(b"", context)
            return self.resolve_string(text.encode("utf-8"), context, base_url=url)

    return _Resolver()


def DtdResolver(url: str, text: str) -> Any:  # noqa: N802 - a factory standing for a class (lxml imported lazily)
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
