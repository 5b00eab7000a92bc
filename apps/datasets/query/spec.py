"""QuerySpec: the only way a caller (above all the LLM) asks for numbers.

A Pydantic v2 model over closed whitelists: filter operators, aggregations, time grains,
derived expressions (parsed into an AST by `expressions.py`, never pasted into SQL) and named
window calculations (share of total, period-over-period change). Complexity is bounded so a
query's cost is predictable. Column names are checked against the schema by the compiler.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from django.utils.translation import gettext as _
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    field_validator,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from apps.datasets.message_parts import quoted_list

MAX_FILTERS = 20
MAX_GROUP_BY = 6
MAX_AGGREGATIONS = 12
MAX_DERIVED = 12
MAX_WINDOWS = 6
MAX_COLUMNS = 50
MAX_IN_VALUES = 1000
MAX_LIMIT = 10_000
DEFAULT_LIMIT = 1_000

FilterOp = Literal["=", "!=", ">", ">=", "<", "<=", "in", "between", "contains", "is_null"]
AggFunc = Literal["sum", "avg", "min", "max", "count", "nunique", "median", "stddev", "variance", "quantile", "corr"]
TimeGrain = Literal["day", "week", "month", "quarter", "year", "month_of_year"]
WindowFunc = Literal["share_of_total", "mean_of_groups", "pct_change", "diff", "cumsum", "rank"]
Scalar = str | int | float | bool | None
# A row's place in an uploaded file (1 = the first data row), usable like a column in columns, filters, group_by,
# aggregations and sort: "the first team listed", "the song right before X". Only files keep an order; a real
# column of the same name wins.
ROW_POSITION = "@row"

# Names are always quoted identifiers in SQL, so any printable text is safe; headers keep their spelling.
Name = Annotated[str, Field(min_length=1, max_length=255, pattern=r"^[^\x00-\x1f]+$")]


# The documented spelling (`col`, `as`, `agg`, `dir`) beside the explicit one: both validate into one model,
# which always serialises with the explicit names (audit records, caches and replays stay canonical).
COLUMN = AliasChoices("column", "col")
OUTPUT_NAME = AliasChoices("name", "as")


@cache
def spellings(model: type[BaseModel]) -> dict[str, tuple[str, ...]]:
    """Each field of `model` with the keys that spell it, the explicit name first."""
    keys: dict[str, tuple[str, ...]] = {}
    for field, info in model.model_fields.items():
        alias = info.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else [alias or field]
        keys[field] = tuple(str(c) for c in choices if isinstance(c, str))
    return keys


def check_keys(data: dict[Any, Any], model: type[BaseModel]) -> None:
    """Refuse a key the model does not know, naming every accepted spelling, and a key spelt twice."""
    known = spellings(model)
    accepted = {key for keys in known.values() for key in keys}
    unknown = [str(key) for key in data if key not in accepted]
    if unknown:
        raise ValueError(
            _("unknown key %(keys)s; accepted keys: %(accepted)s")
            % {"keys": quoted_list(unknown), "accepted": ", ".join("/".join(keys) for keys in known.values())}
        )
    for keys in known.values():
        given = [key for key in keys if key in data]
        if len(given) > 1:
            raise ValueError(_("%(keys)s spell the same key; give only one of them") % {"keys": quoted_list(given)})


def document_spellings(schema: JsonSchemaValue, model: type[BaseModel], types: dict[str, Any]) -> None:
    """Add the other spellings of each key to a model's JSON schema, so the documented bodies validate against it.

    A required key spelt two ways becomes "one of them is required"; `types` gives a spelling whose value
    is written differently (`dir: "asc"` for `desc: false`).
    """
    properties, required = schema.get("properties", {}), schema.get("required", [])
    either = []
    for field, keys in spellings(model).items():
        if field not in properties or len(keys) < 2:
            continue
        for key in keys[1:]:
            spelling = {k: v for k, v in properties[field].items() if k not in ("title", "default", "description")}
            spelling = types.get(key, spelling)
            if "enum" in spelling:  # inline, so the API schema keeps one named enum per choice set
                spelling = {"anyOf": [spelling]}
            properties[key] = {**spelling, "description": f"the documented spelling of {field}"}
        if field in required:
            required.remove(field)
            either.append({"anyOf": [{"required": [key]} for key in keys]})
    if either:
        schema["allOf"] = either
    if not required:
        schema.pop("required", None)


class _Strict(BaseModel):
    """A closed model: unknown keys are refused with the accepted spellings named."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    _spelling_types: ClassVar[dict[str, Any]] = {}

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            check_keys(data, cls)
        return data

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        """The API documents (serialisation mode) list every spelling; the model's tool schema keeps one."""
        schema = handler.resolve_ref_schema(handler(core_schema))
        if handler.mode == "serialization":
            document_spellings(schema, cls, cls._spelling_types)
        return schema


