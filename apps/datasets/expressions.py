"""Derived expressions: a tiny arithmetic language parsed into an AST and checked node by node.

Grammar: numbers, names (aggregation/group names, or columns in row mode; `[name with spaces]`),
`+ - * /`, unary minus, parentheses and the functions nullif, coalesce, round, abs. Nothing else
parses, so nothing else can reach SQL; the compiler turns the AST into sqlglot nodes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from apps.datasets.errors import QueryInvalid
from apps.datasets.naming import closest

MAX_DEPTH = 8
MAX_NODES = 64
FUNCTIONS: dict[str, tuple[int, int]] = {"nullif": (2, 2), "coalesce": (2, 8), "round": (1, 2), "abs": (1, 1)}

_TOKEN_RE = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(?P<bracket>\[[^\[\]]{1,64}\])|(?P<name>[^\W\d]\w*)"
    r"|(?P<op>[-+*/(),]))"
)


@dataclass(frozen=True)
class Num:
    value: float | int


@dataclass(frozen=True)
class Ref:
    name: str


@dataclass(frozen=True)
class Neg:
    operand: Node


@dataclass(frozen=True)
class Bin:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple[Node, ...]


Node = Num | Ref | Neg | Bin | Call


def _tokenize(text: str, label: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        match = _TOKEN_RE.match(text, pos)
        if not match or match.end() == pos:
            raise QueryInvalid(
                f"derived {label!r}: unexpected {text[pos : pos + 10].strip()!r} at position {pos}; "
                "use names, numbers, + - * /, parentheses, nullif, coalesce, round, abs",
                code="invalid_expression",
            )
        kind = match.lastgroup or ""
        value = match.group(kind)
        if kind == "bracket":
            kind, value = "name", value[1:-1]
        tokens.append((kind, value))
        pos = match.end()
    return tokens


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], label: str) -> None:
        self.tokens, self.pos, self.label = tokens, 0, label

    def fail(self, message: str) -> QueryInvalid:
        return QueryInvalid(f"derived {self.label!r}: {message}", code="invalid_expression")

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None or (value is not None and token[1] != value):
            raise self.fail(f"expected {value or 'more input'} at the end" if token is None else f"expected {value}")
        self.pos += 1
        return token

    def expression(self, depth: int = 0) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested deeper than {MAX_DEPTH} levels; split it into several derived values")
        node = self.term(depth)
        while (token := self.peek()) and token[1] in "+-" and token[0] == "op":
            self.pos += 1
            node = Bin(token[1], node, self.term(depth))
        return node

    def term(self, depth: int) -> Node:
        node = self.unary(depth)
        while (token := self.peek()) and token[1] in "*/" and token[0] == "op":
            self.pos += 1
            node = Bin(token[1], node, self.unary(depth))
        return node

    def unary(self, depth: int) -> Node:
        token = self.peek()
        if token == ("op", "-"):
            self.pos += 1
            return Neg(self.unary(depth + 1))
        return self.primary(depth)

    def primary(self, depth: int) -> Node:
        kind, value = self.take()
        if kind == "num":
            number = float(value)
            if not math.isfinite(number):
                raise self.fail(f"the number {value} is out of range")
            return Num(int(number) if number.is_integer() and "." not in value and "e" not in value.lower() else number)
        if kind == "op" and value == "(":
            node = self.expression(depth + 1)
            self.take(")")
            return node
        if kind == "name":
            if self.peek() == ("op", "("):
                return self.call(value.lower(), depth)
            return Ref(value)
        raise self.fail(f"unexpected {value!r}")

    def call(self, func: str, depth: int) -> Node:
        if func not in FUNCTIONS:
            raise self.fail(f"unknown function {func!r}; allowed: {', '.join(FUNCTIONS)}")
        self.take("(")
        args = [self.expression(depth + 1)]
        while self.peek() == ("op", ","):
            self.pos += 1
            args.append(self.expression(depth + 1))
        self.take(")")
        low, high = FUNCTIONS[func]
        if not low <= len(args) <= high:
            raise self.fail(f"{func} takes {low}{'' if low == high else f' to {high}'} arguments, got {len(args)}")
        if func == "round" and len(args) == 2:
            digits = args[1]
            if not (isinstance(digits, Num) and isinstance(digits.value, int) and 0 <= digits.value <= 10):
                raise self.fail("round's second argument must be a whole number of digits from 0 to 10")
        return Call(func, tuple(args))


def _count(node: Node) -> int:
    if isinstance(node, Neg):
        return 1 + _count(node.operand)
    if isinstance(node, Bin):
        return 1 + _count(node.left) + _count(node.right)
    if isinstance(node, Call):
        return 1 + sum(_count(arg) for arg in node.args)
    return 1


def refs(node: Node) -> set[str]:
    if isinstance(node, Ref):
        return {node.name}
    if isinstance(node, Neg):
        return refs(node.operand)
    if isinstance(node, Bin):
        return refs(node.left) | refs(node.right)
    if isinstance(node, Call):
        return set().union(*(refs(arg) for arg in node.args))
    return set()


def parse_expression(text: str, *, label: str, names: set[str]) -> Node:
    """Parse and check `text`; every name must be in `names` (unknown ones get suggestions)."""
    parser = _Parser(_tokenize(text, label), label)
    if not parser.tokens:
        raise parser.fail("empty expression")
    node = parser.expression()
    if parser.peek() is not None:
        raise parser.fail(f"unexpected {parser.peek()[1]!r} after a complete expression")  # type: ignore[index]
    if _count(node) > MAX_NODES:
        raise parser.fail(f"more than {MAX_NODES} terms; split it into several derived values")
    for name in sorted(refs(node)):
        if name not in names:
            raise parser.fail(f"unknown name {name!r}{closest(name, names)}")
    return node
