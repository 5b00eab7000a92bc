"""Writes for SQL sources: register, change, delete and re-test a tenant's database connection.

A connection is tested before anything is saved: a failing test is a clear error and no row.
The password is encrypted at rest (crypto.py) and never returned; SQLite files must sit in the
tenant's folder under SQLITE_SOURCES_ROOT (sqlite_files.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.audit.changes import Actor, change_record
from apps.audit.models import ChangeAction
from apps.datasets.errors import SourceFailure
from apps.datasets.message_parts import closest
from apps.datasets.models import SourceKind, SqlSource
from apps.datasets.sources import crypto
from apps.datasets.sources.connection_limits import connection_test_take
from apps.datasets.sources.connectors import DEFAULT_PORTS
from apps.datasets.sources.queries import ConnectionReport, connection_check
from apps.datasets.sources.sqlite_files import relative_name
from apps.tenants.models import Tenant
from baplatform.errors import Conflict, InvalidInput

MAX_ALLOWED_TABLES = 1000
_CONNECTION_FIELDS = ("host", "port", "database", "schema", "username", "password_encrypted")
# Where the stored password is sent: changing any of these needs the password again.
_DESTINATION_FIELDS = ("host", "port", "database", "username")


def _text(value: str | None, label: str, *, required: bool = False, limit: int = 255) -> str:
    """`label` names the field as the API does (host, database...); it stays as it is in every language."""
    text = (value or "").strip()
    if required and not text:
        raise InvalidInput(_("%(field)s is required") % {"field": label}, code="invalid_source")
    if len(text) > limit or "\x00" in text:
        raise InvalidInput(
            _("%(field)s must be at most %(limit)s printable characters") % {"field": label, "limit": limit},
            code="invalid_source",
        )
    return text


def _tables(tables: list[str] | None) -> list[str]:
    if tables is None:
        return []
    if not isinstance(tables, list) or len(tables) > MAX_ALLOWED_TABLES:
        raise InvalidInput(
            _("tables must be a list of at most %(max)s names") % {"max": MAX_ALLOWED_TABLES}, code="invalid_source"
        )
    names = [_text(t if isinstance(t, str) else None, _("each table name"), required=True) for t in tables]
    return list(dict.fromkeys(names))


def _check_fields(source: SqlSource) -> None:
    """Normalise and check the connection fields for the source's kind."""
    if source.kind not in SourceKind.values:
        raise InvalidInput(
            _("kind must be one of: %(kinds)s") % {"kinds": ", ".join(SourceKind.values)}, code="invalid_source"
        )
    source.name = _text(source.name, "name", required=True, limit=200)
    if source.kind == SourceKind.SQLITE:
        if source.host or source.port or source.username or source.password_encrypted or source.schema:
            raise InvalidInput(
                _(
                    "a SQLite source takes only 'database' (the file name); host, port, user, password and "
                    "schema do not apply"
                ),
                code="invalid_source",
            )
        source.database = relative_name(source.tenant, source.database)
        return
    source.host = _text(source.host, "host", required=True)
    source.database = _text(source.database, "database", required=True)
    source.username = _text(source.username, "username", required=True)
    source.schema = _text(source.schema, "schema")
    if source.kind == SourceKind.MYSQL and source.schema:
        raise InvalidInput(
            _("schema applies to PostgreSQL sources only; for MySQL give the database"), code="invalid_source"
        )
    port = source.port or DEFAULT_PORTS[SourceKind(source.kind)]
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise InvalidInput(_("port must be a number from 1 to 65535"), code="invalid_source")
    source.port = port


def _verify(source: SqlSource) -> ConnectionReport:
    """Connect and check the allow-list; InvalidInput (nothing saved) when either fails."""
    connection_test_take(tenant=source.tenant)
    try:
        report = connection_check(source)
    except SourceFailure as exc:
        raise InvalidInput(
            _("the connection test failed: %(reason)s") % {"reason": exc.message}, code="connection_failed"
        ) from None
    missing = [t for t in source.tables if t not in report.tables]
    if missing:
        raise InvalidInput(
            _("table '%(table)s' does not exist in this database%(hint)s")
            % {"table": missing[0], "hint": closest(missing[0], report.tables)},
            code="unknown_table",
        )
    source.tested_at = timezone.now()
    return report


# What the audit trail keeps of a source: never the password (only that it changed).
_AUDITED_FIELDS = ("name", "kind", "host", "port", "database", "schema", "username", "tables")


def _audited(source: SqlSource) -> dict[str, Any]:
    return {f: getattr(source, f) for f in _AUDITED_FIELDS}


