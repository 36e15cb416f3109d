"""Storing runs and results: the `Store` interface and its SQLite implementation."""
