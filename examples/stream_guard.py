"""Check a reply while it streams with formatbook.StreamGuard, and stop early.

Run: python examples/stream_guard.py
"""

from formatbook_core import StreamGuard


def fake_llm_stream():
    """Chunks as an LLM API would stream them: a reply that runs past its limit."""
    reply = '{"summary": "The quarterly numbers improved because sales grew in every region and costs fell"}'
    for i in range(0, len(reply), 7):
        yield reply[i : i + 7]


guard = StreamGuard("EXPECT JSON\nEXPECT MAX 8 WORDS")
received = 0
for chunk in fake_llm_stream():
    received += len(chunk)
    status = guard.feed(chunk)
    if not status:
        # No continuation can pass any more: stop paying for tokens.
        print(f"stopped after {received} characters: {status.reason}")
        break
else:
    print("stream ended")

result = guard.finish()
print("verdict:", result.verdict)

# A reply within its limits streams to the end and passes.
guard = StreamGuard("EXPECT JSON\nEXPECT MAX 8 WORDS")
for chunk in ['{"summary": ', '"Sales grew', ' everywhere."}']:
    assert guard.feed(chunk), "a reply that can still pass keeps the guard truthy"
print("short reply:", guard.finish().verdict)
