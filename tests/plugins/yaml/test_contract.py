"""The YAML format under the contract suite, with YAML's own hostile and damaged inputs."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core.testing import FormatContract

from ...contract.foreign_attacks import FOREIGN_ATTACKS

_LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join(f"*{chr(97 + i)}" for _ in range(9)) + "]\n" for i in range(8)
)


class TestYamlContract(FormatContract):
    format = get_format("yaml")
    # facts the core's tests read (tests/contract/facts.py): a short payload valid as it
    # stands, the violation of a reply with none (nothing outside its think blocks), and
    # replies of every verdict for the tests of whole results
    payload = "a: 1"
    no_payload_code = "yaml.empty"
    verdict_replies = (
        "name: Ada\nborn: 1815\nratio: 0.5\ntags: [a, b]\nnone: null\nwhen: 2024-01-05\n",
        "Sure:\n```yaml\na:\n\tb: 1\n```",  # healed
        "big: 123456789012345678901234567890\ninf: .inf\nminus: -.inf\nnan: .nan\n",  # non-finite floats
        'a: "cut',  # healed (cut off)
        "Sure, here it is",  # a failure
    )
    # 300 KB, not the contract's 2 MB: no limit of YAML's lies between (max_size is 16 MiB,
    # an implicit key stops at 1,024 characters), and growth with size is measured by
    # pathological.py (long-plain-value, long-unclosed-quote, many-aliases)
    huge_size = 300_000
    attack_inputs = {
        **FOREIGN_ATTACKS,
        "billion-laughs": _LAUGHS,
        "python-tag": "a: !!python/object/apply:os.system ['echo hacked']\n",
        "python-name": "a: !!python/name:os.system\n",
        "self-alias": "a: &x [*x]\n",
        "deep-flow": "[" * 50_000,
        "deep-block": "".join(" " * i + "- \n" for i in range(400)),
        # past the 10,000 expanded nodes the bound allows (and 100 times the 4 written): the
        # fast path leaves and ruamel refuses it, as it did 50,000 (1.5 s a reading)
        "many-aliases": "a: &a x\nb: [" + ", ".join("*a" for _ in range(12_000)) + "]\n",
        "long-line": "a: " + "x" * 100_000 + "\n",  # a plain value of 100,000 characters
        "version-1.3": "%YAML 1.3\n---\na: 1\n",
    }
    damaged_inputs = {
        "tab-indent": "a:\n\tb: 1\n\tc: 2\n",
        "colon-in-value": "title: Note: read this\nn: 1\n",
        "out-of-line": "a:\n  b: 1\n   c: 2\n",
        "stray-markers": "---\na: 1\n---\n",
        "truncated-string": 'a: 1\nb: "cut off',
        "truncated-flow": "a: [1, 2, {b: 3",
    }