class Filter(_Strict):
    """A condition on a column (in `filters`) or on an output name (in `having`)."""

    column: Name = Field(validation_alias=COLUMN, description="also spelt col")
    op: FilterOp
    value: Scalar | list[Scalar] = None
    grain: TimeGrain | None = Field(
        default=None,
        description="compare the column's time bucket, e.g. grain=year, op='=', value=2025; "
        "grain=month_of_year, value=11: November of every year",
    )

    @model_validator(mode="after")
    def _value_matches_op(self) -> Filter:
        value, column = self.value, {"column": self.column}
        if self.op == "in":
            if not isinstance(value, list) or not value:
                raise ValueError(_("filter on '%(column)s': 'in' needs a non-empty list of values") % column)
            if len(value) > MAX_IN_VALUES:
                raise ValueError(
                    _("filter on '%(column)s': 'in' accepts at most %(max)s values") % {**column, "max": MAX_IN_VALUES}
                )
        elif self.op == "between":
            if not isinstance(value, list) or len(value) != 2 or None in value:
                raise ValueError(_("filter on '%(column)s': 'between' needs [low, high]") % column)
        elif self.op == "is_null":
            if not isinstance(value, bool):
                raise ValueError(
                    _("filter on '%(column)s': 'is_null' needs true (missing) or false (present)") % column
                )
        elif self.op == "contains":
            if not isinstance(value, str) or not value:
                raise ValueError(_("filter on '%(column)s': 'contains' needs a non-empty text value") % column)
        elif isinstance(value, list) or value is None:
            raise ValueError(
                _("filter on '%(column)s': '%(op)s' needs a single value (use is_null for missing values)")
                % {**column, "op": self.op}
            )
        return self


class GroupBy(_Strict):
    column: Name = Field(validation_alias=COLUMN, description="also spelt col")
    grain: TimeGrain | None = Field(default=None, description="time bucket for date/datetime columns")
    alias: Name | None = Field(
        default=None,
        validation_alias=AliasChoices("alias", "as"),
        description="output name; defaults to the column name; also spelt as",
    )

    @property
    def name(self) -> str:
        return self.alias or self.column


class Aggregation(_Strict):
    name: Name = Field(
        validation_alias=OUTPUT_NAME,
        description="output name, referenced by derived, windows, having and sort; also spelt as",
    )
    func: AggFunc = Field(validation_alias=AliasChoices("func", "agg"), description="also spelt agg")
    column: Name | None = Field(
        default=None, validation_alias=COLUMN, description="omit only for count (count rows); also spelt col"
    )
    column2: Name | None = Field(default=None, description="second column, for corr")
    q: float | None = Field(default=None, ge=0, le=1, description="the quantile, for quantile")
    where: list[Filter] = Field(default_factory=list, max_length=5, description="conditional aggregation")

    @model_validator(mode="after")
    def _arguments_match_func(self) -> Aggregation:
        if self.column is None and self.func != "count":
            raise ValueError(
                _("aggregation '%(name)s': %(func)s needs a column") % {"name": self.name, "func": self.func}
            )
        if (self.func == "corr") != (self.column2 is not None):
            raise ValueError(_("aggregation '%(name)s': column2 is for corr, and corr needs it") % {"name": self.name})
        if (self.func == "quantile") != (self.q is not None):
            raise ValueError(
                _("aggregation '%(name)s': q (0..1) is for quantile, and quantile needs it") % {"name": self.name}
            )
        return self


class Derived(_Strict):
    name: Name = Field(validation_alias=OUTPUT_NAME, description="output name; also spelt as")
    expr: str = Field(
        min_length=1,
        max_length=500,
        description="arithmetic over aggregation/group names (or columns in row mode): + - * /, "
        "nullif, coalesce, round, abs, numbers; quote names with spaces as [name]",
    )


