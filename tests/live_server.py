"""Real daphne processes for tests: started against the test database, stopped (and their log shown) after."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_SECONDS = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def free_port_run(count: int) -> int:
    """The first of `count` consecutive free loopback ports (deploy/run numbers its backends so): the port after
    a free one may be any connection's own."""
    for _ in range(100):
        first = free_port()
        try:
            for offset in range(count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", first + offset))
            return first
        except OSError:
            continue
    raise RuntimeError(f"no run of {count} free loopback ports found")


def shared_database_url() -> str:
    """The test database as a DATABASE_URL, so a server process sees what the test wrote (and committed)."""
    from django.db import connection

    params = connection.settings_dict
    if connection.vendor == "sqlite":
        name = params["NAME"]
        if "memory" in str(name) or not name:
            pytest.skip("the in-memory SQLite test database cannot be shared with a server process")
        return f"sqlite:///{name}"
    password = f":{params['PASSWORD']}" if params.get("PASSWORD") else ""
    return f"postgres://{params['USER']}{password}@{params['HOST']}:{params['PORT']}/{params['NAME']}"


def server_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The server's environment: the test database, the test's data directory and the offline planner."""
    return {
        **os.environ,
        "BA_DATA_DIR": str(data_dir),
        "DATABASE_URL": shared_database_url(),
        "OPENAI_API_KEY": "",  # set (empty) so a key in .env cannot send the test to a real model
        "TAVILY_API_KEY": "",
        "TASK_QUEUE": "local",  # the server executes its runs itself unless a test starts Celery workers
        **extra,
    }


def serve_command(port: int) -> list[str]:
    """The command line that serves the platform (through baplatform.serve) on a loopback port."""
    return [sys.executable, "-m", "baplatform.serve", "-b", "127.0.0.1", "-p", str(port), "baplatform.asgi:application"]


@contextmanager
def daphne(env: dict[str, str], log_path: Path) -> Iterator[str]:
    """A daphne process serving baplatform.asgi on a free loopback port; yields "127.0.0.1:PORT"."""
    port = free_port()
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            serve_command(port),
            cwd=ROOT,
            env=env,
            stdout=log,  # a file, not a pipe: a pipe nobody reads would block a chatty server
            stderr=subprocess.STDOUT,
        )
    address = f"127.0.0.1:{port}"
    try:
        _wait_until_serving(proc, address, log_path)
        yield address
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def _wait_until_serving(proc: subprocess.Popen[bytes], address: str, log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://{address}/accounts/login/", timeout=1)
            return
        except httpx.TransportError:
            if proc.poll() is not None:
                raise RuntimeError(log_path.read_text(errors="replace")) from None
            time.sleep(0.2)
    raise RuntimeError(f"daphne did not answer within {START_TIMEOUT_SECONDS}s:\n{log_path.read_text()}")


@contextmanager
def daphne_process(env: dict[str, str], log_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Like daphne(), but also yields the process, for tests that stop it themselves (SIGTERM, SIGKILL)."""
    port = free_port()
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            serve_command(port),
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    address = f"127.0.0.1:{port}"
    try:
        _wait_until_serving(proc, address, log_path)
        yield address, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


@contextmanager
def silent_model_endpoint() -> Iterator[str]:
    """An OpenAI-compatible base URL that accepts requests and never answers: a model that is thinking.

    Runs against it stay under way (after run.started) until LLM_TIMEOUT_SECONDS, so a test can stop
    the server process in the middle of a run.
    """
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held: list[socket.socket] = []
    stopping = threading.Event()

    def accept() -> None:
        while not stopping.is_set():
            try:
                conn, _addr = listener.accept()
            except OSError:
                return
            held.append(conn)  # read nothing back, answer nothing

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    finally:
        stopping.set()
        listener.close()
        for conn in held:
            conn.close()
