"""Servers and scratch resources for bench_ws: a PostgreSQL database, daphne processes, deploy/run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.live_server import free_port, free_port_run, serve_command

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def scratch_database(server_url: str | None) -> Iterator[str | None]:
    """A new PostgreSQL database on the given server, dropped afterwards; None: the SQLite file. Django's options
    in the URL's query (?conn_max_age=60) are kept on the scratch database's URL."""
    if not server_url:
        yield None
        return
    import psycopg
    from psycopg import sql

    name = f"bench_ws_{uuid.uuid4().hex[:10]}"
    address, _mark, options = server_url.partition("?")
    base, _slash, _db = address.rpartition("/")
    with psycopg.connect(address, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield f"{base}/{name}" + (f"?{options}" if options else "")
    finally:
        with psycopg.connect(address, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def wait_http(url: str, proc: subprocess.Popen[bytes], log_path: Path, seconds: float = 60) -> None:
    """Until `url` answers (any status); the process's log if it exits or the time runs out."""
    import httpx

    deadline = time.monotonic() + seconds
    while True:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.TransportError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{url} did not answer:\n{log_path.read_text(errors='replace')[-4000:]}") from None
            time.sleep(0.2)


@contextmanager
def daphne(port: int, log_path: Path) -> Iterator[int]:
    """A daphne process on 127.0.0.1:port with this process's environment; yields its pid."""
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            serve_command(port),
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_http(f"http://127.0.0.1:{port}/accounts/login/", proc, log_path)
        yield proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@dataclass
class Deployment:
    port: int  # nginx's
    state_dir: Path  # deploy/run's pids, logs and nginx.conf

    def pids(self, kind: str) -> list[int]:
        files = sorted(self.state_dir.glob(f"{kind}-*.pid"), key=lambda p: int(p.stem.split("-")[1]))
        return [int(f.read_text().strip()) for f in files]

    def daphne_pids(self) -> list[int]:
        return self.pids("daphne")

    def worker_pids(self) -> list[int]:
        """The Celery workers' main processes (their pool processes execute the runs)."""
        return self.pids("worker")


@contextmanager
def deployment(processes: int, log_path: Path, workers: int = 1) -> Iterator[Deployment]:
    """deploy/run (nginx in front of `processes` daphne processes, `workers` Celery workers) with this process's
    environment.

    Needs DATABASE_URL (PostgreSQL), REDIS_URL and BA_DATA_DIR in the environment; stopped with TERM,
    which makes deploy/run stop nginx and every daphne process and worker it started.
    """
    port, backend = free_port(), free_port_run(processes)
    state_dir = Path(os.environ["BA_DATA_DIR"]) / "deploy"
    env = {
        **os.environ,
        "PYTHON": sys.executable,
        "DEPLOY_PORT": str(port),
        "DEPLOY_BACKEND_PORT": str(backend),
        "DEPLOY_STATE_DIR": str(state_dir),
    }
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [str(ROOT / "deploy" / "run"), "--processes", str(processes), "--workers", str(workers)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120
        while b"deploy: serving" not in log_path.read_bytes():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"deploy/run did not start:\n{log_path.read_text(errors='replace')[-4000:]}")
            time.sleep(0.2)
        yield Deployment(port=port, state_dir=state_dir)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=90)  # workers finish their runs first
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def peak_memory_mb(pid: int) -> float:
    """VmHWM: the process's peak resident memory since it started."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")
