"""Concurrent WebSocket clients against real daphne processes, with the offline planner answering.

A fresh data directory is migrated and seeded (demo tenant and datasets, one conversation per client,
a token); N clients connect, then all ask at once (questions vary), each on its own conversation.
Measured per round: time from sending the question to `ask.accepted` and to `run.started`, and to the
final event; runs per second; errors; events lost or repeated (every seq 1..last exactly once); the
server's peak memory (VmHWM since it started; the larger of two). Lost and repeated events are
counted against the run's last seq as the server stored it. Target (docs/DESIGN.md section 8): first
WebSocket event within 100 ms of the question.

--resume: a second round per N in which each client drops its socket after run.started and resumes
on a new one. --redis: two processes sharing REDIS_URL; client i asks on process i % 2 and a watcher
socket on the other process must also see every event of the run once (resumes go to the other
process too). --database-url postgres://USER@HOST:PORT/DB: a scratch database is created on that
server (and dropped afterwards) instead of the SQLite file in the temporary data directory. --nginx (needs
--database-url and REDIS_URL): after the rounds on one daphne process, the same rounds through nginx in
front of two daphne processes started by deploy/run, whose Celery workers execute the runs (once per
--workers count, default 1 then 2); memory is each daphne process's VmHWM. --kill (with --nginx): one more
round per worker count, in which a worker's pool process executing a run is killed (SIGKILL) mid-round; the
killed run must end with run.failed (counted in errors) and every other run be answered, nothing lost.
Direct daphne processes execute their runs themselves (TASK_QUEUE=local). One tenant asks every question, so its
bound of concurrent runs and its ask rate limits are lifted, to measure the workers, not the limits.

    .venv/bin/python -m benchmarks.bench_ws [--clients 10 25] [--resume] [--redis] [--nginx [--workers 1 2] [--kill]]
        [--database-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.common import report, setup_django
from benchmarks.ws_support import daphne, deployment, free_port, peak_memory_mb, scratch_database

QUESTIONS = [
    "各账号的销售额是多少？",
    "各地区的订单数是多少？",
    "各产品的退货率是多少？",
    "每月销售额趋势如何？",
    "哪个产品销售额最高？",
]
FINAL = ("run.finished", "run.failed")
RUN_TIMEOUT_SECONDS = 60.0


@dataclass
class Outcome:
    trace_id: str | None = None
    accepted: float | None = None  # seconds after the question was sent
    started: float | None = None
    finished: float | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    watched: list[dict[str, Any]] | None = None  # --redis: what the socket on the other process saw
    error: str | None = None


# --- setup: a fresh database and data directory, seeded through the services ---------------------------


def seed(conversations: int) -> tuple[str, list[int]]:
    """Migrate, seed the demo tenant and datasets; a token and `conversations` conversations about the orders."""
    from django.core.management import call_command
    from django.db import connections

    from apps.conversations.services import conversation_create
    from apps.datasets.demo import ORDERS, demo_datasets_seed
    from apps.datasets.selectors import dataset_get
    from apps.tenants.context import context_for_token
    from apps.tenants.demo import demo_seed
    from apps.tenants.scopes import CONVERSATIONS_READ, CONVERSATIONS_WRITE
    from apps.tenants.services import token_create

    call_command("migrate", verbosity=0)
    tenant = demo_seed().tenant
    demo_datasets_seed(tenant=tenant)
    orders = dataset_get(tenant=tenant, key=ORDERS)
    token, raw = token_create(tenant=tenant, name="bench-ws", scopes=[CONVERSATIONS_READ, CONVERSATIONS_WRITE])
    ctx = context_for_token(token)
    ids = [
        conversation_create(tenant=tenant, ctx=ctx, dataset=orders, title=f"bench {i}").pk for i in range(conversations)
    ]
    connections.close_all()
    return raw, ids


# --- clients ----------------------------------------------------------------------------------------------


async def open_socket(port: int, token: str, conversation_id: int) -> Any:
    from websockets.asyncio.client import connect

    ws = await connect(
        f"ws://127.0.0.1:{port}/ws/conversations/{conversation_id}/",
        additional_headers={"Authorization": f"Bearer {token}"},
        open_timeout=60,
        max_size=None,
    )
    ready = json.loads(await ws.recv())
    if ready.get("type") != "conversation.ready":
        raise RuntimeError(f"refused: {ready}")
    return ws


def complete(events: list[dict[str, Any]]) -> bool:
    """The final event and every seq before it are in (they may come out of order after a resume)."""
    last = next((e["seq"] for e in events if e["type"] in FINAL), None)
    return last is not None and len({e["seq"] for e in events}) >= last


async def collect(
    ws: Any, events: list[dict[str, Any]], out: Outcome | None = None, t0: float = 0.0, until: Any = complete
) -> None:
    """Receive into `events` until `until(events)` (the run is complete); with `out`, note the milestones."""
    while not until(events):
        message = json.loads(await ws.recv())
        now = time.perf_counter() - t0
        kind = message.get("type")
        if kind == "error":
            raise RuntimeError(f"error event: {message.get('code')}")
        if out is not None and kind == "ask.accepted":
            out.accepted, out.trace_id = now, message["trace_id"]
            continue
        if "seq" not in message:
            continue
        events.append(message)
        if out is not None and kind == "run.started" and out.started is None:
            out.started = now
        if out is not None and kind in FINAL:
            out.finished = now


@dataclass
class Client:
    """One client's sockets, connected before the questions go out; with --redis, a watcher on the other server."""

    conversation_id: int
    ws: Any = None
    watcher: Any = None
    watched: list[dict[str, Any]] = field(default_factory=list)
    watching: Any = None
    error: str | None = None


