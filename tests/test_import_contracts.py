"""Dependencies point one way (docs/ARCHITECTURE.md): every import under apps/ and baplatform/, function-level and
TYPE_CHECKING ones included, is checked against a small layer table. A new back-edge fails here; the few that
exist today are named, with the reason, in KNOWN_BACK_EDGES.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("apps", "baplatform")

# Parts, by module prefix (the longest prefix wins). Observability is split: its ground floor (trace context,
# JSON logs, in-process counters, the request and socket wrappers) imports no part, so every part may use it;
# its scrape surface (the metrics collector, the /metrics and health views) reads every part's tables and sits
# at the top, beside the project package. The error vocabulary (baplatform/errors.py) imports no part and is
# ground floor too, open to every part.
PARTS: dict[str, str] = {
    "baplatform.errors": "errors",
    "apps.observability": "observability",
    "apps.observability.metrics": "ops",
    "apps.observability.views": "ops",
    "apps.observability.urls": "ops",
    "apps.tenants": "tenants",
    "apps.audit": "audit",
    "apps.datasets": "datasets",
    "apps.agent": "agent",
    "apps.conversations": "conversations",
    "baplatform": "project",
}

# What each part may import. conversations -> agent -> datasets -> tenants, each may skip downwards.
# Audit sits beside the stack: it reads tenants only, and everyone may call its public API (below).
MAY_IMPORT: dict[str, frozenset[str]] = {
    "errors": frozenset(),
    "observability": frozenset({"errors"}),
    "tenants": frozenset({"observability", "errors"}),
    "audit": frozenset({"tenants", "observability", "errors"}),
    "datasets": frozenset({"tenants", "observability", "errors"}),
    "agent": frozenset({"datasets", "tenants", "observability", "errors"}),
    "conversations": frozenset({"agent", "datasets", "tenants", "observability", "errors"}),
    "ops": frozenset({"conversations", "agent", "datasets", "tenants", "audit", "observability", "errors"}),
    "project": frozenset({"ops", "conversations", "agent", "datasets", "tenants", "audit", "observability", "errors"}),
}

# Audit's public API, open to every part: recording (admin changes, tool-call events, usage, interceptions), the
# kinds of admin change, the quota checks made before work is accepted, the registry through which a part
# above tells audit which question a run answered, the verify rules as stored (read as plain values), the registry
# through which the agent names its tools and built-in patterns for the review pages, and replay's
# entry point with its recorded calls, report and the registry for the replayer a part above provides.
# None means the whole module.
AUDIT_API: dict[str, frozenset[str] | None] = {
    "apps.audit.changes": None,
    "apps.audit.questions": None,
    "apps.audit.services": None,
    "apps.audit.quotas": None,
    "apps.audit.rules_store": None,
    "apps.audit.rule_vocabulary": None,
    "apps.audit.replay": None,
    "apps.audit.models": frozenset({"ChangeAction"}),
}

# Back-edges that exist today, each named with why; (importing module, imported module). Mend one, delete it here.
KNOWN_BACK_EDGES: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Edge:
    source: str  # importing module
    target: str  # imported module (resolved to a submodule for `from package import submodule`)
    names: tuple[str, ...]  # names taken with `from target import ...`; empty for `import target`
    line: int


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(dotted: str, root: Path) -> bool:
    base = root.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _absolute(module: str | None, level: int, source: str, is_package: bool) -> str:
    if level == 0:
        return module or ""
    package = source.split(".") if is_package else source.split(".")[:-1]
    base = package[: len(package) - (level - 1)]
    return ".".join([*base, module] if module else base)


def import_edges(source: str, text: str, *, is_package: bool = False, root: Path = ROOT) -> list[Edge]:
    """Every import in `text` (module `source`), wherever it sits: module level, in functions, under TYPE_CHECKING."""
    edges: list[Edge] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            edges.extend(Edge(source, alias.name, (), node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(node.module, node.level, source, is_package)
            plain = [a.name for a in node.names if not _is_module(f"{target}.{a.name}", root)]
            if plain:
                edges.append(Edge(source, target, tuple(plain), node.lineno))
            edges.extend(
                Edge(source, f"{target}.{a.name}", (), node.lineno)
                for a in node.names
                if _is_module(f"{target}.{a.name}", root)
            )
    return edges


def part_of(module: str) -> str | None:
    best = max((p for p in PARTS if module == p or module.startswith(p + ".")), key=len, default=None)
    return PARTS[best] if best else None


def _audit_api_allows(edge: Edge) -> bool:
    if edge.target not in AUDIT_API:
        return False
    names = AUDIT_API[edge.target]
    return names is None or (bool(edge.names) and set(edge.names) <= names)


def edge_violation(edge: Edge) -> str | None:
    """Why `edge` breaks the layer table, or None when it is allowed."""
    source, target = part_of(edge.source), part_of(edge.target)
    if source is None or target is None or source == target:
        return None
    if target in MAY_IMPORT[source] or (target == "audit" and _audit_api_allows(edge)):
        return None
    if any(edge.source == s and (edge.target == t or edge.target.startswith(t + ".")) for s, t in KNOWN_BACK_EDGES):
        return None
    taken = f" ({', '.join(edge.names)})" if edge.names else ""
    return f"{edge.source}:{edge.line} imports {edge.target}{taken}: {source} may not import {target}"


def contract_violations(files: list[Path], root: Path = ROOT) -> list[str]:
    found: list[str] = []
    for path in files:
        source = module_name(path, root)
        for edge in import_edges(source, path.read_text(), is_package=path.name == "__init__.py", root=root):
            if problem := edge_violation(edge):
                found.append(problem)
    return found


def project_modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_every_import_respects_the_layer_table():
    files = project_modules()
    assert len(files) > 100, "the walker finds the project's modules"
    assert contract_violations(files) == []


def test_every_module_belongs_to_a_part():
    modules = [module_name(p) for p in project_modules()]
    assert [m for m in modules if m != "apps" and part_of(m) is None] == []


def test_known_back_edges_still_exist():
    """A mended back-edge is deleted from KNOWN_BACK_EDGES, so the exception cannot hide a new import later."""
    edges = {
        (e.source, e.target)
        for p in project_modules()
        for e in import_edges(module_name(p), p.read_text(), is_package=p.name == "__init__.py")
    }
    stale = [k for k in KNOWN_BACK_EDGES if not any(s == k[0] and t.startswith(k[1]) for s, t in edges)]
    assert stale == []


# The checker must be able to fail: planted back-edges, function-level and relative ones included.


def test_checker_catches_a_planted_back_edge():
    text = "def helper():\n    from apps.conversations.models import Run\n    return Run\n"
    edges = import_edges("apps.datasets.leak", text)
    assert [edge_violation(e) for e in edges] == [
        "apps.datasets.leak:2 imports apps.conversations.models (Run): datasets may not import conversations"
    ]


def test_checker_catches_each_forbidden_direction():
    planted = {
        "apps.tenants.leak": "import apps.datasets.models\n",
        "apps.datasets.leak": "from apps.agent import tools\n",
        "apps.agent.leak": "from apps.conversations.selectors import run_get\n",
        "apps.observability.leak": "from apps.tenants.models import Tenant\n",
        "apps.datasets.leak2": "from apps.observability.metrics import render\n",
        "apps.tenants.leak2": "from apps.audit.models import AuditEvent\n",
        "baplatform.errors": "from apps.tenants.models import Tenant\n",
    }
    problems = [edge_violation(e) for source, text in planted.items() for e in import_edges(source, text)]
    assert all(problems), problems
    assert len(problems) == len(planted)


def test_checker_allows_the_downward_edges_and_audits_api():
    allowed = (
        "from apps.datasets.query.spec import QuerySpec\n"
        "from baplatform.errors import PlatformError\n"
        "from apps.audit.models import ChangeAction\n"
        "from apps.audit import changes\n"
        "from apps.observability import context\n"
    )
    edges = import_edges("apps.agent.fine", allowed)
    assert [e.target for e in edges][-2:] == ["apps.audit.changes", "apps.observability.context"]
    assert [edge_violation(e) for e in edges] == [None] * 5


def test_checker_walks_files(tmp_path):
    module = tmp_path / "apps" / "tenants" / "leak.py"
    module.parent.mkdir(parents=True)
    module.write_text("import os\n\n\ndef f():\n    import apps.agent.runner\n")
    assert contract_violations([module], root=tmp_path) == [
        "apps.tenants.leak:5 imports apps.agent.runner: tenants may not import agent"
    ]


def test_checker_resolves_relative_imports():
    edges = import_edges("apps.datasets.selectors", "from ..agent import runner\n")
    assert [e.target for e in edges] == ["apps.agent.runner"]
    assert edge_violation(edges[0]) is not None
