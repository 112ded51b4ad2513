"""A LangChain chain whose output parser is formatbook: guidance in the prompt, the reply
checked as it streams (a doomed one stopped), healed and parsed.

Run: python examples/integrations/langchain_parser.py      (needs: pip install 'formatbook[langchain]')

Offline: LangChain's own fake chat model streams the scripted replies one character at a
time; put a real chat model (ChatOpenAI, ChatAnthropic...) in its place for the real thing.
"""

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.prompts import ChatPromptTemplate

from formatbook_core.integrations.langchain import FormatbookOutputParser, FormatbookParserError

RUNAWAY = '{"city": "Lisbon", "sights": ["' + "Belém Tower, " * 200 + '"]}'
FENCED = 'Here you go:\n```json\n{"city": "Lisbon", "sights": ["Belém Tower", "Alfama"],}\n```'


class TokenCounter(BaseCallbackHandler):
    """Counts the tokens the model generated."""

    def __init__(self) -> None:
        self.tokens = 0

    def on_llm_new_token(self, token: str, **kwargs: object) -> None:
        self.tokens += 1


parser = FormatbookOutputParser("EXPECT JSON\nEXPECT MAX 12 WORDS")
prompt = ChatPromptTemplate.from_messages([("system", "{format_instructions}"), ("user", "{question}")]).partial(
    format_instructions=parser.get_format_instructions()
)
print("format instructions:", parser.get_format_instructions().replace("\n", " "))

model = FakeListChatModel(responses=[RUNAWAY, FENCED])
chain = prompt | model | parser
counter = TokenCounter()
try:
    for value in chain.stream({"question": "Lisbon's sights"}, config={"callbacks": [counter]}):
        print("value:", value)
except FormatbookParserError as exc:
    print(f"stream stopped: {counter.tokens} of {len(RUNAWAY)} tokens generated")
    print("violations:", ", ".join(v.code for v in exc.violations))
    print("correction for the model:", exc.observation.splitlines()[0])

print("parsed:", chain.invoke({"question": "Lisbon's sights"}))
