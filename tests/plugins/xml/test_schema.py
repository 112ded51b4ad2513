"""Schemas: the simple form, XSD, RelaxNG and DTD, as text or path, detected from their
content; violations with line, column and the element's path from lxml's error log."""

from __future__ import annotations

from pathlib import Path

import pytest

from formatbook_core import ExpectationError, check, get_format, guidance

XML = get_format("xml")
FIXTURES = Path(__file__).parent / "fixtures"

ORDER_OK = """<order id="42">
  <item sku="A-1"><name>Tea</name><price>3.50</price></item>
  <item sku="B-7"><name>Mug</name><price>8.00</price></item>
</order>"""
ORDER_BAD_PRICE = ORDER_OK.replace("<price>8.00</price>", "<price>eight</price>")


def test_kinds_are_detected_from_content():
    assert XML.load_schema(str(FIXTURES / "order.xsd")).kind == "xsd"
    assert XML.load_schema((FIXTURES / "order.xsd").read_text()).kind == "xsd"
    assert XML.load_schema(FIXTURES / "answer.rng").kind == "relaxng"
    assert XML.load_schema((FIXTURES / "note.dtd").read_text()).kind == "dtd"
    assert XML.load_schema(str(FIXTURES / "answer.json")).kind == "simple"
    assert XML.load_schema({"root": "a"}).kind == "simple"


def test_xsd_violation_has_line_column_and_element_path():
    schema = XML.load_schema(str(FIXTURES / "order.xsd"))
    assert XML.is_valid(ORDER_OK, schema)
    (v,) = XML.validate(ORDER_BAD_PRICE, schema)
    assert v.code == "schema.xsd"
    assert "/order/item[2]/price" in v.message
    assert v.path == ("order", "item[2]", "price")
    assert "line 3" in v.message
    assert ORDER_BAD_PRICE[v.span.start :].startswith("<price>eight")


def test_xsd_one_violation_per_error():
    schema = XML.load_schema(str(FIXTURES / "order.xsd"))
    bad = '<order id="x">\n  <item><name>Tea</name><price>cheap</price></item>\n</order>'
    codes = [v.code for v in XML.validate(bad, schema)]
    assert codes == ["schema.xsd"] * 3  # id not an integer, sku missing, price not a decimal


def test_relaxng():
    schema = XML.load_schema(str(FIXTURES / "answer.rng"))
    assert XML.is_valid("<answer><reasoning>r</reasoning><final>f</final></answer>", schema)
    violations = XML.validate("<answer><final>f</final></answer>", schema)
    assert violations and all(v.code == "schema.relaxng" for v in violations)


def test_dtd():
    schema = XML.load_schema((FIXTURES / "note.dtd").read_text())
    assert XML.is_valid('<note lang="en"><to>Ada</to><body>Hi</body></note>', schema)
    violations = XML.validate("<note><body>Hi</body></note>", schema)
    assert violations and violations[0].code == "schema.dtd"


def test_simple_form():
    schema = {"root": "answer", "required": ["reasoning", "final"]}
    assert XML.is_valid("<answer><reasoning>r</reasoning><final>f</final></answer>", schema)
    (v,) = XML.validate("<answer><final>f</final></answer>", schema)
    assert (v.code, v.expected) == ("schema.required", "reasoning")
    (v,) = XML.validate("<reply><final>f</final></reply>", schema)
    assert (v.code, v.expected) == ("schema.root", "answer")
    # a grandchild is not a child
    assert not XML.is_valid("<answer><x><reasoning/></x><final/></answer>", schema)
    # local names match across namespaces
    assert XML.is_valid('<a:answer xmlns:a="urn:a"><a:reasoning/><a:final/></a:answer>', schema)


@pytest.mark.parametrize(
    "bad",
    [{"root": 3}, {"required": "final"}, {"rot": "a"}, "<not-a-schema/>", "not a file.xsd", "{broken json"],
)
def test_bad_schemas_are_expectation_errors(bad):
    with pytest.raises(ExpectationError):
        XML.load_schema(bad)


def test_an_xsd_that_does_not_compile_is_an_expectation_error():
    with pytest.raises(ExpectationError, match="compiled"):
        XML.load_schema(
            '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="a" type="nope"/></xs:schema>'
        )


def test_check_with_a_schema_file_in_an_expect_line(tmp_path):
    (tmp_path / "order.xsd").write_text((FIXTURES / "order.xsd").read_text())
    ok = check(
        "Here:\n```xml\n" + ORDER_OK + "\n```", "EXPECT XML order.xsd".replace("order.xsd", str(tmp_path / "order.xsd"))
    )
    assert ok.ok
    bad = check(ORDER_BAD_PRICE, f"EXPECT XML {tmp_path / 'order.xsd'}")
    assert not bad.ok
    assert bad.violations[0].code == "schema.xsd"


def test_guidance_names_the_root_and_required_children():
    text = guidance(f"EXPECT XML {FIXTURES / 'answer.json'}")
    assert "<answer>" in text and "<reasoning>" in text and "<final>" in text
    assert len(text) < 300
    xsd = guidance(f"EXPECT XML {FIXTURES / 'order.xsd'}")
    assert "<order>" in xsd and "XSD" in xsd
    assert "<item>" in xsd and "<price>" not in xsd  # direct children only
    plain = guidance("EXPECT XML")
    assert "XML" in plain and "root element" in plain
