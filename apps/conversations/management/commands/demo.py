"""`manage.py demo`: migrate, seed the demo, ask two questions end to end, print how to log in, serve."""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.conversations import services
from apps.conversations.models import Conversation
from apps.datasets.demo import ORDERS
from apps.datasets.selectors import dataset_get
from apps.tenants.context import context_for_session
from apps.tenants.demo import demo_seed

DEMO_QUESTIONS = ("2025 年各账号的销售额和退货率分别是多少？", "What is the monthly sales trend in 2025?")
DEMO_TITLE = "演示对话 Demo conversation"


class Command(BaseCommand):
    help = "Prepare the database and demo data, answer two demo questions, then start the server (Ctrl-C stops it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addrport", default="127.0.0.1:8000", help="where to serve (default 127.0.0.1:8000)")
        parser.add_argument("--no-serve", action="store_true", help="prepare and print, but do not start the server")

    def handle(self, *args: Any, **opts: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        creds = demo_seed()
        call_command("seed_demo_datasets", tenant=creds.tenant.slug, stdout=self.stdout)
        conversation = self._conversation(creds)
        for question in DEMO_QUESTIONS:
            self._ask(conversation, question)
        url = f"http://{opts['addrport']}/"
        self.stdout.write(self.style.SUCCESS("BA Platform demo is ready."))
        self.stdout.write(f"  Portal:   {url}  (username {creds.username}, password {creds.password})")
        self.stdout.write(f"  Chat:     {url}conversations/{conversation.pk}/")
        self.stdout.write(f"  API:      curl -H 'Authorization: Bearer {creds.token}' {url}api/v1/me/")
        self.stdout.write(f"  API docs: {url}api/docs/")
        if opts["no_serve"]:
            return
        # --insecure serves the static files without DEBUG; the production profile uses a real web server.
        call_command("runserver", opts["addrport"], insecure_serving=True, use_reloader=False)

    def _conversation(self, creds: Any) -> Conversation:
        existing = Conversation.objects.for_tenant(creds.tenant).filter(title=DEMO_TITLE).first()
        if existing is not None:
            return existing
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.get(username=creds.username)
        ctx = context_for_session(user, {"tenant_id": creds.tenant.pk})
        if ctx is None:
            raise CommandError("the demo user has no membership in the demo tenant; run seed_demo again")
        dataset = dataset_get(tenant=creds.tenant, key=ORDERS)
        return services.conversation_create(tenant=creds.tenant, ctx=ctx, dataset=dataset, title=DEMO_TITLE)

    def _ask(self, conversation: Conversation, question: str) -> None:
        run, response = services.ask_sync(conversation=conversation, question=question, actor="demo")
        self.stdout.write(f"\n  Q: {question}")
        if response["status"] != "answered":
            self.stdout.write(f"  [{response['status']}] {(response.get('error') or {}).get('message', '')}")
            return
        for line in response["answer"].splitlines():
            self.stdout.write(f"  A: {line}")
        grounded = len(response["verification"]["grounding"])
        steps = " → ".join(step["tool"] for step in response["audit"]["steps"])
        self.stdout.write(
            f"     steps: {steps}; {grounded} numbers verified against tool results; trace {run.trace_id}"
        )