async def connect_client(ports: list[int], token: str, conversation_id: int) -> Client:
    client = Client(conversation_id)
    try:
        client.ws = await open_socket(ports[0], token, conversation_id)
        if len(ports) > 1:
            client.watcher = await open_socket(ports[-1], token, conversation_id)
            client.watching = asyncio.ensure_future(collect(client.watcher, client.watched))
    except Exception as exc:
        client.error = f"connect: {type(exc).__name__}: {exc}"[:200]
    return client


async def ask_and_follow(client: Client, ports: list[int], token: str, question: str, resume: bool) -> Outcome:
    out = Outcome(error=client.error)
    if client.error:
        return out
    ws = client.ws
    try:
        t0 = time.perf_counter()
        await ws.send(json.dumps({"type": "ask", "question": question}))
        if resume:  # drop the socket once the run is under way; resume on a new one (on the other server)
            await asyncio.wait_for(collect(ws, out.events, out, t0, until=bool), RUN_TIMEOUT_SECONDS)
            await ws.close()
            ws = await open_socket(ports[-1], token, client.conversation_id)
            trace_id, after = out.events[-1]["trace_id"], out.events[-1]["seq"]
            await ws.send(json.dumps({"type": "resume", "trace_id": trace_id, "after": after}))
        await asyncio.wait_for(collect(ws, out.events, out, t0), RUN_TIMEOUT_SECONDS)
        await ws.close()
    except Exception as exc:  # counted and reported, never hidden
        out.error = f"asking socket: {type(exc).__name__} {exc} (had seqs {seqs_of(out.events)})"[:300]
    if client.watching is not None:
        out.watched = client.watched
        try:
            await asyncio.wait_for(client.watching, RUN_TIMEOUT_SECONDS)
            await client.watcher.close()
        except Exception as exc:
            out.error = out.error or f"watching socket: {type(exc).__name__} {exc} (had {seqs_of(out.watched)})"[:300]
    return out


def seqs_of(events: list[dict[str, Any]]) -> list[int]:
    return sorted(e["seq"] for e in events)


async def round_of(
    ports: list[int], token: str, conversation_ids: list[int], resume: bool
) -> tuple[list[Outcome], float]:
    """Every client connects first; then all questions go out together. With two servers, client i asks on
    server i % 2 and watches (or resumes) on the other."""
    rotated = [ports[i % len(ports) :] + ports[: i % len(ports)] for i in range(len(conversation_ids))]
    clients = await asyncio.gather(*(connect_client(rotated[i], token, cid) for i, cid in enumerate(conversation_ids)))
    started = time.perf_counter()
    outcomes = await asyncio.gather(
        *(
            ask_and_follow(client, rotated[i], token, QUESTIONS[i % len(QUESTIONS)], resume)
            for i, client in enumerate(clients)
        )
    )
    return list(outcomes), time.perf_counter() - started


# --- figures ----------------------------------------------------------------------------------------------


def stream_faults(events: list[dict[str, Any]], last_seq: int) -> tuple[int, int]:
    """(lost, repeated) seqs of one socket's stream of a run, against the run's stored last seq."""
    seqs = [e["seq"] for e in events]
    return last_seq - len(set(seqs) & set(range(1, last_seq + 1))), len(seqs) - len(set(seqs))


