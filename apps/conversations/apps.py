from django.apps import AppConfig


class ConversationsConfig(AppConfig):
    name = "apps.conversations"
    label = "conversations"
    verbose_name = "Conversations"

    def ready(self) -> None:
        # Audit lists runs by trace id but sits below conversations: it learns each run's question from here.
        from apps.audit.questions import register_question_lookup
        from apps.conversations.selectors import run_questions

        register_question_lookup(run_questions)

        # Replay re-executes recorded calls with the agent's tools; audit's entry point calls it from here.
        from apps.audit.replay import register_replayer
        from apps.conversations.replay import replay_run

        register_replayer(replay_run)
