"""Markdown contract plugin (being built)."""
