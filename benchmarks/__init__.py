"""Benchmarks: each reports our path as a ratio against the raw engine, measured in the same run."""
