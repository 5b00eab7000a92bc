"""`manage.py create_tenant SLUG --name NAME [--plan P] [--owner USERNAME]`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from apps.audit.changes import Actor
from apps.tenants import services
from apps.tenants.models import Plan
from baplatform.errors import PlatformError


class Command(BaseCommand):
    help = "Create a tenant, optionally with an existing user as its owner."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--name", help="display name (defaults to the slug)")
        parser.add_argument("--plan", default=Plan.FREE, choices=Plan.values)
        parser.add_argument("--owner", help="username of an existing user to make owner")

    def handle(self, *args: Any, **opts: Any) -> None:
        owner = None
        if opts["owner"]:
            owner = get_user_model().objects.filter(username=opts["owner"]).first()
            if owner is None:
                raise CommandError(f"No user named {opts['owner']!r}; create it first (manage.py createsuperuser).")
        try:
            with transaction.atomic():
                tenant = services.tenant_create(name=opts["name"] or opts["slug"], slug=opts["slug"], plan=opts["plan"])
                if owner is not None:
                    services.owner_ensure(tenant=tenant, user=owner, actor=Actor.command("create_tenant"))
        except PlatformError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Created tenant {tenant.slug} (id {tenant.pk}, plan {tenant.plan}).")
