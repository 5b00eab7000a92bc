"""Queries on data: QuerySpec, its compiler and SQL dialects, the DuckDB engine for files, results, resolve."""
