"""Spark: check a DataFrame of replies with ``mapInPandas``, on formatbook's batch entry point.

::

    from pyspark.sql import SparkSession
    from spark_recipe import SPARK_SCHEMA, check_partitions

    spark = SparkSession.builder.getOrCreate()
    replies = spark.read.json("replies.jsonl")          # columns id, reply
    verdicts = replies.mapInPandas(check_partitions("EXPECT JSON\\nEXPECT MAX 80 WORDS"), SPARK_SCHEMA)
    verdicts.write.parquet("verdicts/")

Each executor process parses the EXPECT lines once (formatbook's cache) and keeps them
for every partition. The output has the row's ``id`` and the verdict columns (nested
parts as JSON text).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from formatbook_core.batch import BatchChecker

SPARK_SCHEMA = (
    "id string, ok boolean, verdict string, format string, text string, value string, repairs string, "
    "violations string, violation_codes array<string>, counts string, expectations string"
)


def check_partitions(
    expect: str | None = None, *, field: str = "reply", expect_field: str | None = None
) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The function for ``DataFrame.mapInPandas(fn, SPARK_SCHEMA)``."""
    checker = BatchChecker(expect, field=field, expect_field=expect_field)

    def check(frames: Iterator[Any]) -> Iterator[Any]:
        for frame in frames:
            out = checker(frame)
            ids = out["id"].astype(str) if "id" in out.columns else [None] * len(out)
            out = out.assign(id=ids)
            yield out[_COLUMNS]

    return check


_COLUMNS = [part.split()[0] for part in SPARK_SCHEMA.split(", ")]
