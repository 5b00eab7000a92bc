"""The agent's names for what the verify rules refer to (its tools and their aliases, its built-in detection
patterns), for the review pages. Audit sits below the agent, so it does not import them: the agent registers
them when it starts (AgentConfig.ready), as conversations registers the run-question lookup."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class RuleVocabulary:
    tool_names: Callable[[], list[str]]  # canonical tool names, then their aliases (rules match either)
    default_pattern_codes: Callable[[], list[str]]  # the codes of the built-in detection patterns


_registered: list[RuleVocabulary] = []


def register_rule_vocabulary(vocabulary: RuleVocabulary) -> None:
    _registered[:] = [vocabulary]


def known_tool_names() -> list[str]:
    """Every name a required-tool rule may use; empty until the agent has registered its vocabulary."""
    return _registered[0].tool_names() if _registered else []


def default_pattern_codes() -> list[str]:
    return _registered[0].default_pattern_codes() if _registered else []
