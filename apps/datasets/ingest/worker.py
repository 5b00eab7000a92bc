"""Ingestion in a child process, so a reader's crash, a hang or runaway memory stops that process, never the server.

The child (forked from a small fork server that has Django set up and the readers imported, see
fork_server.py, so starting one is cheap) loads the file and profiles it; it touches no database and
gets everything it needs in the job. The parent relays its progress, keeps the version's heartbeat,
and stops it at the time limit. A child that dies (a segfault inside a reader, killed for memory) or
runs out of time is reported as an `IngestDied`, and the partial files it left are removed.

As with any multiprocessing child, the process's main script is imported in the child (as `__mp_main__`):
entry points keep their work under `if __name__ == "__main__":` (manage.py, daphne and baplatform.serve do).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
from django.utils import translation
from django.utils.translation import gettext as _

from apps.datasets.errors import IngestRejected, SourceFailure
from apps.datasets.ingest.columns import IngestReport
from apps.datasets.ingest.load import ingest_file
from apps.datasets.ingest.profile import TableProfile, profile_table

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5.0
_POLL_SECONDS = 0.5
_context_lock = threading.Lock()
_context: Any = None


@dataclass(frozen=True)
class IngestJob:
    src: str
    dest: str
    fmt: str
    sheet: str | None
    header_row: int
    max_rows: int
    max_columns: int
    max_line_bytes: int
    timeout_s: float
    language: str


@dataclass
class IngestResult:
    report: dict[str, Any]
    profile: dict[str, Any]


class Refusal(NamedTuple):
    """A child's IngestRejected, already in the uploader's language."""

    code: str
    message: str


class IngestDied(Exception):
    """The child process stopped without an answer (crash, memory) or ran out of time."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _fork_context() -> Any:
    """The fork-server context, with the readers imported once in the server (started on first use)."""
    global _context
    with _context_lock:
        if _context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["apps.datasets.ingest.fork_server"])
            _context = context
        return _context


def run_isolated(
    job: IngestJob,
    *,
    progress: Callable[[float, str], None],
    heartbeat: Callable[[], None],
    target: Callable[[Connection, IngestJob], None] | None = None,
) -> IngestResult:
    """Ingest and profile in a child process; IngestRejected (the file's fault) or IngestDied, else the result.

    `target` is what the child runs (child_main unless a test stands in for a reader that crashes or hangs).
    """
    context = _fork_context()
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=target or child_main, args=(sender, job), name="ingest", daemon=True)
    child.start()
    sender.close()
    try:
        return _supervise(child, receiver, job, progress, heartbeat)
    finally:
        receiver.close()
        if child.is_alive():
            child.kill()
        child.join(5)
        _remove_leftovers(Path(job.dest), child.pid)


def _supervise(
    child: Any,
    receiver: Connection,
    job: IngestJob,
    progress: Callable[[float, str], None],
    heartbeat: Callable[[], None],
) -> IngestResult:
    deadline = time.monotonic() + job.timeout_s
    beat = time.monotonic()
    while True:
        now = time.monotonic()
        if now >= deadline:
            log.warning("ingest child %s ran past %s s and was stopped", child.pid, job.timeout_s)
            raise IngestDied("ingest_timeout", timed_out_message(job.timeout_s))
        if now - beat >= HEARTBEAT_SECONDS:
            heartbeat()
            beat = now
        if not receiver.poll(min(_POLL_SECONDS, deadline - now)):
            if not child.is_alive() and not receiver.poll(0):
                break
            continue
        try:
            message = receiver.recv()
        except (EOFError, OSError):
            break
        kind = message[0]
        if kind == "progress":
            progress(message[1], message[2])
        elif kind == "done":
            return IngestResult(report=message[1], profile=message[2])
        elif kind == "rejected":
            refusal = Refusal(code=message[1], message=message[2])
            raise IngestRejected(refusal.message, code=refusal.code)  # translated in the child
    child.join(5)
    log.error("ingest child %s stopped without an answer (exit code %s)", child.pid, child.exitcode)
    raise IngestDied("ingest_crashed", crashed_message())


def crashed_message() -> str:
    return _(
        "reading the file stopped the reader (the file may be too wide, too large for memory, or malformed); "
        "check it, or split it into smaller files, and upload it again"
    )


def timed_out_message(seconds: float) -> str:
    return _(
        "reading the file took longer than %(seconds)s s and was stopped; split it into smaller files or "
        "remove columns you do not need, and upload it again"
    ) % {"seconds": f"{seconds:g}"}


def _remove_leftovers(dest: Path, pid: int | None) -> None:
    """The child's partial database and transcoded copy, when it could not remove them itself."""
    if pid is None:
        return
    for pattern in (f".partial-{pid}-*", f".transcoded-{pid}-*"):
        for leftover in dest.parent.glob(pattern):
            leftover.unlink(missing_ok=True)


def child_main(sender: Connection, job: IngestJob) -> None:
    """The child: load and profile, then send ("done", report, profile) or ("rejected", code, message)."""
    with translation.override(job.language):
        try:
            report, profile = _load_and_profile(job, lambda fraction, stage: sender.send(("progress", fraction, stage)))
            sender.send(("done", asdict(report), profile.model_dump(mode="json")))
        except IngestRejected as exc:
            sender.send(("rejected", exc.code, exc.message))
        except (duckdb.OutOfMemoryException, MemoryError):
            sender.send(("rejected", "too_large_for_memory", too_large_message()))
        except SourceFailure:  # profiling: the engine's message would carry the driver's text
            log.exception("profiling in ingest child %s failed", os.getpid())
            sender.send(("rejected", "profile_failed", profile_failed_message()))
        except Exception:
            log.exception("ingest child %s failed", os.getpid())
            sender.send(("rejected", "ingest_failed", failed_message()))
        finally:
            sender.close()


def _load_and_profile(job: IngestJob, progress: Callable[[float, str], None]) -> tuple[IngestReport, TableProfile]:
    dest = Path(job.dest)
    report = ingest_file(
        Path(job.src),
        dest,
        fmt=job.fmt,
        sheet=job.sheet,
        header_row=job.header_row,
        max_rows=job.max_rows,
        max_columns=job.max_columns,
        max_line_bytes=job.max_line_bytes,
        progress=progress,
    )
    profile = profile_table(dest)
    for column in profile.columns:
        column.blank_marks = report.blank_marks.get(column.name, [])
        column.written_as = (
            "place" if column.name in report.places else "chart" if column.name in report.charts else None
        )
    return report, profile


def too_large_message() -> str:
    return _(
        "the file needs more memory to read than an upload may use; split it into smaller files, or remove "
        "columns you do not need, and upload it again"
    )


def profile_failed_message() -> str:
    return _("the file was read, but its columns could not be summarised; check the file and upload it again")


def failed_message() -> str:
    return _(
        "the file could not be read because of an error on our side (it has been logged); upload it again, and "
        "if it fails again, contact support"
    )
