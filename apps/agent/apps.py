from django.apps import AppConfig

# Added per run by apps.agent.providers.optional_tools when web access is configured.
OPTIONAL_TOOL_NAMES = ("search_web", "web_reader")


def tool_names() -> list[str]:
    """Canonical tool names, then the requirement documents' aliases of them (rules match either)."""
    from apps.agent.aliases import ALIASES
    from apps.agent.tools import TOOLS

    return [*sorted({*TOOLS, *OPTIONAL_TOOL_NAMES}), *sorted(ALIASES)]


def default_pattern_codes() -> list[str]:
    from apps.agent.verification.patterns import DEFAULT_PATTERNS

    return [p.code for p in DEFAULT_PATTERNS]


class AgentConfig(AppConfig):
    name = "apps.agent"
    label = "agent"
    verbose_name = "Agent"

    def ready(self) -> None:
        # The review pages name tools and built-in patterns; audit sits below the agent and learns them here.
        from apps.audit.rule_vocabulary import RuleVocabulary, register_rule_vocabulary

        register_rule_vocabulary(RuleVocabulary(tool_names=tool_names, default_pattern_codes=default_pattern_codes))
