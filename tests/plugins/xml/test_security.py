"""Hostile replies and schemas: no entity expansion, no file read, no request, fast answers.

A real temporary file holds a secret that must never appear in any output, and a local
HTTP server records every request it gets: it must get none."""

from __future__ import annotations

import http.server
import io
import time

import pytest
from lxml import etree

from formatbook_core import ExpectationError, HealError, StreamGuard, check, get_format, parse_expectations
from formatbook_xml.parser import SETTINGS, safe_parser
from tests.file_watch import file_open_watch
from tests.local_http import LocalHttpServer

XML = get_format("xml")
SECRET = "TOP-SECRET-4f1c9e"


@pytest.fixture
def secret_file(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text(SECRET, encoding="utf-8")
    return path


@pytest.fixture
def server():
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server name
            hits.append(self.path)
            body = b'<!ENTITY x "FETCHED">' if self.path.endswith(".dtd") else b"<r>FETCHED</r>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with LocalHttpServer(Handler) as local:
        yield local.base, hits


def _attacks(secret: str, url: str) -> dict[str, str]:
    laughs = '<!DOCTYPE lolz [<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "' + (f"&lol{i - 1};" if i > 1 else "&lol;") * 10 + '">' for i in range(1, 10)
    )
    return {
        "xxe-file": f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]><r>&x;</r>',
        "xxe-plain-path": f'<!DOCTYPE r [<!ENTITY x SYSTEM "{secret}">]><r>&x;</r>',
        "xxe-http": f'<!DOCTYPE r [<!ENTITY x SYSTEM "{url}/x">]><r>&x;</r>',
        "xxe-parameter": f'<!DOCTYPE r [<!ENTITY % p SYSTEM "{url}/p.dtd"> %p;]><r>&x;</r>',
        "external-dtd": f'<!DOCTYPE r SYSTEM "{url}/r.dtd"><r>&x;</r>',
        "external-dtd-public": f'<!DOCTYPE r PUBLIC "-//X//Y" "{url}/r.dtd"><r/>',
        "billion-laughs": laughs + "]><lolz>&lol9;</lolz>",
        "xxe-in-fence": f'Sure:\n```xml\n<!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]>\n<r>&x;</r>\n```',
        "xinclude": f'<r xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file://{secret}" parse="text"/></r>',
    }


def _everything(result) -> str:
    return repr(result.to_dict()) + repr([str(v) for v in result.violations]) + repr(result.value)


def test_the_parser_settings_are_the_safe_ones():
    parser = safe_parser()
    assert SETTINGS["resolve_entities"] is False
    assert SETTINGS["no_network"] is True
    assert SETTINGS["load_dtd"] is False
    assert SETTINGS["huge_tree"] is False
    # the parser lxml builds from them refuses to expand an internal entity
    root = etree.fromstring(b'<!DOCTYPE r [<!ENTITY e "EXPANDED">]><r>&e;</r>', parser)
    assert "EXPANDED" not in etree.tostring(root).decode()


@pytest.mark.parametrize("name", list(_attacks("/x", "http://h")))
def test_attacks_are_violations_fast_with_no_file_read_and_no_request(name, secret_file, server):
    url, hits = server
    reply = _attacks(str(secret_file), url)[name]
    started = time.process_time()  # CPU time: a loaded machine does not inflate it
    result = check(reply, "EXPECT XML\nEXPECT MAX 100 WORDS")
    healed_error = None
    try:
        XML.heal(reply)
    except HealError as err:
        healed_error = err
    guard = StreamGuard("EXPECT XML")
    for i in range(0, len(reply), 7):
        guard.feed(reply[i : i + 7])
    streamed = guard.finish()
    values = XML.extract_values(reply)
    elapsed = time.process_time() - started
    assert elapsed < 1.0, f"{name} took {elapsed:.2f}s"
    assert hits == [], f"{name}: the server got {hits}"
    for text in (_everything(result), _everything(streamed), repr(values), repr(healed_error)):
        assert SECRET not in text
        assert "FETCHED" not in text
        assert "lollollol" not in text
    if name == "xinclude":
        # XInclude is never processed: the element stays an element, nothing is read
        assert result.ok and "xi:include" in result.text
    else:
        assert not result.ok
        assert healed_error is not None
        assert any(v.code in ("xml.doctype", "xml.entity") for v in result.violations), result.violations


