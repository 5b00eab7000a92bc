"""Derived expressions: a tiny arithmetic language parsed into an AST and checked node by node.

Grammar: numbers, names (aggregation/group names, or columns in row mode; `[name with spaces]`),
`+ - * /`, unary minus, parentheses and the functions nullif, coalesce, round, abs. Nothing else
parses, so nothing else can reach SQL; the compiler turns the AST into sqlglot nodes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from apps.datasets.errors import QueryInvalid
from apps.datasets.message_parts import closest

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
                _(
                    "derived '%(name)s': unexpected '%(text)s' at position %(position)s; "
                    "use names, numbers, + - * /, parentheses, nullif, coalesce, round, abs"
                )
                % {"name": label, "text": text[pos : pos + 10].strip(), "position": pos},
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
        return QueryInvalid(
            _("derived '%(name)s': %(problem)s") % {"name": self.label, "problem": message}, code="invalid_expression"
        )

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None or (value is not None and token[1] != value):
            if token is None:
                raise self.fail(
                    _("expected %(what)s at the end") % {"what": value}
                    if value
                    else _("expected more input at the end")
                )
            raise self.fail(_("expected %(what)s") % {"what": value})
        self.pos += 1
        return token

    def expression(self, depth: int = 0) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail(
                _("nested deeper than %(max)s levels; split it into several derived values") % {"max": MAX_DEPTH}
            )
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
                raise self.fail(_("the number %(number)s is out of range") % {"number": value})
            return Num(int(number) if number.is_integer() and "." not in value and "e" not in value.lower() else number)
        if kind == "op" and value == "(":
            node = self.expression(depth + 1)
            self.take(")")
            return node
        if kind == "name":
            if self.peek() == ("op", "("):
                return self.call(value.lower(), depth)
            return Ref(value)
        raise self.fail(_("unexpected '%(token)s'") % {"token": value})

    def call(self, func: str, depth: int) -> Node:
        if func not in FUNCTIONS:
            raise self.fail(
                _("unknown function '%(name)s'; allowed: %(allowed)s") % {"name": func, "allowed": ", ".join(FUNCTIONS)}
            )
        self.take("(")
        args = [self.expression(depth + 1)]
        while self.peek() == ("op", ","):
            self.pos += 1
            args.append(self.expression(depth + 1))
        self.take(")")
        low, high = FUNCTIONS[func]
        if not low <= len(args) <= high:
            counts = {"func": func, "low": low, "high": high, "got": len(args)}
            raise self.fail(
                _("%(func)s takes %(low)s arguments, got %(got)s") % counts
                if low == high
                else _("%(func)s takes %(low)s to %(high)s arguments, got %(got)s") % counts
            )
        if func == "round" and len(args) == 2:
            digits = args[1]
            if not (isinstance(digits, Num) and isinstance(digits.value, int) and 0 <= digits.value <= 10):
                raise self.fail(_("round's second argument must be a whole number of digits from 0 to 10"))
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
        raise parser.fail(_("empty expression"))
    node = parser.expression()
    if (extra := parser.peek()) is not None:
        raise parser.fail(_("unexpected '%(token)s' after a complete expression") % {"token": extra[1]})
    if _count(node) > MAX_NODES:
        raise parser.fail(_("more than %(max)s terms; split it into several derived values") % {"max": MAX_NODES})
    for name in sorted(refs(node)):
        if name not in names:
            raise parser.fail(_("unknown name '%(name)s'%(hint)s") % {"name": name, "hint": closest(name, names)})
    return node
