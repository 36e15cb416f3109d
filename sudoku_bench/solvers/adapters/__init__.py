"""Thin adapters over solver libraries (OR-Tools, PySAT, python-constraint, native exact cover)."""
