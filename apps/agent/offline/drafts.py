"""Final drafts in the question's language. Every number is a reference to a tool result
(`{{q1.金额合计[0]}}`); the only digits typed are the user's own (periods, thresholds) and years read
back from a result's labels. Follow-up questions are ones this planner can answer itself."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from apps.agent.offline.plan import Plan, Shown
from apps.agent.offline.schema_terms import Schema

MAX_LISTED = 12
_CHART = {"zh": {"line": "折线图", "bar": "柱状图", "pie": "饼图"}, "en": {"line": "line", "bar": "bar", "pie": "pie"}}
_REF_SAFE = re.compile(r"^[^\[\]{}|]+$")


@dataclass
class ResultView:
    """A query result as the model read it (at most the first 50 rows)."""

    ref: str
    columns: list[str]
    rows: list[list[Any]]
    row_count: int

    def cell(self, row: int, column: str) -> Any:
        if row >= len(self.rows) or column not in self.columns:
            return None
        return self.rows[row][self.columns.index(column)]


def reference(ref: str, column: str, row: int, fmt: str | None = None) -> str:
    return "{{" + f"{ref}.{column}[{row}]" + (f"|{fmt}" if fmt else "") + "}}"


class Writer:
    def __init__(
        self, plan: Plan, result: ResultView, schema: Schema, *, strict: bool = False, chart: str | None = None
    ):
        self.plan, self.result, self.schema, self.strict, self.chart = plan, result, schema, strict, chart
        self.zh = plan.lang == "zh"

    def t(self, zh: str, en: str) -> str:
        return zh if self.zh else en

    # --- pieces ----------------------------------------------------------------------------
    def label(self, row: int, column: str) -> str:
        value = self.result.cell(row, column)
        if value is None:
            return self.t("（空）", "(blank)")
        if isinstance(value, bool):
            return self.t("是" if value else "否", str(value).lower())
        if isinstance(value, int) and 1900 <= value <= 2100 and not self.strict:
            return str(value)  # a year read from the result: shown as written, without a thousands separator
        if not _REF_SAFE.match(column):
            return str(value) if isinstance(value, str) else "?"
        return reference(self.result.ref, column, row)

    def value(self, row: int, name: str, fmt: str | None) -> str:
        return reference(self.result.ref, name, row, fmt)

    def shown(self) -> list[Shown]:
        """The planned values, or (should the result differ) every column that is not a label."""
        shown = [s for s in self.plan.shown if s.name in self.result.columns]
        keys = {g.name for g in self.plan.groups} | set(self.plan.row_columns[:-1])
        return shown or [Shown(c) for c in self.result.columns if c not in keys]

    def row_values(self, row: int) -> str:
        """ "金额合计 1,234，占比 12.3%": each value after its name (a number never follows a bare colon)."""
        shown = self.shown()
        return self.t("，", ", ").join(f"{s.name} {self.value(row, s.name, s.fmt)}" for s in shown)

    def row_line(self, row: int, keys: list[str]) -> str:
        labels = " · ".join(self.label(row, k) for k in keys)
        return f"{row + 1}. {labels}{self.t('：', ': ')}{self.row_values(row)}"

    def listing(self, keys: list[str]) -> list[str]:
        count = min(len(self.result.rows), MAX_LISTED)
        return [self.row_line(i, keys) for i in range(count)]

    def filters_line(self) -> list[str]:
        if not self.plan.filter_labels:
            return []
        return [
            self.t("筛选条件：", "Filters: ") + self.t("；", "; ").join(self.plan.filter_labels) + self.t("。", ".")
        ]

    # --- bodies ----------------------------------------------------------------------------
    def scalar(self) -> list[str]:
        shown = self.shown()
        if not self.result.rows or not shown:
            return [self.t("查询没有返回结果。", "The query returned no rows.")]
        head = shown[0]
        line = self.t(f"{head.name}为 ", f"{head.name} is ") + self.value(0, head.name, head.fmt)
        rest = [f"{s.name} {self.value(0, s.name, s.fmt)}" for s in shown[1:]]
        if rest:
            line += self.t("（", " (") + self.t("，", ", ").join(rest) + self.t("）", ")")
        return [line + self.t("。", ".")]

    def grouped(self) -> list[str]:
        keys = [g.name for g in self.plan.groups]
        if not self.result.rows:
            return [
                self.t(
                    "查询没有返回结果（可能是筛选条件过窄）。",
                    "The query returned no rows (the filters may be too narrow).",
                )
            ]
        count = "{{" + f"{self.result.ref}.row_count" + "}}"
        by = self.t("、", ", ").join(keys)
        primary = self.plan.shown[0].name if self.plan.shown else ""
        if self.plan.kind == "ranking":
            word = self.t("最低" if self.plan.ascending else "最高", "lowest" if self.plan.ascending else "highest")
            if len(self.result.rows) == 1 or self.plan.limit == 1:
                head = self.t(
                    f"{primary}{word}的{by}是 {self.label(0, keys[-1])}（{self.row_values(0)}）。",
                    f"The {by} with the {word} {primary} is {self.label(0, keys[-1])} ({self.row_values(0)}).",
                )
                return [head]
            head = self.t(f"按{primary}排序（{word}在前），结果如下：", f"Ranked by {primary} ({word} first):")
        elif self.plan.kind == "trend":
            head = self.t(f"按{by}统计的{primary}（共 {count} 行）：", f"{primary} by {by} ({count} rows):")
        else:
            head = self.t(f"按{by}统计的{primary}（共 {count} 组）：", f"{primary} by {by} ({count} groups):")
        lines = [head, *self.listing(keys)]
        if self.result.row_count > MAX_LISTED:
            lines.append(self.t("……其余结果见表格。", "... the rest is in the table."))
        return lines

    def rows(self) -> list[str]:
        measure = self.plan.row_columns[-1]
        views = self.schema.by_name
        labels = [c for c in self.plan.row_columns[:-1] if c in views and views[c].category in ("id", "dimension")][:3]
        word = self.t("最低", "lowest") if self.plan.sort and not self.plan.sort[0].desc else self.t("最高", "highest")
        lines = [self.t(f"{measure}{word}的记录：", f"Records with the {word} {measure}:")]
        for i in range(min(len(self.result.rows), MAX_LISTED)):
            names = " · ".join(self.label(i, c) for c in labels)
            lines.append(f"{i + 1}. {names}{self.t('：', ': ')}{measure} {self.value(i, measure, None)}")
        return lines

    def body(self) -> list[str]:
        if self.plan.kind == "scalar":
            lines = self.scalar()
        elif self.plan.kind == "rows":
            lines = self.rows()
        else:
            lines = self.grouped()
        lines += self.filters_line()
        notes = list(self.plan.unmapped)
        if notes:
            quoted = self.t("、", ", ").join(f"“{w}”" for w in notes)
            lines.append(
                self.t(
                    f"注意：数据中没有与{quoted}对应的列，这部分未计算。",
                    f"Note: no column matches {quoted}, so it was left out.",
                )
            )
        if self.chart:
            lines.append(self.t(f"（已绘制{_CHART['zh'][self.chart]}。）", f"(Chart: {_CHART['en'][self.chart]}.)"))
        return lines


def _strip_typed_numbers(lines: list[str]) -> list[str]:
    """After a failed verification: keep only lines whose digits all sit inside references."""
    kept = []
    for line in lines:
        outside = re.sub(r"\{\{.*?\}\}", "", re.sub(r"^\d+\. ", "", line))
        if line.startswith(">> ") or not re.search(r"\d", outside):
            kept.append(line)
    return kept


def answer_draft(
    plan: Plan, result: ResultView, schema: Schema, follow_ups: list[str], *, strict: bool, chart: str | None
) -> str:
    lines = Writer(plan, result, schema, strict=strict, chart=chart).body()
    lines += [f">> {q}" for q in follow_ups]
    return "\n".join(_strip_typed_numbers(lines) if strict else lines)
