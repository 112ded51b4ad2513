"""Repair a broken reply with formatbook.heal(), or learn why it cannot be repaired.

Run: python examples/heal_reply.py
"""

from formatbook_core import HealError, heal

# A reply cut off mid-way, with a trailing comma: both are obvious repairs.
truncated = '{"city": "Lisbon", "sights": ["Belém Tower", "Alfama",'
healed = heal(truncated, "EXPECT JSON")
print("healed text:", healed.text)
for repair in healed.repairs:
    print(f"  {repair.kind}: {repair.message}")

# A reply with no JSON in it cannot be healed: HealError carries the violations.
try:
    heal("Sorry, I can't help with that.", "EXPECT JSON")
except HealError as err:
    print("cannot heal:", err)
    for violation in err.violations:
        print(f"  {violation.code}: {violation.message}")
