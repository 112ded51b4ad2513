"""Turn expectations into instructions for the prompt with formatbook.guidance().

Run: python examples/prompt_guidance.py
"""

from formatbook_core import Count, Expectations, guidance

contact_schema = {
    "type": "object",
    "properties": {"firstName": {"type": "string"}, "lastName": {"type": "string"}},
    "required": ["firstName", "lastName"],
}

# The same expectations in code and as EXPECT lines.
in_code = Expectations(format="json", schema=contact_schema, counts=[Count("words", max=3)])
print(guidance(in_code))
print("---")
print(guidance("EXPECT TEXT\nEXPECT EXACTLY 1 SENTENCE\nEXPECT MAX 20 WORDS"))
