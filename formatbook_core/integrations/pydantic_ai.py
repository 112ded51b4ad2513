"""pydantic-ai output that formatbook checks, heals and parses, retrying with its correction.

``pip install 'formatbook[pydantic-ai]'`` (pydantic-ai-slim)::

    from pydantic_ai import Agent
    from formatbook_core.integrations.pydantic_ai import formatbook_output
    output = formatbook_output(Expectations(format="json", schema=Contact, counts=[Count("words", max=40)]))
    agent = Agent(model, output_type=output, instructions=output.instructions)
    contact = agent.run_sync("Ada's contact card").output        # a Contact instance

The model answers in text; the output function checks it: a reply that heals is taken
without another request (its value, a pydantic instance when the schema is a model), a
reply that fails raises ``ModelRetry`` with formatbook's correction (what was wrong, where,
what to do), which pydantic-ai sends back to the model (``output_retries`` bounds how often).

``formatbook_validator`` is the same check for ``@agent.output_validator`` on a text
agent (``output_type=str``): it returns the healed payload text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic_ai import ModelRetry, TextOutput

from ..expectations import Expectations, as_expectations
from ..pipeline import check
from ..prompting import guidance
from ..results import CheckResult
from ._common import correction_for


class FormatbookRetry(ModelRetry):
    """``ModelRetry`` whose message is formatbook's correction; ``result`` is the verdict."""

    def __init__(self, message: str, result: CheckResult):
        super().__init__(message)
        self.result = result


def _judge(expectations: Expectations, text: str) -> CheckResult:
    result = check(text, expectations)
    if not result.ok:
        raise FormatbookRetry(correction_for(result, expectations), result)
    return result


@dataclass(init=False)
class FormatbookOutput(TextOutput[Any]):
    """``TextOutput`` whose function returns the value formatbook parsed (healed if need be)
    or raises ``ModelRetry`` with the correction; ``instructions`` is the guidance for the
    agent's ``instructions``."""

    expectations: Expectations

    def __init__(self, expectations: Expectations):
        def formatbook_output(text: str) -> Any:
            """The value the model's text means, checked and healed by formatbook."""
            return _judge(expectations, text).value

        super().__init__(formatbook_output)
        self.expectations = expectations

    @property
    def instructions(self) -> str:
        """formatbook's guidance: the expectations as prompt instructions."""
        return guidance(self.expectations)


def formatbook_output(expectations: Expectations | str, **kwargs: Any) -> FormatbookOutput:
    """The ``output_type`` of an agent whose text reply must meet ``expectations``
    (``kwargs``, such as ``base_dir``, go to ``parse_expectations`` for EXPECT text)."""
    return FormatbookOutput(as_expectations(expectations, **kwargs))


def formatbook_validator(expectations: Expectations | str, **kwargs: Any) -> Any:
    """A function for ``@agent.output_validator`` on a text agent: the healed payload
    text, or ``ModelRetry`` with formatbook's correction."""
    exp = as_expectations(expectations, **kwargs)

    def formatbook_validator(text: str) -> str:
        """The payload of the model's text, checked and healed by formatbook."""
        result = _judge(exp, text)
        return result.text if result.text is not None else text

    return formatbook_validator