class Window(_Strict):
    """A named calculation across result rows, computed over all groups before the limit."""

    name: Name = Field(validation_alias=OUTPUT_NAME, description="output name; also spelt as")
    func: WindowFunc
    of: Name = Field(description="the aggregation or derived value it applies to")
    partition_by: list[Name] = Field(default_factory=list, max_length=MAX_GROUP_BY)
    order_by: Name | None = Field(default=None, description="required for pct_change, diff, cumsum (usually time)")
    desc: bool = Field(default=True, description="rank order: true ranks the largest first")

    @model_validator(mode="after")
    def _order_when_needed(self) -> Window:
        if self.func in ("pct_change", "diff", "cumsum") and self.order_by is None:
            raise ValueError(
                _("window '%(name)s': %(func)s needs order_by (e.g. the month column)")
                % {"name": self.name, "func": self.func}
            )
        return self


class Sort(_Strict):
    _spelling_types: ClassVar[dict[str, Any]] = {"dir": {"type": "string", "enum": ["asc", "desc"]}}

    by: Name = Field(validation_alias=AliasChoices("by", "col"), description="an output name; also spelt col")
    desc: bool = Field(
        default=False,
        validation_alias=AliasChoices("desc", "dir"),
        description="largest first; also spelt dir: 'asc' or 'desc'",
    )

    @field_validator("desc", mode="before")
    @classmethod
    def _direction(cls, value: Any) -> Any:
        """`dir: "asc" | "desc"` (the documented spelling) is the same as `desc: false | true`."""
        if isinstance(value, str):
            direction = value.strip().lower()
            if direction not in ("asc", "desc"):
                raise ValueError(_("sort direction must be 'asc' or 'desc'; got '%(value)s'") % {"value": value})
            return direction == "desc"
        return value


class QuerySpec(_Strict):
    """Either an aggregate query (group_by/aggregations) or a row query (columns)."""

    columns: list[Name] = Field(default_factory=list, max_length=MAX_COLUMNS, description="row mode: columns")
    filters: list[Filter] = Field(default_factory=list, max_length=MAX_FILTERS)
    group_by: list[GroupBy] = Field(default_factory=list, max_length=MAX_GROUP_BY)
    aggregations: list[Aggregation] = Field(default_factory=list, max_length=MAX_AGGREGATIONS)
    derived: list[Derived] = Field(default_factory=list, max_length=MAX_DERIVED)
    windows: list[Window] = Field(default_factory=list, max_length=MAX_WINDOWS)
    having: list[Filter] = Field(default_factory=list, max_length=MAX_FILTERS)
    sort: list[Sort] = Field(default_factory=list, max_length=MAX_GROUP_BY + MAX_AGGREGATIONS)
    limit: int = Field(default=DEFAULT_LIMIT, ge=1, le=MAX_LIMIT)

    @field_validator("group_by", mode="before")
    @classmethod
    def _group_by_shorthand(cls, value: Any) -> Any:
        """Accept "地区" for {"column": "地区"}."""
        if isinstance(value, list):
            return [{"column": item} if isinstance(item, str) else item for item in value]
        return value

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema = super().__get_pydantic_json_schema__(core_schema, handler)
        if handler.mode == "serialization":  # the API documents: the shorthand the requirement documents use
            group_by = schema["properties"]["group_by"]
            shorthand = {"type": "string", "description": 'a column name, short for {"column": name}'}
            group_by["items"] = {"anyOf": [shorthand, group_by["items"]]}
        return schema

    @property
    def is_aggregate(self) -> bool:
        return bool(self.group_by or self.aggregations)

    @model_validator(mode="after")
    def _shape(self) -> QuerySpec:
        if self.is_aggregate and self.columns:
            raise ValueError(_("use either columns (row query) or group_by/aggregations (aggregate query), not both"))
        if not self.is_aggregate and not self.columns:
            raise ValueError(_("nothing to return: give columns, or group_by and aggregations"))
        if not self.is_aggregate and (self.windows or self.having):
            raise ValueError(_("windows and having need an aggregate query (group_by/aggregations)"))
        names = [g.name for g in self.group_by] + [a.name for a in self.aggregations]
        names += [d.name for d in self.derived] + [w.name for w in self.windows]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(_("output names must be unique; repeated: %(names)s") % {"names": quoted_list(duplicates)})
        return self

    def output_names(self) -> list[str]:
        if not self.is_aggregate:
            return list(self.columns) + [d.name for d in self.derived]
        return (
            [g.name for g in self.group_by]
            + [a.name for a in self.aggregations]
            + [d.name for d in self.derived]
            + [w.name for w in self.windows]
        )
