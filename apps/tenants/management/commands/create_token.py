"""`manage.py create_token --tenant SLUG --scopes a:read,b:write [--name N] [--days D]`: prints the token once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.audit.changes import Actor
from apps.tenants import services
from apps.tenants.scopes import ALL_SCOPES
from apps.tenants.selectors import tenant_by_slug
from baplatform.errors import PlatformError


class Command(BaseCommand):
    help = "Create an API token for a tenant and print it once (only its hash is stored)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", required=True, help="tenant slug")
        parser.add_argument(
            "--scopes", required=True, nargs="+", help=f"scopes, space or comma separated: {' '.join(ALL_SCOPES)}"
        )
        parser.add_argument("--name", default="cli")
        parser.add_argument("--days", type=int, default=None, help="lifetime in days (0 = never expires)")

    def handle(self, *args: Any, **opts: Any) -> None:
        tenant = tenant_by_slug(slug=opts["tenant"])
        if tenant is None:
            raise CommandError(f"Unknown tenant slug {opts['tenant']!r}; list tenants in the admin or create one.")
        scopes = [s for chunk in opts["scopes"] for s in chunk.split(",") if s]
        try:
            token, raw = services.token_create(
                tenant=tenant,
                name=opts["name"],
                scopes=scopes,
                expires_in_days=opts["days"],
                actor=Actor.command("create_token"),
            )
        except PlatformError as exc:
            raise CommandError(exc.message) from exc
        self.stderr.write(f"Token {token.prefix}… for {tenant.slug}, scopes {', '.join(token.scopes)}.")
        self.stderr.write("Copy it now: it is shown once and cannot be recovered.")
        self.stdout.write(raw)
