"""SQL sources: a tenant's own databases registered, connected to read-only, browsed and queried."""
