"""The JSON format under the contract suite, with JSON's own hostile and damaged inputs."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core.testing import FormatContract

from ...contract.foreign_attacks import FOREIGN_ATTACKS


class TestJsonContract(FormatContract):
    format = get_format("json")
    # facts the core's tests read (tests/contract/facts.py): a short payload valid as it
    # stands, the violation of a reply with none (nothing outside its think blocks), and
    # replies of every verdict for the tests of whole results
    payload = '{"a": 1}'
    no_payload_code = "json.think_inside"  # JSON's own rule: a think block where the payload would be
    verdict_replies = (
        '{"name": "Ada", "born": 1815, "ratio": 0.5, "tags": ["a", "b"], "none": null}',
        "Sure:\n```json\n{'a': [1, 2,], b: True}\n```",  # healed
        '{"a": 1e400, "b": -1e400, "c": 123456789012345678901234567890}',  # big numbers
        '{"a": ',  # a failure
        "<think>hm</think>\n[1, 2.5, -0.0]",
    )
    attack_inputs = {
        **FOREIGN_ATTACKS,
        # Python refuses int() of more than 4,300 digits; the reply must still get an answer
        "huge-integer": "1" * 100_000,
        "huge-exponent": "1e" + "9" * 10_000,
        "many-escapes": '"' + "\\u0041" * 200_000 + '"',
        "lone-surrogate-escapes": '["\\ud800", "\\udfff\\ud800"]',
        "many-keys": "{" + ",".join(f'"k{i}": {i}' for i in range(100_000)) + "}",
        "duplicate-keys": "{" + ",".join('"k": 1' for _ in range(100_000)) + "}",
        "deep-mixed": '[{"a": ' * 30_000,
        "many-candidates": "[1] " * 50_000,
    }
    damaged_inputs = {
        "python-literals": "{'a': True, 'b': None, 'c': [1, 2,],}",
        "smart-quotes": "{\u201cname\u201d: \u201cAda\u201d}",
        "bare-keys": '{name: "Ada", age: 36}',
        "truncated": '{"a": [1, 2, {"b": "c',
        "nan-and-infinity": '{"a": NaN, "b": -Infinity}',
        "missing-commas": '{"a": 1 "b": 2}',
    }
