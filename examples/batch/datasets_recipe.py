"""Hugging Face ``datasets``: add verdict columns with ``map(batched=True, num_proc=...)``.

::

    from datasets import load_dataset
    from formatbook_core.batch import BatchChecker

    ds = load_dataset("json", data_files="replies.jsonl", split="train")
    ds = ds.map(BatchChecker("EXPECT JSON\\nEXPECT MAX 80 WORDS"), batched=True, num_proc=4)
    ds.filter(lambda row: row["ok"]).to_parquet("passing.parquet")

``BatchChecker`` is picklable: each of the ``num_proc`` processes gets a copy and parses
the EXPECT lines once.
"""

from __future__ import annotations

from typing import Any

from formatbook_core.batch import BatchChecker


def add_verdicts(dataset: Any, expect: str, *, num_proc: int | None = None, field: str = "reply") -> Any:
    """``dataset`` with the verdict columns (see :data:`formatbook_core.batch.COLUMNS`)."""
    return dataset.map(BatchChecker(expect, field=field), batched=True, num_proc=num_proc)
