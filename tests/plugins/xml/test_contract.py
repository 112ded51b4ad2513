"""The XML format under the contract suite, with XML's own hostile and damaged inputs."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core.testing import FormatContract

from ...contract.foreign_attacks import FOREIGN_ATTACKS

_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + "".join(f' <!ENTITY lol{i} "' + f"&lol{i - 1};" * 10 + '">\n' for i in range(1, 10)).replace("&lol0;", "&lol;")
    + "]>\n<lolz>&lol9;</lolz>"
)


class TestXmlContract(FormatContract):
    format = get_format("xml")
    # facts the core's tests read (tests/contract/facts.py): a short payload valid as it
    # stands, the violation of a reply with none (nothing outside its think blocks), and
    # replies of every verdict for the tests of whole results
    payload = "<a/>"
    no_payload_code = "xml.empty"
    verdict_replies = (
        '<answer lang="en">Paris &amp; Lyon<![CDATA[ <b> ]]></answer>',
        "Sure:\n```xml\n<a x=1>AT&T</a>\n```",  # healed
        "<a><b>",  # healed (cut off)
        "Sorry, no XML.",  # a failure
    )
    attack_inputs = {
        **FOREIGN_ATTACKS,
        "billion-laughs": _LAUGHS,
        "xxe-file": '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
        "xxe-parameter": '<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]><r/>',
        "external-dtd": '<!DOCTYPE r SYSTEM "http://127.0.0.1:9/r.dtd"><r/>',
        "quadratic-blowup": '<!DOCTYPE r [<!ENTITY a "' + "x" * 50_000 + '">]><r>' + "&a;" * 10_000 + "</r>",
        "deep-elements": "<a>" * 5_000 + "</a>" * 5_000,
        "many-attributes": "<a " + " ".join(f'k{i}="{i}"' for i in range(50_000)) + "/>",
        "huge-char-ref": "<a>&#" + "0" * 100_000 + "65;</a>",
        "long-name": "<" + "n" * 200_000 + ">x</" + "n" * 200_000 + ">",
        "many-roots": "<a/>" * 50_000,
        "many-stray-lt": "<a>" + "< " * 100_000 + "</a>",
        "many-ampersands": "<a>" + "& " * 100_000 + "</a>",
        "unclosed-comment": "<a><!--" + "-x" * 50_000,
        "unclosed-attribute": '<a b="' + "x" * 100_000,
        "xinclude": '<r xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd" parse="text"/></r>',
    }
    damaged_inputs = {
        "ampersand": "<answer>AT&T and P&G</answer>",
        "less-than": "<answer>if a < b then</answer>",
        "unquoted-attributes": "<item id=3 name=tea>x</item>",
        "close-tag-case": "<Answer>Paris</answer>",
        "misnested": "<p><b><i>bold italic</b></i></p>",
        "truncated": "<response><reasoning>The capital is Par",
        "truncated-tag": "<response><answer>Paris</answer></resp",
        "several-roots": "<reasoning>why</reasoning>\n<answer>what</answer>",
        "html-entities": "<p>caf&eacute;&nbsp;&mdash; &copy; 2024</p>",
        "declaration-late": '\n  <?xml version="1.0"?>\n<a>x</a>',
        "declaration-inside": '<a><?xml version="1.0"?>x</a>',
        "truncated-cdata": "<code><![CDATA[if (a < b) {",
    }