def _recorder(
    action: ChangeAction, actor: Actor | None, before: dict[str, Any] | None = None, *, password_changed: bool = False
) -> Callable[[SqlSource], None]:
    def record(source: SqlSource) -> None:
        secrets = ["password"] if password_changed else []
        change_record(
            tenant=source.tenant,
            actor=actor,
            action=action,
            target_id=source.pk,
            target=source.name,
            before=before,
            after=None if action == ChangeAction.SOURCE_DELETE else _audited(source),
            secrets_changed=secrets,
        )

    return record


def _require_password_for_new_destination(source: SqlSource, before: dict[str, Any], password: str | None) -> None:
    """The stored password only ever goes where it was given for: a new host, port, database or user
    name needs it again (otherwise anyone allowed to edit the source could have it sent to their server)."""
    moved = [field for field in _DESTINATION_FIELDS if getattr(source, field) != before[field]]
    if moved and password is None and before["password_encrypted"]:
        raise InvalidInput(
            _(
                "changing %(fields)s needs the password again: send it with the change (the stored password "
                "is never sent to another server, database or user)"
            )
            % {"fields": ", ".join(moved)},
            code="password_required",
        )


def _save(source: SqlSource, record: Callable[[SqlSource], None]) -> SqlSource:
    duplicate = SqlSource.objects.for_tenant(source.tenant).filter(name=source.name).exclude(pk=source.pk).exists()
    taken = _("a source named '%(name)s' already exists") % {"name": source.name}
    if duplicate:
        raise Conflict(taken, code="duplicate_source")
    try:
        with transaction.atomic():
            source.save()
            record(source)
    except IntegrityError:
        raise Conflict(taken, code="duplicate_source") from None
    return source


def source_create(
    *,
    tenant: Tenant,
    name: str,
    kind: str,
    database: str,
    host: str = "",
    port: int | None = None,
    schema: str = "",
    username: str = "",
    password: str = "",
    tables: list[str] | None = None,
    created_by: Any = None,
    actor: Actor | None = None,
) -> SqlSource:
    """Register a source after a successful connection test; a failing test saves nothing."""
    source = SqlSource(
        tenant=tenant,
        name=name,
        kind=kind,
        host=host or "",
        port=port,
        database=database or "",
        schema=schema or "",
        username=username or "",
        password_encrypted=crypto.encrypt(password or ""),
        tables=_tables(tables),
        created_by=created_by if getattr(created_by, "pk", None) else None,
    )
    _check_fields(source)
    _verify(source)
    return _save(source, _recorder(ChangeAction.SOURCE_CREATE, actor, password_changed=bool(password)))


def source_update(
    *,
    source: SqlSource,
    name: str | None = None,
    host: str | None = None,
    port: int | None = None,
    database: str | None = None,
    schema: str | None = None,
    username: str | None = None,
    password: str | None = None,
    tables: list[str] | None = None,
    actor: Actor | None = None,
) -> SqlSource:
    """Change a source (None = unchanged; password '' clears it). Connection changes are re-tested first;
    a new host, port, database or user name needs the password again (password_required)."""
    before = {f: getattr(source, f) for f in (*_CONNECTION_FIELDS, "tables")}
    audited_before = _audited(source)
    changes: dict[str, Any] = {"name": name, "host": host, "port": port, "database": database, "schema": schema}
    changes["username"] = username
    for field, value in changes.items():
        if value is not None:
            setattr(source, field, value)
    if password is not None:
        source.password_encrypted = crypto.encrypt(password)
    if tables is not None:
        source.tables = _tables(tables)
    try:
        _check_fields(source)
        _require_password_for_new_destination(source, before, password)
        if any(getattr(source, f) != value for f, value in before.items()) or password is not None:
            _verify(source)
        record = _recorder(ChangeAction.SOURCE_UPDATE, actor, audited_before, password_changed=password is not None)
        return _save(source, record)
    except BaseException:
        source.refresh_from_db()  # the caller's object shows what is stored, not the refused change
        raise


@transaction.atomic
def source_delete(*, source: SqlSource, actor: Actor | None = None) -> None:
    _recorder(ChangeAction.SOURCE_DELETE, actor, _audited(source))(source)
    source.delete()


def source_test(*, source: SqlSource) -> ConnectionReport:
    """Test the stored connection again; records when it last succeeded. SourceFailure when it fails,
    TooManyConnectionTests past the tenant's limit."""
    connection_test_take(tenant=source.tenant)
    report = connection_check(source)
    source.tested_at = timezone.now()
    source.save(update_fields=["tested_at"])
    return report
