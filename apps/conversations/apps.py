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
