"""The answer to an average of totals (kinds/group_average.py): the average, said as the average of the periods'
(or groups') totals over how many of them there are (each total is in the result's table); or each group's
average, once per group."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from apps.agent.offline.wording import names

if TYPE_CHECKING:
    from apps.agent.offline.drafts import Writer

MAX_TOTALS_LISTED = 24  # groups whose averages are listed; the table holds every one


def mean_lines(writer: Writer) -> list[str]:
    plan, result = writer.plan, writer.result
    if not result.rows or len(plan.shown) < 2:
        return [_("The query returned no rows (the filters may be too narrow).")]
    mean, total = plan.shown[0].name, plan.shown[1].name
    per = next((w.partition_by for w in plan.windows if w.name == mean and w.partition_by), None)
    if per:
        return _per_group(writer, mean, per)
    key = plan.groups[-1].name
    said = {
        "mean": mean,
        "value": writer.value(0, mean, None),
        "total": total,
        "count": "{{" + f"{result.ref}.row_count" + "}}",
        "groups": names([key]),
    }
    return [
        _("%(mean)s is %(value)s: the average of the %(count)s values of %(total)s by %(groups)s.") % said,
        _("Each %(groups)s's %(total)s is in the table.") % said,
    ]


def _per_group(writer: Writer, mean: str, per: list[str]) -> list[str]:
    """ "每个地区的月均销售额": each group's average once (the rows are its periods, in order)."""
    firsts: dict[tuple[object, ...], int] = {}  # each group's first row (its periods follow it)
    for row in range(len(writer.result.rows)):
        firsts.setdefault(tuple(writer.result.cell(row, k) for k in per), row)
    lines = [_("%(mean)s for each %(groups)s:") % {"mean": mean, "groups": names(per)}]
    for i, row in enumerate(list(firsts.values())[:MAX_TOTALS_LISTED]):
        label = " · ".join(writer.label(row, k) for k in per)
        values = f"{mean} {writer.value(row, mean, None)}"
        lines.append(f"{i + 1}. " + _("%(labels)s: %(values)s") % {"labels": label, "values": values})
    if writer.result.row_count > len(writer.result.rows) or len(firsts) > MAX_TOTALS_LISTED:
        lines.append(_("... the rest is in the table."))
    periods = [g.name for g in writer.plan.groups if g.name not in per]
    lines.append(
        _("Each average is over the %(periods)s in which that %(groups)s has rows.")
        % {"periods": names(periods), "groups": names(per)}
    )
    return lines