async def stored_last_seqs(port: int, token: str, outcomes: list[Outcome]) -> dict[str, int]:
    """Each run's last seq as the server stored it (the truth a stream is checked against)."""
    import httpx

    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
        last = {}
        for out in outcomes:
            if out.trace_id:
                run = (await http.get(f"http://127.0.0.1:{port}/api/v1/runs/{out.trace_id}/")).json()
                last[out.trace_id] = run["last_seq"]
        return last


def errors_of(out: Outcome) -> list[str]:
    if out.error:
        return [out.error]
    final = next((e for e in out.events if e["type"] in FINAL), None)
    if final is None:
        return ["no final event"]
    status = final["data"].get("response", {}).get("status")
    return [] if status == "answered" else [f"{final['type']} ({status})"]


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def summarize(
    outcomes: list[Outcome], last_seqs: dict[str, int], wall: float, mode: str, memory: str
) -> dict[str, Any]:
    streams = [(o.events, o.trace_id) for o in outcomes] + [(o.watched, o.trace_id) for o in outcomes if o.watched]
    faults = [stream_faults(events, last_seqs[trace]) for events, trace in streams if trace in last_seqs]
    ms = [1000 * o.accepted for o in outcomes if o.accepted is not None]
    first = [1000 * o.started for o in outcomes if o.started is not None]
    final = [o.finished for o in outcomes if o.finished is not None]
    return {
        "clients": len(outcomes),
        "mode": mode,
        "accepted p50 ms": quantile(ms, 0.5),
        "accepted p95 ms": quantile(ms, 0.95),
        "run.started p50 ms": quantile(first, 0.5),
        "run.started p95 ms": quantile(first, 0.95),
        "answer p50 s": quantile(final, 0.5),
        "answer p95 s": quantile(final, 0.95),
        "runs/s": len(final) / wall,
        "errors": sum(1 for o in outcomes if errors_of(o)),
        "lost": sum(lost for lost, _ in faults),
        "repeated": sum(rep for _, rep in faults),
        "MB per process": memory,
    }


# --- main -------------------------------------------------------------------------------------------------


