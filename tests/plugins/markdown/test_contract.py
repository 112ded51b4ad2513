"""formatbook's contract test-suite run on the markdown format, without a contract and
with the contract of issue 4 (at L1 and at L3)."""

from __future__ import annotations

from formatbook_core.testing import FormatContract
from formatbook_markdown.format import MarkdownFormat

from ...contract.foreign_attacks import FOREIGN_ATTACKS
from .helpers import SPEC

CONTRACT_SAMPLES = (
    "## Short answer\n\nYes.\n\n## Reasoning\n\n1. The sky is clear.\n2. The forecast agrees.\n",
    "## Short answer\n\nNone\n\n## Reasoning\n\n1. Logic\n\n## Assumptions\n\n- a\n- b\n\n"
    "| # | Step | Owner |\n| --- | --- | --- |\n| 1 | Plan | Ann |\n| 2 | Build | Bob |\n",
)


class TestMarkdownContract(FormatContract):
    format = MarkdownFormat()
    # facts the core's tests read (tests/contract/facts.py): a short payload valid as it
    # stands, the violation of a reply with none (nothing outside its think blocks), and
    # replies of every verdict for the tests of whole results
    payload = "# a\n\ntext"
    no_payload_code = "markdown.empty"
    verdict_replies = (
        "# Title\n\nSome text.\n\n## Short answer\n\nYes.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        "<think>plan</think>\nPreamble.\n\n# Heading\n\nBody.",
        "",
    )
    # as the classes with a spec: every garbage input gets the same verdict, heal and
    # checker answers at 300 KB as at 1 MB (no Markdown limit depends on the size; the scan
    # cache's bound is tested in test_reads.py)
    huge_size = 300_000
    hypothesis_examples = 60
    attack_inputs = {
        **FOREIGN_ATTACKS,
        "many-headings": "## a\n" * 20_000,
        "many-table-columns": "|" + "a|" * 5_000 + "\n|" + "-|" * 5_000 + "\n",
        "many-link-references": "".join(f"[r{i}]: http://x/{i}\n" for i in range(10_000)),
        "many-html-blocks": "<div>\n" * 10_000,
        "nested-fences-in-lists": "- ```\n" * 10_000,
        "glued-headings": "Yes. ## Reasoning " * 10_000,
    }
    damaged_inputs = {
        "unclosed-fence": "## Answer\n```python\nx = 1\n",
        "glued-heading": "I think... ## Short answer \n Yes. ## Reasoning \n 1. Logic",
        "bold-labels": "**Short answer:** Yes.\n\n**Reasoning:** because.",
    }


class TestMarkdownContractWithSpec(FormatContract):
    format = MarkdownFormat()
    schema = SPEC
    samples = CONTRACT_SAMPLES
    huge_size = 300_000  # the huge garbage is dense Markdown: ~8 s per MB with a spec
    hypothesis_examples = 60
    damaged_inputs = {
        "glued-heading": "I think... ## Short answer \n Yes. ## Reasoning \n 1. Logic",
        "bold-labels": "**Short answer:** Yes.\n\n**Reasoning:**\n\n1. because.",
        "missing-section": "## Reasoning\n\n1. Logic\n",
    }


class TestMarkdownContractL3(FormatContract):
    format = MarkdownFormat()
    schema = SPEC
    options = {"level": 3}
    samples = tuple(f"```markdown\n{s}```\n" for s in CONTRACT_SAMPLES)
    huge_size = 300_000  # the huge garbage is dense Markdown: ~8 s per MB with a spec
    hypothesis_examples = 40


class TestMarkdownContractL2(FormatContract):
    format = MarkdownFormat()
    schema = SPEC
    options = {"level": 2}
    samples = tuple(f"```markdown\n{s}```\n" for s in CONTRACT_SAMPLES)
    huge_size = 300_000  # the huge garbage is dense Markdown: ~8 s per MB with a spec
    hypothesis_examples = 40
