"""Prompts are versioned files under prompts/: static text first, the run's dynamic context last."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings

PROMPTS_DIR = Path(settings.BASE_DIR) / "prompts"


@dataclass(frozen=True)
class Prompt:
    name: str
    version: str
    text: str


@lru_cache(maxsize=16)
def load_prompt(name: str) -> Prompt:
    """`prompts/<name>.md`, whose front matter carries `version:` (recorded in every run's audit)."""
    raw = (PROMPTS_DIR / f"{name}.md").read_text(encoding="utf-8")
    if not raw.startswith("---\n"):
        raise ValueError(f"prompt {name!r} has no front matter with a version")
    header, body = raw[4:].split("\n---\n", 1)
    fields = dict(line.split(":", 1) for line in header.strip().splitlines())
    version = fields.get("version", "").strip()
    if not version:
        raise ValueError(f"prompt {name!r} has no version")
    return Prompt(name=name, version=version, text=body.strip())
