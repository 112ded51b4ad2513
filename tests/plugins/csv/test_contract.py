"""The CSV format (and its tsv alias) under the contract suite, with CSV's own hostile and
damaged inputs."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core.testing import FormatContract

from ...contract.foreign_attacks import FOREIGN_ATTACKS

# The huge inputs: 250 KB, not the contract's 2 MB. Nothing in CSV changes with the size
# below max_size (16 MB, crossed by neither): no depth limit, no budget, and the one cap,
# MAX_VIOLATIONS, takes 21 rows. That these shapes (lone carriage returns, Markdown tables,
# many columns, blank lines...) grow linearly is tests/fuzz/test_pathological.py's, on
# counted work (tests/plugins/csv/pathological.py). 250 KB is still 62,500 rows of lone
# carriage returns, 31,250 columns.
_HUGE = 250_000


class TestCsvContract(FormatContract):
    format = get_format("csv")
    huge_size = _HUGE
    # facts the core's tests read (tests/contract/facts.py): a short payload valid as it
    # stands, the violation of a reply with none (nothing outside its think blocks), and
    # replies of every verdict for the tests of whole results
    payload = "a,b\n1,2"
    no_payload_code = "csv.empty"
    verdict_replies = (
        'name,age,note\nAda,36,"said ""hi"""\n',
        "Sure!\n```csv\nname; age\nAda; 36\n```",  # healed
        "I think, however, that it depends.",  # a failure
    )
    attack_inputs = {
        **FOREIGN_ATTACKS,
        "prose-with-commas": "I think, however, that the answer is yes. But, honestly, it depends on you, and them.",
        "huge-quoted-field": lambda n: 'a,b\n1,"' + "x" * n + '"\n',
        "huge-unclosed-quote": lambda n: 'a,b\n1,"' + "x\n" * (n // 2),
        "many-columns": lambda n: ",".join(f"c{i}" for i in range(n // 8)) + "\n" + "1," * (n // 8),
        "many-delimiters": lambda n: "a,b\n" + "," * n,
        "many-blank-lines": lambda n: "a,b\n" + "\n" * n + "1,2\n",
        "many-quotes": lambda n: 'a,b\n"' + '"' * n + "\n",
        "carriage-returns": lambda n: "a,b\r" + "1,2\r" * (n // 4),
        "markdown-pipes": lambda n: "|a|b|\n|-|-|\n" + "|1|2|\n" * (n // 6),
    }
    damaged_inputs = {
        "spaces-after-commas": "name, age\nAda, 36\nAlan, 41\n",
        "semicolons": "name;age\nAda;36\nAlan;41\n",
        "tabs": "name\tage\nAda\t36\n",
        "markdown-table": "| name | age |\n|:---|---:|\n| Ada | 36 |\n| Alan | 41 |\n",
        "unescaped-quotes": 'name,said\nAda,"She said "hi" to me"\n',
        "blank-lines": "name,age\n\nAda,36\n\nAlan,41\n\n",
        "truncated-row": "name,age,city\nAda,36,London\nAlan,41",
        "truncated-quote": 'name,notes\nAda,"fine\nAlan,"cut',
        "trailing-delimiters": "name,age\nAda,36,\nAlan,41,\n",
        "mixed-delimiters": "name,age,city\nAda,36,London\nAlan;41;Wilmslow\n",
    }


class TestTsvContract(FormatContract):
    format = get_format("tsv")
    huge_size = _HUGE
    samples = ("name\tage\nAda\t36\n", 'title\tnote\n"Tabs\tinside"\tok\r\nplain\t"a ""quote"""\r\n')
    damaged_inputs = {
        "commas": "name,age\nAda,36\n",
        "spaces": "name\tage\nAda\t 36\n",
    }


class TestCsvAutoContract(FormatContract):
    format = get_format("csv")
    huge_size = _HUGE
    options = {"delimiter": "auto"}
    samples = ("a;b;c\n1;2;3\n", "name|age\nAda|36\n", "name,age\nAda,36\n", 'x\ty\n"1\t2"\t3\n')


class TestCsvSchemaContract(FormatContract):
    format = get_format("csv")
    huge_size = _HUGE
    schema = get_format("csv").load_schema(
        {
            "type": "object",
            "properties": {"name": {"type": "string"}, "age": {"type": "integer"}, "note": {"enum": ["ok", "late"]}},
            "required": ["name"],
        }
    )
    samples = ("name,age,note\nAda,36,ok\nAlan,,late\n", 'name,age,note\r\n"Hopper, Grace",85,ok\r\n')
    hypothesis_examples = 50
    damaged_inputs = {
        "enum-case": "name,age,note\nAda,36,OK\n",
        "column-spelling": "Name,Age,Note\nAda,36,ok\n",
        "ragged-optional": "name,age,note\nAda,36\nAlan,41,ok\n",
    }


class TestCsvColumnsContract(FormatContract):
    format = get_format("csv")
    huge_size = _HUGE
    schema = get_format("csv").load_schema(["item"])
    samples = ("item\nlamp\n", 'item\n"desk, oak"\n""\n')
    hypothesis_examples = 50
