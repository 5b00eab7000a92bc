"""Real customer databases for the SQL-source tests: the same shop data in PostgreSQL, MariaDB/MySQL,
SQLite and a DuckDB reference file.

PostgreSQL gets a dedicated schema in the `test` database (Django's own test database is `test_test`,
so nothing collides); MySQL a dedicated database; SQLite a file in the tenant's folder. Everything is
dropped afterwards. An unreachable server skips its tests with the reason (CI starts both servers).
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import sqlite3
import struct
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import psycopg
import pymysql
import pytest

from apps.datasets.models import SqlSource
from apps.datasets.sources import services as source_services
from tests.support.requirements import missing

PG = {"host": "127.0.0.1", "port": 5432, "user": "postgres", "dbname": "test"}
MY = {"host": "127.0.0.1", "port": 3306, "user": "root", "password": ""}
REGIONS = ["华东", "华北", "华南", "西部", None]
PRODUCTS = ["A", "B", "c%_", "手机", None]
SECRET = "机密口令-42"


def order_rows(count: int = 80) -> list[tuple[Any, ...]]:
    """id, 地区, 产品, 金额, 数量, 日期 — with NULLs, Chinese text and LIKE metacharacters."""
    rows = []
    for i in range(count):
        k = (i * 7919 + 104729) % 1000
        amount = None if k % 11 == 0 else round((k % 97) * 1.25 - 20, 2)
        quantity = None if k % 13 == 0 else k % 17
        day = None if k % 19 == 0 else dt.date(2024, 1, 1) + dt.timedelta(days=(k * 3) % 730)
        rows.append((i + 1, REGIONS[k % 5], PRODUCTS[(k // 5) % 5], amount, quantity, day))
    return rows


ORDERS = order_rows()
NUMBERS = list(range(1, 301))

# One DDL for every engine (MySQL reads the double quotes with ANSI_QUOTES); SQLite stores DECIMAL as REAL.
CREATE = [
    'CREATE TABLE "订单" (id INTEGER, "地区" VARCHAR(20), "产品" VARCHAR(20), "金额" DECIMAL(12,2), '
    '"数量" INTEGER, "日期" DATE)',
    'CREATE TABLE "机密" (id INTEGER, "口令" VARCHAR(50))',
    'CREATE TABLE "数字" (n INTEGER)',
]
INSERT = [
    ('INSERT INTO "订单" VALUES (%s, %s, %s, %s, %s, %s)', ORDERS),
    ('INSERT INTO "机密" VALUES (%s, %s)', [(1, SECRET)]),
    ('INSERT INTO "数字" VALUES (%s)', [(n,) for n in NUMBERS]),
]


def fill(cursor: Any, mark: str = "%s") -> None:
    for statement in CREATE:
        cursor.execute(statement)
    for statement, rows in INSERT:
        cursor.executemany(statement.replace("%s", mark), rows)


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    try:
        conn = psycopg.connect(**PG, autocommit=True, connect_timeout=5)
    except psycopg.Error as exc:
        missing(f"PostgreSQL is not reachable at 127.0.0.1:5432 ({exc}); .ci/services starts it")
    schema = f"ba_src_{uuid.uuid4().hex[:10]}"
    with conn, conn.cursor() as cur:
        cur.execute(f'CREATE SCHEMA "{schema}"')
        cur.execute(f'SET search_path TO "{schema}"')
        fill(cur)
    try:
        yield schema
    finally:
        # A fresh connection: the server may have been restarted meanwhile (tests/ops stop it on purpose).
        with psycopg.connect(**PG, autocommit=True, connect_timeout=10) as cleanup:
            cleanup.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(scope="session")
def mysql_database() -> Iterator[str]:
    try:
        conn = pymysql.connect(**MY, autocommit=True, charset="utf8mb4", connect_timeout=5)
    except pymysql.Error as exc:
        missing(f"MySQL/MariaDB is not reachable at 127.0.0.1:3306 ({exc}); .ci/services starts it")
    database = f"ba_src_{uuid.uuid4().hex[:10]}"
    with conn.cursor() as cur:
        cur.execute(f"CREATE DATABASE `{database}` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
        cur.execute(f"USE `{database}`")
        cur.execute("SET SESSION sql_mode = 'ANSI_QUOTES'")
        fill(cur)
    try:
        yield database
    finally:
        with conn.cursor() as cur:
            cur.execute(f"DROP DATABASE `{database}`")
        conn.close()


def make_sqlite(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    fill(conn.cursor(), "?")
    conn.commit()
    conn.close()
    return path


@pytest.fixture(scope="session")
def duck_reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same orders in a DuckDB file: what file datasets would answer."""
    path = tmp_path_factory.mktemp("duck") / "orders.duckdb"
    conn = duckdb.connect(str(path))
    fill(conn.cursor(), "?")
    conn.close()
    return path


