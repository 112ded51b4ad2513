"""The JSON format under the contract suite, with JSON's own hostile and damaged inputs."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core.testing import FormatContract

from ...contract.foreign_attacks import FOREIGN_ATTACKS


class TestJsonContract(FormatContract):
    format = get_format("json")
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
