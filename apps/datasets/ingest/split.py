"""Cells that hold two things, split into two columns so that each can be typed and nothing is lost.

A place with a note ("15th (q)", "4th (tie)") becomes the place, typed as a position afterwards, and the note in a
column beside ("Position (note)"); so does a number with a footnote mark ("2006*", "1998†", "4000[a]"): the number,
and the mark beside ("Season (note)"). One quantity written in two units ("14,505 ft" over "4421 m", "730g (23.5 oz.)")
becomes two columns of numbers named by their units ("Elevation (ft)", "Elevation (m)"). A column is split only when
every value has the shape (or is blank, or a mark such as "N/A" that typing reads as blank later).
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
from django.utils.translation import gettext as _
from sqlglot import exp

from apps.datasets.ingest.columns import (
    _ANY_MARK,
    _DATA,
    _NOT_UNITS,
    _column,
    _family,
    _rewrite,
    _rule_sql,
    _says_unit,
    _verdicts,
)
from apps.datasets.query.dialects import fill

_PLACE = "[0-9]{1,6} ?(st|nd|rd|th)"
_NOTE = "[(]([^()]{1,24})[)]"
_NOTED_PLACE = f"^({_PLACE}) ?{_NOTE}$"  # groups: 1 the place, 3 the note
_BLANK = "TRIM(__c__) = ''"
_PLACES_WITH_NOTES = (
    f"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), '({_PLACE})( ?{_NOTE})?') OR {_ANY_MARK[0]} OR {_BLANK})"
    f" AND BOOL_OR(REGEXP_MATCHES(TRIM(__c__), '{_NOTED_PLACE}'))"
    f" AND COUNT(*) FILTER (WHERE REGEXP_FULL_MATCH(TRIM(__c__), '({_PLACE})( ?{_NOTE})?')) >= 2"
)
_PLACE_OF = (
    f"CASE WHEN REGEXP_MATCHES(TRIM(__c__), '{_NOTED_PLACE}') THEN REGEXP_EXTRACT(TRIM(__c__), '{_NOTED_PLACE}', 1)"
)
_PLACE_OF += " ELSE __c__ END"
_NOTE_OF = f"NULLIF(TRIM(REGEXP_EXTRACT(TRIM(__c__), '{_NOTED_PLACE}', 3)), '')"

# An amount (thousands grouped by commas, so "1,96" is no amount) and its unit: letters, a power (km2, m²), a dot.
_AMOUNT = r"[+-]?(?:[0-9]{1,3}(?:,[0-9]{3}){1,4}|[0-9]{1,15})(?:[.][0-9]+)?"
_UNIT = "[A-Za-z]{1,6}[23²³]?[.]?"
# groups: 1 the first amount, 2 its unit, 3 the second amount, 4 its unit; on two lines, or the second in brackets
_TWO_UNITS = (
    rf"^({_AMOUNT}) ?({_UNIT})\s*\n\s*({_AMOUNT}) ?({_UNIT})$",
    rf"^({_AMOUNT}) ?({_UNIT}) ?[(]({_AMOUNT}) ?({_UNIT})[)]$",
)


def _two_units_sql(pattern: str) -> tuple[str, str, str, str]:
    """(the column has the shape, its two units and whether each amount has decimals) as templates over __c__."""
    match = f"REGEXP_MATCHES(TRIM(__c__), '{pattern}')"

    def part(group: int) -> str:
        return f"REGEXP_EXTRACT(TRIM(__c__), '{pattern}', {group})"

    fits = (
        f"BOOL_AND({match} OR {_BLANK}) AND COUNT(*) FILTER (WHERE {match}) >= 2"
        # one unit each (MIN = MAX: no hash of every value, as COUNT(DISTINCT) would build per column)
        f" AND MIN({part(2)}) FILTER (WHERE {match}) = MAX({part(2)}) FILTER (WHERE {match})"
        f" AND MIN({part(4)}) FILTER (WHERE {match}) = MAX({part(4)}) FILTER (WHERE {match})"
        f" AND MIN({part(2)}) FILTER (WHERE {match}) <> MIN({part(4)}) FILTER (WHERE {match})"
        f" AND NOT BOOL_OR(REGEXP_FULL_MATCH({part(2)}, '{_NOT_UNITS}'))"
        f" AND NOT BOOL_OR(REGEXP_FULL_MATCH({part(4)}, '{_NOT_UNITS}'))"
    )
    units = f"[MIN({part(2)}) FILTER (WHERE {match}), MIN({part(4)}) FILTER (WHERE {match})]"
    decimals = f"[BOOL_OR(CONTAINS({part(1)}, '.')), BOOL_OR(CONTAINS({part(3)}, '.'))]"
    amount = f"CAST(REPLACE(NULLIF(REGEXP_EXTRACT(TRIM(__c__), '{pattern}', __group__), ''), ',', '') AS __type__)"
    return fits, units, decimals, amount


_TWO_UNITS_SQL = tuple(_two_units_sql(pattern) for pattern in _TWO_UNITS)

# A number with a footnote mark after it ("2006*", "1998†", "12[a]"): groups 1 the number, 2 the mark
_FOOTNOTE = r"[*†‡§]{1,3}|\[[0-9a-z]{1,3}\]"
_MARKED_NUMBER = f"^({_AMOUNT})({_FOOTNOTE})$"
_NUMBERS_WITH_MARKS = (
    f"BOOL_AND(REGEXP_FULL_MATCH(TRIM(__c__), '({_AMOUNT})({_FOOTNOTE})?') OR {_ANY_MARK[0]} OR {_BLANK})"
    f" AND BOOL_OR(REGEXP_MATCHES(TRIM(__c__), '{_MARKED_NUMBER}'))"
    f" AND COUNT(*) FILTER (WHERE REGEXP_FULL_MATCH(TRIM(__c__), '{_AMOUNT}')) >= 2"
)
_NUMBER_OF = (
    f"CASE WHEN REGEXP_MATCHES(TRIM(__c__), '{_MARKED_NUMBER}') "
    f"THEN REGEXP_EXTRACT(TRIM(__c__), '{_MARKED_NUMBER}', 1) ELSE __c__ END"
)
_MARK_OF = f"NULLIF(REGEXP_EXTRACT(TRIM(__c__), '{_MARKED_NUMBER}', 2), '')"
# Every shape above has a bracket, a footnote mark or a line break in some value of the first rows (the rules over
# the first rows ask for a noted place, a marked number, or two values of two units): a column without one is ruled
# out by this cheap test alone, before the costly ones run.
_MAY_SPLIT = "BOOL_OR(REGEXP_MATCHES(__c__, '[(*†‡§\\[]') OR CONTAINS(__c__, CHR(10)))"


@dataclass
class Split:
    """What splitting did: the columns now in the table, those already typed (name: type), and per column the
    notes moved beside it."""

    columns: list[str]
    converted: dict[str, str]
    notes: dict[str, str]


def split_cells(con: duckdb.DuckDBPyConnection) -> Split:
    """Split text columns whose cells hold a place and a note, or one quantity in two units (module docstring)."""
    described = con.execute('DESCRIBE "data"').fetchall()
    names = [row[0] for row in described]
    texts = [row[0] for row in described if _family(row[1]) == "VARCHAR"]
    rules = [_PLACES_WITH_NOTES, *(fits for fits, *_rest in _TWO_UNITS_SQL), _NUMBERS_WITH_MARKS]
    marked = len(rules) - 1  # the index of the footnote rule
    sample = exp.select(exp.Star()).from_(_DATA.copy()).limit(2000).subquery("sample")
    screened = _verdicts(con, [_rule_sql(_MAY_SPLIT, name) for name in texts], sample) if texts else []
    candidates = [(name, index) for name, ok in zip(texts, screened, strict=True) if ok for index in range(len(rules))]
    for source in (sample, _DATA):  # the first rows rule most columns out; one full scan confirms the rest
        if not candidates:
            return Split(columns=names, converted={}, notes={})
        verdicts = _verdicts(con, [_rule_sql(rules[index], name) for name, index in candidates], source)
        candidates = [item for item, ok in zip(candidates, verdicts, strict=True) if ok]
    chosen = dict(reversed(candidates))  # one rule per column: the first that fits
    if not chosen:
        return Split(columns=names, converted={}, notes={})
    measured = [n for n in names if 0 < chosen.get(n, 0) < marked]
    tests = [_rule_sql(_TWO_UNITS_SQL[chosen[n] - 1][part], n) for n in measured for part in (1, 2)]
    found = iter(_verdicts(con, tests, _DATA)) if tests else iter([])
    taken = {n.casefold() for n in names}
    outputs: list[exp.Expr] = []
    split = Split(columns=[], converted={}, notes={})
    for name in names:
        if name not in chosen:
            outputs.append(_column(name))
            split.columns.append(name)
        elif chosen[name] in (0, marked):
            note = _free_name(_("%(column)s (note)") % {"column": name}, taken)
            value, said = (_PLACE_OF, _NOTE_OF) if chosen[name] == 0 else (_NUMBER_OF, _MARK_OF)
            outputs += [_as(value, name, name), _as(said, name, note)]
            split.columns += [name, note]
            split.notes[name] = note
        else:
            _fits, _units, _decimals, amount = _TWO_UNITS_SQL[chosen[name] - 1]
            units, decimals = next(found), next(found)
            for group, unit, decimal in zip((1, 3), units, decimals, strict=True):
                unit = unit.rstrip(".")
                new = name if _says_unit(name, unit) and group == 1 else _free_name(f"{name} ({unit})", taken)
                kind = "DOUBLE" if decimal else "BIGINT"
                outputs.append(_as(amount.replace("__group__", str(group)).replace("__type__", kind), name, new))
                split.columns.append(new)
                split.converted[new] = kind
    _rewrite(con, outputs)
    return split


def _as(template: str, source: str, name: str) -> exp.Expr:
    return exp.alias_(fill(template, "duckdb", c=_column(source)), exp.to_identifier(name, quoted=True))


def _free_name(wanted: str, taken: set[str]) -> str:
    """`wanted`, or it numbered if the table has that name already (DuckDB's names ignore case)."""
    name, number = wanted, 2
    while name.casefold() in taken:
        name, number = f"{wanted} {number}", number + 1
    taken.add(name.casefold())
    return name