@dataclass
class Customer:
    """A tenant's registered source, plus a direct line to the same database for checking its data."""

    engine: str
    source: SqlSource
    fields: dict[str, Any]
    location: dict[str, Any]

    def fingerprint(self) -> tuple[Any, ...]:
        """Rows, total amount and tables, read without the platform's code."""
        with self.direct() as cur:
            cur.execute('SELECT COUNT(*), SUM("金额") FROM "订单"')
            count, total = cur.fetchone()
            if self.engine == "sqlite":
                cur.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            else:
                cur.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                    (self.location["namespace"],),
                )
            names = sorted(r[0] for r in cur.fetchall())
        return count, round(float(total), 2), tuple(names)

    @contextmanager
    def direct(self) -> Iterator[Any]:
        if self.engine == "postgresql":
            with closing(psycopg.connect(**PG, autocommit=True)) as conn, conn.cursor() as cur:
                cur.execute(f'SET search_path TO "{self.location["namespace"]}"')
                yield cur
        elif self.engine == "mysql":
            params = {**MY, "database": self.location["namespace"], "charset": "utf8mb4"}
            with closing(pymysql.connect(**params)) as conn, conn.cursor() as cur:
                cur.execute("SET SESSION sql_mode = 'ANSI_QUOTES'")
                yield cur
        else:
            with closing(sqlite3.connect(self.location["path"])) as conn:
                yield conn.cursor()


def connection_fields(engine: str, request: pytest.FixtureRequest, tenant: Any, folder: Path) -> dict[str, Any]:
    if engine == "postgresql":
        schema = request.getfixturevalue("pg_schema")
        return {"host": PG["host"], "port": PG["port"], "database": "test", "schema": schema, "username": "postgres"}
    if engine == "mysql":
        database = request.getfixturevalue("mysql_database")
        return {"host": MY["host"], "port": MY["port"], "database": database, "username": "root"}
    make_sqlite(folder / tenant.slug / "shop.db")
    return {"database": "shop.db"}


def register(engine: str, tenant: Any, fields: dict[str, Any], **extra: Any) -> SqlSource:
    name = extra.pop("name", f"{engine} shop")
    return source_services.source_create(tenant=tenant, name=name, kind=engine, **fields, **extra)


def namespace(engine: str, fields: dict[str, Any], folder: Path, tenant: Any) -> dict[str, Any]:
    if engine == "sqlite":
        return {"namespace": "main", "path": os.fspath(folder / tenant.slug / "shop.db")}
    return {"namespace": fields["schema"] if engine == "postgresql" else fields["database"]}


@dataclass
class FakeServer:
    """A local TCP port for the connection tests: says `banner` (if any) to each client, keeps the
    first bytes each client sends, and closes. `closed()` is a port nothing listens on."""

    port: int
    received: list[bytes]
    accepted: threading.Event


@contextmanager
def fake_server(banner: bytes = b"", reply: Callable[[bytes], bytes] | None = None) -> Iterator[FakeServer]:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    server = FakeServer(port=listener.getsockname()[1], received=[], accepted=threading.Event())
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _address = listener.accept()
            except OSError:
                continue
            server.accepted.set()
            with conn:
                conn.settimeout(2)
                try:
                    if banner:
                        conn.sendall(banner)
                    data = conn.recv(4096)
                    server.received.append(data)
                    if reply is not None and data:
                        conn.sendall(reply(data))
                        server.received.append(conn.recv(4096))
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return int(probe.getsockname()[1])


def mysql_greeting(capabilities: int) -> bytes:
    """A MySQL protocol-10 server greeting offering `capabilities` (enough for a client to answer it)."""
    body = (
        b"\x0a"
        + b"5.7.0-fake\x00"
        + struct.pack("<I", 7)
        + b"abcdefgh\x00"
        + struct.pack("<H", capabilities & 0xFFFF)
        + b"\x21"
        + struct.pack("<H", 2)
        + struct.pack("<H", capabilities >> 16)
        + b"\x15"
        + b"\x00" * 10
        + b"ijklmnopqrst\x00"
        + b"mysql_native_password\x00"
    )
    return struct.pack("<I", len(body))[:3] + b"\x00" + body
