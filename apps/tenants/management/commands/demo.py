"""`manage.py demo`: migrate, seed the demo, print how to log in, then serve the portal and API."""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from apps.tenants.demo import demo_seed


class Command(BaseCommand):
    help = "Prepare the database and demo data, then start the server (Ctrl-C stops it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addrport", default="127.0.0.1:8000", help="where to serve (default 127.0.0.1:8000)")
        parser.add_argument("--no-serve", action="store_true", help="prepare and print, but do not start the server")

    def handle(self, *args: Any, **opts: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        creds = demo_seed()
        url = f"http://{opts['addrport']}/"
        call_command("seed_demo_datasets", tenant=creds.tenant.slug, stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("BA Platform demo is ready."))
        self.stdout.write(f"  Portal:   {url}  (username {creds.username}, password {creds.password})")
        self.stdout.write(f"  API:      curl -H 'Authorization: Bearer {creds.token}' {url}api/v1/me/")
        if opts["no_serve"]:
            return
        # --insecure serves the static files without DEBUG; the production profile uses a real web server.
        call_command("runserver", opts["addrport"], insecure_serving=True, use_reloader=False)