def test_doctype_violation_points_at_the_refused_part():
    reply = '<!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>'
    (violation,) = XML.validate(reply)
    assert violation.code == "xml.doctype"
    assert reply[violation.span.start] == "["


def test_a_bare_doctype_is_allowed():
    assert XML.is_valid("<!DOCTYPE note>\n<note>hi</note>")


def test_can_be_valid_refuses_the_entity_declaration_as_soon_as_it_shows():
    assert XML.can_be_valid("<!DOCTYPE r ")
    assert not XML.can_be_valid("<!DOCTYPE r [")
    assert not XML.can_be_valid("<!DOCTYPE r SYSTEM")


XSD_INCLUDE = """<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:include schemaLocation="{loc}"/>
  <xs:element name="r" type="xs:string"/>
</xs:schema>"""
XSD_IMPORT = """<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:import namespace="urn:other" schemaLocation="{loc}"/>
  <xs:element name="r" type="xs:string"/>
</xs:schema>"""
RNG_INCLUDE = """<grammar xmlns="http://relaxng.org/ns/structure/1.0">
  <include href="{loc}"/>
  <start><element name="r"><text/></element></start>
</grammar>"""


@pytest.mark.parametrize(
    "template", [XSD_INCLUDE, XSD_IMPORT, RNG_INCLUDE], ids=["xsd-include", "xsd-import", "rng-include"]
)
def test_schema_references_are_refused_without_allow_fetch(template, secret_file, server):
    url, hits = server
    for loc in (f"file://{secret_file}", str(secret_file), f"{url}/other.xsd"):
        with pytest.raises(ExpectationError) as err:
            XML.load_schema(template.format(loc=loc))
        assert "allow_fetch" in str(err.value)
        assert SECRET not in str(err.value)
    assert hits == []


def test_schema_references_to_files_are_refused_even_with_allow_fetch(secret_file, server):
    url, hits = server
    for loc in (f"file://{secret_file}", "secret.txt"):
        with pytest.raises(ExpectationError, match="only http and https"):
            XML.load_schema(XSD_INCLUDE.format(loc=loc), allow_fetch=True)
    assert hits == []


def test_an_xsd_include_over_http_is_fetched_only_with_allow_fetch(server):
    url, hits = server
    included = (
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="extra" type="xs:int"/></xs:schema>'
    )

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            body = included.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with LocalHttpServer(Handler) as local:
        schema = XML.load_schema(XSD_INCLUDE.format(loc=f"{local.base}/inc.xsd"), allow_fetch=True)
        assert XML.is_valid("<extra>5</extra>", schema)
        assert not XML.is_valid("<extra>five</extra>", schema)
    assert hits == []  # the other server was never asked


def test_a_dtd_schema_naming_an_external_entity_is_refused(secret_file):
    with pytest.raises(ExpectationError, match="SYSTEM or PUBLIC"):
        XML.load_schema(f'<!ELEMENT r (#PCDATA)>\n<!ENTITY x SYSTEM "file://{secret_file}">')


def test_a_schema_url_needs_allow_fetch(server):
    url, hits = server
    with pytest.raises(ExpectationError, match="allow_fetch"):
        parse_expectations(f"EXPECT XML {url}/s.xsd").loaded_schema  # noqa: B018 - loading is the test
    assert hits == []


