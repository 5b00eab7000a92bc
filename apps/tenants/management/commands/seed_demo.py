"""`manage.py seed_demo`: the demo tenant, user and token (idempotent); prints how to log in."""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand

from apps.tenants.demo import demo_seed


class Command(BaseCommand):
    help = "Create or refresh the demo tenant, user, API token and datasets, and print the credentials."

    def handle(self, *args: Any, **opts: Any) -> None:
        creds = demo_seed()
        self.stdout.write(f"Demo tenant: {creds.tenant.name} (slug {creds.tenant.slug})")
        self.stdout.write(f"Portal login: username {creds.username}  password {creds.password}")
        self.stdout.write(f"API token:    {creds.token}")
        call_command("seed_demo_datasets", tenant=creds.tenant.slug, stdout=self.stdout)
