"""Memory per character of a check: bounded on cards nested by BEGIN:VCARD lines."""

from __future__ import annotations

from formatbook_core.fuzzing.pathological import peak_bytes_per_character


def test_nested_begin_lines_stay_under_the_bound() -> None:
    """Each BEGIN:VCARD closes the card before it (END and VERSION added, a card each):
    222 bytes a character (241 with LF line ends), the records and cards alive while the
    healed text was read again; let go as they are written, and the added lines' parses
    shared, 137 (149)."""
    assert peak_bytes_per_character("BEGIN:VCARD\r\n" * 1_500, "EXPECT VCARD") < 150
    assert peak_bytes_per_character("BEGIN:VCARD\n" * 1_500, "EXPECT VCARD") < 150
    assert peak_bytes_per_character("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nEND:VCARD\r\n" * 500, "EXPECT VCARD") < 50