def _dtd_attacks(secret: str) -> dict[str, str]:
    """DTD schemas that make libxml2's own DTD reader open ``secret``: an external parameter
    entity declared in another entity's value, where no plain SYSTEM or PUBLIC shows."""

    def declared(keyword: str, target: str) -> str:
        return f"<!ENTITY % a \"<!ENTITY &#37; b {keyword} '{target}'>\">%a;%b;<!ELEMENT r ANY>"

    nested_value = f"<!ENTITY &#38;#37; b &#38;#83;YSTEM &#38;#34;file://{secret}&#38;#34;>"
    return {
        "decimal-char-refs": declared("&#83;YSTEM", f"file://{secret}"),
        "hex-char-refs": declared("&#x53;YSTEM", f"file://{secret}"),
        "plain-path": declared("&#83;YSTEM", secret),
        "relative-path": declared("&#83;YSTEM", "secret.txt"),
        "file-colon-url": declared("&#83;YSTEM", f"file:{secret}"),
        "file-localhost-url": declared("&#x53;YSTEM", f"file://localhost{secret}"),
        "public-id": declared("&#80;UBLIC '-//X//Y'", f"file://{secret}"),
        "nested-parameter-entities": f"<!ENTITY % a \"<!ENTITY &#37; c '{nested_value}'>\">%a;%c;%b;<!ELEMENT r ANY>",
    }


@pytest.mark.parametrize("name", list(_dtd_attacks("/x")))
def test_a_dtd_schema_opens_no_file_however_it_spells_an_external_entity(name, tmp_path, monkeypatch):
    # issue 30: '&#83;YSTEM' inside an entity's value passed the SYSTEM/PUBLIC check, and
    # libxml2 opened the named file while reading the DTD; the watch sees the open itself
    watched = tmp_path / "watched"
    watched.mkdir()
    (watched / "secret.txt").write_text(SECRET, encoding="utf-8")
    monkeypatch.chdir(watched)  # where libxml2 would look for a relative path
    attack = _dtd_attacks(str(watched / "secret.txt"))[name]
    with file_open_watch(watched) as watch:
        try:
            etree.DTD(io.StringIO(attack))
        except etree.DTDParseError:
            pass
        assert watch.opened() == ["secret.txt"], "the attack no longer reaches the file through lxml itself"
        with pytest.raises(ExpectationError, match="external entit") as err:
            XML.load_schema(attack)
        schema_file = tmp_path / "attack.dtd"
        schema_file.write_text(attack, encoding="utf-8")
        with pytest.raises(ExpectationError, match="external entit"):
            parse_expectations(f"EXPECT XML {schema_file}").loaded_schema  # noqa: B018 - loading is the test
        assert watch.opened() == []
    assert SECRET not in str(err.value)


def test_a_dtd_schema_declaring_an_external_general_entity_by_char_refs_is_refused():
    # never read while the DTD is parsed, but a schema must be self-contained however it is spelled
    with pytest.raises(ExpectationError, match=r"external entities \(g\)"):
        XML.load_schema("<!ENTITY % a \"<!ENTITY g &#83;YSTEM 'file:///etc/hostname'>\">%a;<!ELEMENT r ANY>")


def test_a_dtd_schema_keeps_parameter_entities_inside_declarations():
    # the DTD is read as an external subset, where a parameter entity may stand inside a declaration
    schema = XML.load_schema('<!ENTITY % text "(#PCDATA)">\n<!ELEMENT r %text;>\n<!ELEMENT q EMPTY>')
    assert XML.is_valid("<r>x</r>", schema)
    (violation,) = XML.validate("<r><q/></r>", schema)
    assert violation.code == "schema.dtd"


@pytest.mark.parametrize("text", ["<!ELEMENT r (#PCDATA)", "<!ELEMENT r (#PCDATA)><!-- \ud800 -->"])
def test_a_malformed_dtd_schema_is_an_expectation_error(text):
    # a lone surrogate raised UnicodeEncodeError out of load_schema
    with pytest.raises(ExpectationError, match="the DTD schema cannot be read"):
        XML.load_schema(text)


def test_a_dtd_schema_keeps_non_ascii_names():
    schema = XML.load_schema("<!ELEMENT café (#PCDATA)>")
    assert XML.is_valid("<café>x</café>", schema)
    assert not XML.is_valid("<cafe>x</cafe>", schema)


