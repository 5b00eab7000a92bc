"""The WikiTableQuestions development sample, read from a folder given on the command line (questions.jsonl
and tables/*.csv); each table is uploaded once per run as a CSV dataset through the services.

Correct: for a `number` target, a number shown in the answer equals it (separators removed, 1e-6 relative),
and a list the answer says is empty (": none") equals 0; for a `cell` target, its text appears in the answer
(case-insensitive; as a whole word when it is made of letters and digits). Suggested questions, echoed
filters and list numbering are not part of the answer here.
"""

from __future__ import annotations

import json
import math
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from apps.agent.response import AskResponse
from apps.agent.tools import DataBinding
from apps.datasets import services
from apps.tenants.models import Tenant
from baplatform.errors import PlatformError
from benchmarks.accuracy.outcome import Item, Outcome, judged
from benchmarks.accuracy.timing import PlanTimes, ask
from tests.agent.golden.answer_text import body, numbers_in, shows_label

REL_TOL = 1e-6


@dataclass(frozen=True)
class Question:
    id: str
    table: str
    question: str
    answer: str
    kind: str


def load(folder: Path) -> list[Question]:
    with (folder / "questions.jsonl").open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [Question(r["id"], r["table"], r["question"], str(r["answer"]), r["kind"]) for r in rows]


def target_number(text: str) -> float | None:
    found = re.search(r"-?\d[\d,]*(?:\.\d+)?", text)
    return float(found.group(0).replace(",", "")) if found else None


def judge(question: Question, response: AskResponse) -> str:
    text = body(response.answer)
    if question.kind == "number":
        wanted = target_number(question.answer)
        if wanted is None:
            return f"target {question.answer!r} is not a number"
        if any(math.isclose(n.value, wanted, rel_tol=REL_TOL, abs_tol=1e-9) for n in numbers_in(text)):
            return ""
        if wanted == 0 and re.search(r":\s*none\b", text, re.IGNORECASE):
            return ""  # "other rows with the same Bronze as Germany: none" is how many: 0
        return f"no number equal to {question.answer}"
    target = " ".join(question.answer.split())
    if shows_label(" ".join(text.split()), target):
        return ""
    place = _ORDINAL.fullmatch(target)  # "14th": a place, which the data holds (and the answer shows) as 14
    if place and any(n.value == int(place.group(1)) for n in numbers_in(text)):
        return ""
    time = _seconds(target)  # "4:15.140" is the time the answer writes 4:15.14
    if time is not None and any(_seconds(t) == time for t in _TIME.findall(text)):
        return ""
    return f"{question.answer!r} not in the answer"


_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
_TIME = re.compile(r"\d+:\d{2}(?:\.\d+)?")


def _seconds(text: str) -> float | None:
    if not _TIME.fullmatch(text):
        return None
    minutes, seconds = text.split(":")
    return round(int(minutes) * 60 + float(seconds), 3)


class Tables:
    """Datasets per table file, uploaded on first use."""

    def __init__(self, tenant: Tenant, folder: Path) -> None:
        self.tenant, self.folder = tenant, folder
        self.bindings: dict[str, DataBinding | str] = {}
        self.ingest_seconds = 0.0

    def binding(self, table: str) -> DataBinding | str:
        """The table's binding, or why it could not be ingested."""
        if table not in self.bindings:
            self.bindings[table] = self._ingest(table)
        return self.bindings[table]

    def _ingest(self, table: str) -> DataBinding | str:
        started = time.perf_counter()
        path = self.folder / table
        content = path.read_bytes()
        try:
            upload = services.upload_receive(
                tenant=self.tenant, chunks=[content], original_name=path.name, size=len(content)
            )
            version = services.dataset_create(tenant=self.tenant, upload=upload, name=f"wtq {path.stem}", wait=True)
            return DataBinding.for_dataset(tenant=self.tenant, dataset=version.dataset)
        except PlatformError as exc:
            return f"ingest rejected: {exc}"
        finally:
            self.ingest_seconds += time.perf_counter() - started


def run(tenant: Tenant, times: PlanTimes, *, folder: Path, only: set[str], limit: int | None) -> Iterator[Item]:
    tables = Tables(tenant, folder)
    for question in [q for q in load(folder) if not only or q.id in only][:limit]:
        binding = tables.binding(question.table)
        if isinstance(binding, str):
            yield Item("wtq", question.id, question.question, question.answer, question.kind, Outcome.FAILED, binding)
            continue
        response, seconds, plan_ms = ask(binding, question.question, times)
        yield judged(
            response,
            partial(judge, question),
            set_name="wtq",
            case_id=question.id,
            question=question.question,
            expected=question.answer,
            group=question.kind,
            seconds=seconds,
            plan_ms=plan_ms,
        )
    print(f"[wtq] {len(tables.bindings)} tables ingested in {tables.ingest_seconds:.1f} s", file=sys.stderr)
