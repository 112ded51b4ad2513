"""JSON format plugin (being built)."""
