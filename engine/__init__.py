"""Apophis rules engine (placeholder docstring, replaced by the engine commit)."""