def _schema_attacks(location: str) -> dict[str, str]:
    xs = 'xmlns:xs="http://www.w3.org/2001/XMLSchema"'
    rng = 'xmlns="http://relaxng.org/ns/structure/1.0"'
    element = '<xs:element name="r" type="xs:string"/>'
    start = '<start><element name="r"><text/></element></start>'
    attacks = {
        f"xsd-{kind}": f'<xs:schema {xs}><xs:{kind}{namespace} schemaLocation="{location}"/>{element}</xs:schema>'
        for kind, namespace in (("include", ""), ("import", ' namespace="urn:o"'), ("redefine", ""), ("override", ""))
    }
    attacks["rng-include"] = f'<grammar {rng}><include href="{location}"/>{start}</grammar>'
    attacks["rng-externalRef"] = f'<element name="r" {rng}><externalRef href="{location}"/></element>'
    attacks["xsd-include-by-entity"] = (
        f'<!DOCTYPE xs:schema [<!ENTITY loc "{location}">]>'
        f'<xs:schema {xs}><xs:include schemaLocation="&loc;"/>{element}</xs:schema>'
    )
    attacks["rng-include-by-entity"] = (
        f'<!DOCTYPE grammar [<!ENTITY loc "{location}">]><grammar {rng}><include href="&loc;"/>{start}</grammar>'
    )
    attacks["xsd-external-entity"] = (
        f'<!DOCTYPE xs:schema [<!ENTITY ext SYSTEM "{location}">]><xs:schema {xs}>'
        f"<xs:annotation><xs:documentation>&ext;</xs:documentation></xs:annotation>{element}</xs:schema>"
    )
    attacks["xsd-external-parameter-entity"] = (
        f'<!DOCTYPE xs:schema [<!ENTITY % p SYSTEM "{location}">%p;]><xs:schema {xs}>{element}</xs:schema>'
    )
    attacks["xsd-external-dtd"] = f'<!DOCTYPE xs:schema SYSTEM "{location}"><xs:schema {xs}>{element}</xs:schema>'
    attacks["xsd-parameter-entity-by-char-refs"] = (
        f"<!DOCTYPE xs:schema [<!ENTITY % a \"<!ENTITY &#37; b &#83;YSTEM '{location}'>\">%a;%b;]>"
        f"<xs:schema {xs}>{element}</xs:schema>"
    )
    return attacks


def _locations(secret: str) -> dict[str, str]:
    return {
        "file-url": f"file://{secret}",
        "plain-path": secret,
        "relative-path": "secret.txt",
        "file-colon-url": f"file:{secret}",
        "decimal-char-refs": "&#102;ile://" + secret,
        "hex-char-refs": "&#x66;&#x69;le://" + secret,
        "path-by-char-ref": "&#47;" + secret.lstrip("/"),
    }


@pytest.mark.parametrize("allow_fetch", [False, True], ids=["no-fetch", "allow-fetch"])
@pytest.mark.parametrize("spelling", list(_locations("/x")))
def test_xsd_and_relaxng_references_open_no_file_however_spelled(spelling, allow_fetch, tmp_path, monkeypatch):
    watched = tmp_path / "watched"
    watched.mkdir()
    (watched / "secret.txt").write_text(SECRET, encoding="utf-8")
    monkeypatch.chdir(watched)
    location = _locations(str(watched / "secret.txt"))[spelling]
    with file_open_watch(watched) as watch:
        for name, attack in _schema_attacks(location).items():
            try:
                schema = XML.load_schema(attack, allow_fetch=allow_fetch)
            except ExpectationError as err:
                assert SECRET not in str(err), name
            else:
                # what loads (an external DTD or entity is never read) reads nothing when applied either
                assert name in ("xsd-external-dtd", "xsd-external-entity", "xsd-external-parameter-entity"), name
                assert SECRET not in repr(XML.validate("<r>x</r>", schema))
            assert watch.opened() == [], f"{name}: libxml2 opened the file"
