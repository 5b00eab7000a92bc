"""Ingestion: recognise an uploaded file, check it, load it into a DuckDB file in a child process, profile it."""
