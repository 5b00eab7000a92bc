"""Operations: structured logs carrying the trace id, Prometheus metrics, liveness and readiness checks."""
