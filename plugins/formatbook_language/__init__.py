"""The LANGUAGE expectation kind (placeholder while the hook lands)."""
