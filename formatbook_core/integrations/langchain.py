"""A LangChain output parser that checks, heals and parses a reply with formatbook.

``pip install 'formatbook[langchain]'`` (langchain-core)::

    from formatbook_core.integrations.langchain import FormatbookOutputParser
    parser = FormatbookOutputParser("EXPECT JSON contact.json\\nEXPECT MAX 40 WORDS")
    prompt = ChatPromptTemplate.from_messages(
        [("system", "{format_instructions}"), ("user", "{question}")]
    ).partial(format_instructions=parser.get_format_instructions())
    chain = prompt | model | parser
    contact = chain.invoke({"question": "Ada's contact card"})   # the parsed value

``parse`` returns the value the reply meant (healed when healing was needed; a pydantic
instance when the schema is a model) or raises :class:`FormatbookParserError`, an
``OutputParserException`` carrying the ``CheckResult``, its violations and the correction
text a model acts on (``observation``). ``chain.stream(...)`` feeds the reply to a
``StreamGuard`` as it arrives: the parser stops pulling chunks, and the model's stream is
closed, as soon as no continuation can pass; it yields one item, the value, at the end.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from langchain_core.exceptions import OutputParserException
from langchain_core.messages import BaseMessage
from langchain_core.output_parsers.transform import BaseTransformOutputParser
from pydantic import ConfigDict

from ..expectations import Expectations, as_expectations
from ..llm_replies import Received, read_async_stream, read_stream
from ..pipeline import check
from ..prompting import guidance
from ..results import CheckResult, Violation
from ._common import correction_for, failure_message


class FormatbookParserError(OutputParserException):
    """The reply does not meet the expectations: ``result`` is formatbook's verdict,
    ``violations`` its violations, ``observation`` the correction to send to the model
    and ``llm_output`` the reply (the part received, when a stream was stopped)."""

    def __init__(self, result: CheckResult, correction: str, reply: str):
        super().__init__(failure_message(result), observation=correction, llm_output=reply)
        self.result = result

    @property
    def violations(self) -> list[Violation]:
        """formatbook's violations, most relevant first (``reply.stopped`` first for a stopped stream)."""
        return self.result.violations


class FormatbookOutputParser(BaseTransformOutputParser[Any]):
    """Checks a model's reply against ``expectations`` (EXPECT text or ``Expectations``).

    ``FormatbookOutputParser("EXPECT JSON\\nEXPECT MAX 3 WORDS")``; a schema path in the
    EXPECT text is read relative to ``base_dir`` (default: the current directory).
    :class:`FormatbookResultParser` returns the whole ``CheckResult`` instead of its value.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    expectations: Expectations

    def __init__(
        self,
        expectations: Expectations | str | None = None,
        *,
        base_dir: str | Path | None = None,
        **kwargs: Any,
    ) -> None:
        if expectations is None:
            expectations = kwargs.pop("expectations", None)
        exp = as_expectations(expectations, base_dir=base_dir)
        super().__init__(expectations=exp, **kwargs)

    @property
    def _type(self) -> str:
        return "formatbook"

    def get_format_instructions(self) -> str:
        """formatbook's guidance: the expectations as prompt instructions."""
        return guidance(self.expectations)

    def parse(self, text: str) -> Any:
        """The value ``text`` means (healed if need be), or :class:`FormatbookParserError`."""
        return self._outcome(check(text, self.expectations), None)

    def _outcome(self, result: CheckResult, received: Received | None) -> Any:
        if not result.ok:
            reply = received.text if received is not None else result.reply
            raise FormatbookParserError(result, correction_for(result, self.expectations, received), reply)
        return self._returned(result)

    def _returned(self, result: CheckResult) -> Any:
        return result.value

    def _transform(self, input: Iterator[str | BaseMessage]) -> Iterator[Any]:
        received = read_stream(_texts(input), self.expectations, None)
        _raise_transport(received)
        yield self._outcome(received.result, received)

    async def _atransform(self, input: AsyncIterator[str | BaseMessage]) -> AsyncIterator[Any]:
        received = await read_async_stream(_atexts(input), self.expectations, None)
        _raise_transport(received)
        yield self._outcome(received.result, received)


class FormatbookResultParser(FormatbookOutputParser):
    """:class:`FormatbookOutputParser` that returns the passing ``CheckResult`` (verdict,
    repairs, counts and value) rather than the value alone; a failure still raises."""

    def _returned(self, result: CheckResult) -> CheckResult:
        return result


def _text(chunk: str | BaseMessage) -> str:
    """A chunk's text: a string, or a message chunk's text blocks (reasoning left out)."""
    return chunk if isinstance(chunk, str) else str(chunk.text)


def _texts(chunks: Iterator[str | BaseMessage]) -> Iterator[str]:
    """The chunks' texts; closing this closes the model's stream (the guard stopped it)."""
    try:
        for chunk in chunks:
            yield _text(chunk)
    finally:
        close = getattr(chunks, "close", None)  # a generator, or an iterator without close()
        if callable(close):
            close()


async def _atexts(chunks: AsyncIterator[str | BaseMessage]) -> AsyncIterator[str]:
    try:
        async for chunk in chunks:
            yield _text(chunk)
    finally:
        aclose = getattr(chunks, "aclose", None)
        if callable(aclose):
            await aclose()


def _raise_transport(received: Received) -> None:
    """The model's own failure is raised as it is, never turned into a parsing error."""
    if received.error is not None:
        raise received.error.__cause__ or received.error