def configure(args: argparse.Namespace, data_dir: Path, database_url: str | None) -> None:
    """The environment this process and the servers share (set before Django reads it)."""
    shared = args.redis or args.nginx
    os.environ.update(
        {
            "BA_DATA_DIR": str(data_dir),
            "DATABASE_URL": database_url or f"sqlite:///{data_dir / 'db.sqlite3'}",
            "REDIS_URL": os.environ.get("REDIS_URL", "") if shared else "",
            "OPENAI_API_KEY": "",  # the offline planner answers
            "TAVILY_API_KEY": "",
            "TASK_QUEUE": "local",  # direct daphne processes run their own; deploy/run sets celery for its workers
            "PLAN_FREE_CONCURRENT_RUNS": "1000",
            "PLAN_TEAM_CONCURRENT_RUNS": "1000",
            "ASK_THROTTLE_RATE": "100000/min",  # one token asks every question
            "ASK_TENANT_THROTTLE_RATE": "100000/min",
            # Queues of this run's own: workers of another deployment on the same Redis never take its runs.
            "CELERY_QUEUE": f"{data_dir.name}-runs",
            "CELERY_INGEST_QUEUE": f"{data_dir.name}-ingest",
        }
    )
    if shared and not os.environ["REDIS_URL"]:
        raise SystemExit("--redis and --nginx need REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
    if args.nginx and not database_url:
        raise SystemExit("--nginx needs --database-url (deploy/run serves PostgreSQL only)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, nargs="+", default=[10, 25])
    parser.add_argument("--resume", action="store_true", help="also a round where every client drops and resumes")
    parser.add_argument("--redis", action="store_true", help="two server processes sharing REDIS_URL")
    parser.add_argument("--nginx", action="store_true", help="also the same load through deploy/run (nginx + 2)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="--nginx: Celery workers, per pass")
    parser.add_argument("--kill", action="store_true", help="--nginx: also a round with a worker killed mid-run")
    parser.add_argument("--database-url", help="a PostgreSQL server URL: a scratch database is made there")
    parser.add_argument("--keep", action="store_true", help="keep the data directory (server logs) afterwards")
    args = parser.parse_args()
    data_dir = Path(tempfile.mkdtemp(prefix="bench-ws-"))
    with ExitStack() as stack:
        if not args.keep:
            stack.callback(shutil.rmtree, data_dir, ignore_errors=True)
        configure(args, data_dir, stack.enter_context(scratch_database(args.database_url)))
        setup_django()
        logging.disable(logging.INFO)  # this process's seeding and HTTP lines would bury the table
        token, conversation_ids = seed(1 + max(args.clients))
        servers = 2 if args.redis else 1
        label = f"{servers} daphne" + (" (direct)" if args.nginx else "")
        with ExitStack() as direct:
            ports = [free_port() for _ in range(servers)]
            pids = [direct.enter_context(daphne(p, data_dir / f"daphne-{i}.log")) for i, p in enumerate(ports)]
            rows, cold = asyncio.run(run_rounds(args, label, ports, lambda: pids, token, conversation_ids))
        for workers in args.workers if args.nginx else []:  # the same load through deploy/run: nginx, 2 daphne
            with deployment(2, data_dir / f"deploy-run-{workers}.log", workers=workers) as deployed:
                label = f"nginx + 2 daphne + {workers} worker(s)"
                more, _cold = asyncio.run(
                    run_rounds(args, label, [deployed.port], deployed.daphne_pids, token, conversation_ids)
                )
                if args.kill:
                    more.append(asyncio.run(kill_round(label, deployed, token, conversation_ids, max(args.clients))))
            rows += more
    print(report(rows))
    database = "PostgreSQL" if args.database_url else "SQLite"
    layer = "Redis" if args.redis or args.nginx else "in-memory"
    print(
        f"{database}, {layer} channel layer; MB: each daphne process's VmHWM; "
        f"first run in a new server: {cold:.2f} s to its answer; target: first event within 100 ms"
    )
    if args.keep:
        print(f"data and server logs: {data_dir}")


async def run_rounds(
    args: argparse.Namespace,
    label: str,
    ports: list[int],
    pids: Callable[[], list[int]],
    token: str,
    conversation_ids: list[int],
) -> tuple[list[dict[str, Any]], float]:
    warm, _wall = await round_of(ports, token, conversation_ids[:1], resume=False)  # imports, caches
    if errors_of(warm[0]):
        raise SystemExit(f"the warm-up run failed: {errors_of(warm[0])}")
    rows = []
    modes = ["ask", "resume"] if args.resume else ["ask"]
    for clients in args.clients:
        for mode in modes:
            outcomes, wall = await round_of(ports, token, conversation_ids[1 : 1 + clients], resume=mode == "resume")
            for problem in sorted({p for o in outcomes for p in errors_of(o)}):
                print(f"  {label}, {clients} clients, {mode}: {problem}", file=sys.stderr)
            memory = " / ".join(f"{peak_memory_mb(pid):.0f}" for pid in pids())
            last_seqs = await stored_last_seqs(ports[0], token, outcomes)
            rows.append(summarize(outcomes, last_seqs, wall, f"{label}, {mode}", memory))
    return rows, warm[0].finished or float("nan")


async def kill_round(
    label: str, deployed: Any, token: str, conversation_ids: list[int], clients: int
) -> dict[str, Any]:
    """A round in which the pool process executing one of the runs is killed (SIGKILL) once runs are under way."""
    import signal

    from asgiref.sync import sync_to_async

    from apps.conversations.models import Run, RunStatus

    def victim() -> int | None:
        running = Run.objects.unscoped_for_admin().filter(status=RunStatus.RUNNING, last_seq__gte=1)
        worker = running.exclude(worker="").values_list("worker", flat=True).first()
        return int(worker.rsplit(":", 1)[1]) if worker else None

    ids = conversation_ids[1 : 1 + clients]
    round_task = asyncio.ensure_future(round_of([deployed.port], token, ids, resume=False))
    killed = None
    while killed is None and not round_task.done():
        pid = await sync_to_async(victim)()
        if pid is not None:
            os.kill(pid, signal.SIGKILL)
            killed = pid
        else:
            await asyncio.sleep(0.02)
    outcomes, wall = await round_task
    failed = [o for o in outcomes if errors_of(o)]
    for problem in sorted({p for o in failed for p in errors_of(o)}):
        print(f"  {label}, {clients} clients, kill -9 of pool process {killed}: {problem}", file=sys.stderr)
    memory = " / ".join(f"{peak_memory_mb(pid):.0f}" for pid in deployed.daphne_pids())
    last_seqs = await stored_last_seqs(deployed.port, token, outcomes)
    return summarize(outcomes, last_seqs, wall, f"{label}, kill -9 mid-run", memory)


if __name__ == "__main__":
    main()
