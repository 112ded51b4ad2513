"""Check LLM replies against EXPECT lines with formatbook.check().

Run: python examples/check_reply.py
"""

from formatbook_core import check

EXPECT = """
EXPECT JSON
EXPECT MIN 2 WORDS
EXPECT MAX 3 WORDS
"""

replies = {
    "two words": '{"firstName": "John", "lastName": "Smith"}',
    "four words": '{"firstName": "John Smith", "lastName": "Peter Green"}',
    "fenced, trailing comma": 'Here you go:\n```json\n{"firstName": "Ada", "lastName": "Lovelace",}\n```',
}

for label, reply in replies.items():
    result = check(reply, EXPECT)
    # Counts run on the values the JSON carries, never on its keys or syntax.
    print(f"{label}: {result.verdict} (words: {result.counts.get('words')})")
    for repair in result.repairs:
        print(f"  repaired: {repair.message}")
    for violation in result.violations:
        print(f"  violation: {violation.code}: {violation.message}")
    if result.ok:
        print(f"  value: {result.value}")
