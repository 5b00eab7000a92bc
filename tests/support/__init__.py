"""Helpers shared by test modules (fixtures live in conftest.py files)."""
