"""Counting units (placeholder until the counting module lands)."""
from .hookspecs import hookimpl


@hookimpl
def register_units(register):
    pass
