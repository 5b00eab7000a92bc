"""The embedded offline planner: a deterministic chat model for when no LLM endpoint is configured."""

from apps.agent.offline.model import MODEL_NAME, OfflinePlanner

__all__ = ["MODEL_NAME", "OfflinePlanner"]
