"""Held-out players whose answers are wrong in ways real models are: a true number under the wrong label,
year, month or row of a ranking; the right number of the wrong measure; a list answered with a sum of ids; a
total for a per-month question; a dropped, stale or added filter; month over month called year over year; a
fall called a rise; a leading question confirmed; values a rounding step away from the truth. And honest
answers with no data claims (no_data)."""

from __future__ import annotations

from decimal import Decimal

from benchmarks.trust import formats as fm
from benchmarks.trust import heldout_specs as hs
from benchmarks.trust.heldout_correct import history_turn
from benchmarks.trust.heldout_facts import HeldoutFacts, strict
from benchmarks.trust.script import Scenario, Spec, answer, honest, schema

Case = tuple[str, str, Spec | str, str, str]  # source, question, query, draft, what is wrong


def _wrong(player: str, prefix: str, cases: list[Case]) -> list[Scenario]:
    return [
        Scenario(f"{prefix}-{n}", player, "wrong", source, question, honest(source, spec, draft), why)
        for n, (source, question, spec, draft, why) in enumerate(cases, start=1)
    ]


def labels(f: HeldoutFacts) -> list[Scenario]:
    """True numbers under another warehouse, department, year, month or rank."""
    units, v25 = dict(f.units_2025), dict(f.value_2025)
    pay = dict(f.avg_salary_by_dept)
    tampa_by_year = {
        "filters": [hs.eq("warehouse", "Tampa")],
        "group_by": [{"column": "ship_date", "grain": "year", "alias": "year"}],
        "aggregations": hs.VALUE,
        "sort": [{"by": "year"}],
    }
    assert f.value_by_year["Tampa", 2024] != f.value_by_year["Tampa", 2025]
    hires = f.hires_by_month_2025
    peak_month, peak = max(hires, key=lambda kv: kv[1])
    other = next(m for m, n in sorted(hires, key=lambda kv: -kv[1]) if n != peak)
    strict([v for _, v in f.value_2025], 0, 1)
    strict([n for _, n in f.active_by_dept], 0, 1)
    second, second_v = f.value_2025[1]
    second_dept, second_n = f.active_by_dept[1]
    shop_months = dict(f.shop_months)
    year_turn = history_turn(
        "What was shipment value by warehouse in 2025?",
        "; ".join(f"{w} ${fm.num(v)}" for w, v in f.value_2025) + ".",
        ["warehouse", "value"],
        [[w, float(v)] for w, v in f.value_2025],
    )
    cases: list[Case] = [
        (
            "stock",
            "Which warehouse shipped the most units in 2025?",
            hs.ST_UNITS_2025,
            f"Dallas shipped {units['Reno']:,} units in 2025 and Reno {units['Dallas']:,}.",
            "two warehouses' units swapped",
        ),
        (
            "stock",
            "What was Tampa's shipment value in 2025?",
            tampa_by_year,
            f"Tampa's 2025 shipment value was ${fm.num(f.value_by_year['Tampa', 2024])}.",
            "the 2024 value under 2025",
        ),
        (
            "stock",
            "Which warehouse had the highest shipment value in 2025?",
            hs.ST_VALUE_2025,
            f"{second} had the highest 2025 shipment value, ${fm.num(second_v)}.",
            f"the superlative names the second row ({f.value_2025[0][0]} was highest)",
        ),
        (
            "staff",
            "各部门平均月薪是多少？",
            hs.H_PAY_BY_DEPT,
            f"销售部平均月薪 {fm.num(pay['研发部'])} 元，研发部 {fm.num(pay['销售部'])} 元。",
            "two departments' averages swapped",
        ),
        (
            "staff",
            "2025 年哪个月入职人数最多？",
            hs.H_HIRES_2025_MONTHLY,
            f"2025 年 {other} 月入职人数最多，共 {peak} 人。",
            f"the peak's count under another month (the peak was {peak_month} 月)",
        ),
        (
            "staff",
            "哪个部门在职人数最多？",
            hs.H_ACTIVE_BY_DEPT,
            f"在职人数最多的是{second_dept}，共 {second_n} 人。",
            f"the superlative names the second row ({f.active_by_dept[0][0]} was highest)",
        ),
        (
            "shop",
            "2025 年 9 月的订单金额是多少？",
            hs.P_MONTHS_PLAIN,
            f"2025 年 9 月订单金额为 {fm.num(shop_months[10])} 元。",
            "October's amount under September",
        ),
        (
            "shop",
            "哪个城市的用户下单金额最高？",
            hs.P_CITY,
            "{{q1.城市[4]}}的用户下单金额最高，为 {{q1.下单金额[4]}} 元。",
            "the ranking read from the wrong end",
        ),
    ]
    out = _wrong("ho_label", "ho-label", cases)
    out.append(
        Scenario(
            f"ho-label-{len(out) + 1}",
            "ho_label",
            "wrong",
            "stock",
            "Compare Dallas and Boise.",
            honest(
                "stock",
                hs.by_warehouse(
                    hs.S25, {"column": "warehouse", "op": "in", "value": ["Dallas", "Boise"]}, aggregations=hs.UNITS
                ),
                f"In 2025 Dallas shipped ${fm.num(v25['Boise'])} and Boise ${fm.num(v25['Dallas'])}.",
            ),
            "earlier numbers repeated under each other's label",
            history=[year_turn],
        )
    )
    return out


def measures(f: HeldoutFacts) -> list[Scenario]:
    """The right query's number for the wrong measure: units as value, a row count as distinct SKUs, a yearly
    total for a monthly question, a sum of ids for a list, an average as a total."""
    units = dict(f.units_2025)
    assert f.skus_2025 != f.shipments_2025
    online = f.shop_channel["线上"]
    assert online[1] != online[2]
    cases: list[Case] = [
        (
            "stock",
            "What was Boise's shipment value in 2025?",
            hs.total(hs.eq("warehouse", "Boise"), hs.S25, aggregations=hs.UNITS + hs.VALUE),
            f"Boise's shipment value in 2025 was ${units['Boise']:,}.",
            "units written as value",
        ),
        (
            "stock",
            "What was Reno's shipment value each month in 2025?",
            hs.total(hs.eq("warehouse", "Reno"), hs.S25),
            f"Reno's monthly shipment value in 2025 came to ${fm.num(dict(f.value_2025)['Reno'])}.",
            "a yearly total for a per-month question",
        ),
        (
            "stock",
            "How many distinct SKUs were shipped in 2025?",
            hs.ST_SKUS_2025,
            "{{q1.shipments[0]}} different SKUs were shipped in 2025.",
            f"the shipment count as distinct SKUs ({f.skus_2025})",
        ),
        (
            "staff",
            "列出 2025 年离职的员工",
            {
                "filters": [hs.H25, hs.eq("状态", "离职")],
                "aggregations": [{"name": "员工", "func": "sum", "column": "工号"}],
            },
            "2025 年离职的员工：{{q1.员工[0]}}。",
            f"a list of {len(f.leaver_ids_2025)} people answered with the sum of their ids",
        ),
        (
            "staff",
            "2024 年每月入职人数是多少？",
            hs.count_where(hs.H24, name="入职人数"),
            f"2024 年每月入职人数合计 {f.hires_by_year[2024]} 人，各月较为平稳。",
            "a yearly total for a per-month question",
        ),
        (
            "shop",
            "各渠道的销售额是多少？",
            hs.P_CHANNEL_ALL,
            f"线上渠道销售额为 {fm.num(online[1])} 元。",
            "the average order amount written as sales",
        ),
    ]
    return _wrong("ho_measure", "ho-measure", cases)


def filters(f: HeldoutFacts) -> list[Scenario]:
    """A condition of the question dropped, a stale one kept from the last turn, or one added."""
    v25 = dict(f.value_2025)
    assert v25["Dallas"] != f.dallas_tools_2025
    share_all, share_dallas = f.category_share["Tools"], f.dallas_2025_category_share["Tools"]
    assert fm.differs(fm.rounded(share_all * 100, 1), share_dallas * 100, 1)
    assert f.hires_by_year[2025] != f.hires_by_dept_year["销售部", 2025]
    assert f.total_2025 != f.total_both
    cases: list[Case] = [
        (
            "stock",
            "What was Dallas's Tools shipment value in 2025?",
            hs.total(hs.eq("warehouse", "Dallas"), hs.S25),
            f"Dallas shipped ${fm.num(v25['Dallas'])} worth of Tools in 2025.",
            f"the Tools filter dropped (Tools: {f.dallas_tools_2025})",
        ),
        (
            "stock",
            "What share of Dallas's 2025 shipment value came from Tools?",
            hs.ST_CATEGORY_SHARE,
            f"Tools made up {fm.pct(share_all)} of Dallas's 2025 shipment value.",
            f"the share of all warehouses and years (Dallas 2025: {fm.pct(share_dallas)})",
        ),
        (
            "stock",
            "What was the total shipment value across 2024 and 2025?",
            hs.ST_TOTAL_2025,
            f"Total shipment value across 2024 and 2025 was ${fm.num(f.total_2025)}.",
            f"2025 only (both years: {f.total_both})",
        ),
        (
            "staff",
            "销售部 2025 年入职了多少人？",
            hs.count_where(hs.H25, name="入职人数"),
            f"销售部 2025 年入职 {f.hires_by_year[2025]} 人。",
            f"the 销售部 filter dropped ({f.hires_by_dept_year['销售部', 2025]})",
        ),
    ]
    out = _wrong("ho_filter", "ho-filter", cases)
    tampa_turn = history_turn(
        "How many units did Tampa ship in Q4 2025?",
        f"Tampa shipped {f.tampa_q4_2025_units:,} units in Q4 2025.",
        ["units"],
        [[f.tampa_q4_2025_units]],
    )
    stale_units = {
        "filters": [
            hs.eq("warehouse", "Tampa"),
            {"column": "ship_date", "op": "between", "value": ["2025-10-01", "2025-12-31"]},
        ],
        "aggregations": hs.UNITS,
    }
    sales_turn = history_turn(
        "2025 年销售部入职了多少人？",
        f"2025 年销售部入职 {f.hires_by_dept_year['销售部', 2025]} 人。",
        ["入职人数"],
        [[f.hires_by_dept_year["销售部", 2025]]],
    )
    stale_pay = {
        "filters": [hs.eq("部门", "销售部"), hs.H25],
        "aggregations": [{"name": "月薪", "func": "sum", "column": "月薪"}],
    }
    for question, history, spec, draft, why in (
        (
            "What was Tampa's average units per shipment across both years?",
            tampa_turn,
            stale_units,
            "Tampa averaged {{q1.units[0]}} units per shipment.",
            f"the Q4 2025 filter kept and a sum for an average (truth: {fm.num(f.tampa_avg_units)})",
        ),
        (
            "销售部的平均月薪是多少？",
            sales_turn,
            stale_pay,
            "销售部的平均月薪为 {{q1.月薪[0]}} 元。",
            "the 2025 filter kept and a sum of salaries for an average",
        ),
    ):
        source = "stock" if question.isascii() else "staff"
        turns = honest(source, spec, draft)
        n = len(out) + 1
        out.append(Scenario(f"ho-filter-{n}", "ho_filter", "wrong", source, question, turns, why, history=[history]))
    return out


def changes(f: HeldoutFacts) -> list[Scenario]:
    """Changes with the wrong name or direction, leading questions confirmed, numbers a rounding step off."""
    months, mom = dict(f.month_value_2025), f.month_mom_2025
    true_yoy = (months[12] - f.month_value_2024[12]) / f.month_value_2024[12]
    assert mom[12] > 0 and fm.differs(fm.rounded(mom[12] * 100, 1), true_yoy * 100, 1)
    dallas_k = dict(f.value_2025)["Dallas"].scaleb(-3)
    off_k = fm.rounded(dallas_k, 1) + Decimal("0.1")
    assert fm.differs(off_k, dallas_k, 1)
    assert f.yoy["Reno"] < 0
    reno_units = dict(f.units_2025)["Reno"]
    assert reno_units < 3000
    dec, nov = dict(f.hires_by_month_2025)[12], dict(f.hires_by_month_2025)[11]
    h_mom = Decimal(dec - nov) / nov
    h_yoy = Decimal(dec - f.hires_by_month_2024[12]) / f.hires_by_month_2024[12]
    assert h_mom > 0 and fm.differs(fm.rounded(h_mom * 100, 1), h_yoy * 100, 1)
    market = (f.hires_by_dept_year["市场部", 2025], f.hires_by_dept_year["市场部", 2024])
    market_change = Decimal(market[0] - market[1]) / market[1]
    assert market_change < 0
    rd_wan = dict(f.avg_salary_by_dept)["研发部"].scaleb(-4)
    assert fm.differs(Decimal("3.5"), rd_wan, 1)
    rate = Decimal(f.leavers) / f.staff * 100
    off_rate = fm.rounded(rate, 1) + Decimal("0.2")
    assert fm.differs(off_rate, rate, 1)
    shop_mom = f.shop_mom[12]
    cases: list[Case] = [
        (
            "stock",
            "How did December 2025 shipment value compare with December 2024?",
            hs.ST_MONTHS_2025,
            f"December 2025 shipment value was ${fm.num(months[12])}, up {fm.pct(mom[12])} year over year.",
            f"the change on November called year over year (truth: {fm.pct(true_yoy)})",
        ),
        (
            "stock",
            "What was Dallas's 2025 shipment value?",
            hs.total(hs.eq("warehouse", "Dallas"), hs.S25),
            f"Dallas shipped about ${off_k}K in 2025.",
            f"one step off in the last digit (truth {fm.num(dallas_k, 2)}K)",
        ),
        (
            "stock",
            "How did Reno's shipment value change year over year?",
            hs.warehouse_yoy("Reno"),
            f"Reno's shipment value increased {fm.pct(f.yoy['Reno'], sign=False)} year over year.",
            "a fall called an increase",
        ),
        (
            "stock",
            "Reno shipped more than 3,000 units in 2025, right?",
            hs.total(hs.eq("warehouse", "Reno"), hs.S25, aggregations=hs.UNITS),
            "Yes, Reno shipped more than 3,000 units in 2025.",
            f"the leading question confirmed (Reno shipped {reno_units:,})",
        ),
        (
            "staff",
            "2025 年 12 月入职人数同比增长多少？",
            hs.H_HIRES_2025_MONTHLY,
            f"2025 年 12 月入职 {dec} 人，同比增长 {fm.pct(h_mom)}。",
            f"the change on November called 同比 (truth: {fm.pct(h_yoy)})",
        ),
        (
            "staff",
            "市场部 2025 年入职人数同比变化？",
            hs.hires_by_year(hs.eq("部门", "市场部")),
            f"市场部 2025 年入职人数同比增长 {fm.pct(market_change, sign=False)}。",
            "a fall called an increase",
        ),
        (
            "staff",
            "研发部平均月薪有 3.5 万吧？",
            hs.dept_pay("研发部"),
            "对，研发部平均月薪约 3.5 万元。",
            f"the leading question confirmed (truth {fm.num(rd_wan)} 万)",
        ),
        (
            "staff",
            "员工离职率是多少？",
            hs.H_TURNOVER,
            f"离职率约 {off_rate}%。",
            f"one rounding step off (truth {fm.num(rate, 3)}%)",
        ),
        (
            "shop",
            "12 月订单金额同比增长多少？",
            hs.P_MONTHS,
            f"12 月订单金额同比增长 {fm.pct(shop_mom)}。",
            "month over month called 同比 (the data has no 2024 to compare with)",
        ),
    ]
    return _wrong("ho_change", "ho-change", cases)


def no_data() -> list[Scenario]:
    """Honest answers with no data claims: definitions, help, columns and periods the data does not have."""
    cases = [
        (
            "stock",
            "What is a damage rate?",
            [],
            "A damage rate is the share of shipped units that arrived damaged: damaged units divided by units "
            "shipped, usually shown as a percentage.",
        ),
        (
            "stock",
            "Break down shipment value by supplier.",
            schema("stock"),
            "This data has no supplier column (it has shipment date, warehouse, category, SKU, units, value and "
            "damaged units), so shipment value can't be split by supplier.",
        ),
        (
            "stock",
            "What will shipment value be in 2026?",
            schema("stock"),
            "The data only records past shipments and has no forecast, so shipment value for 2026 can't be computed "
            "from it.",
        ),
        (
            "staff",
            "各部门员工的平均年龄是多少？",
            schema("staff"),
            "数据中没有年龄或出生日期字段，无法计算平均年龄。可以改为按部门统计人数、平均月薪或入职时间。",
        ),
        (
            "staff",
            "怎么把这个报表设置成每周一自动发到邮箱？",
            [],
            "目前不支持定时发送邮件。可以在结果表格上方点击“下载”导出为 Excel，再手动发送。",
        ),
        (
            "staff",
            "环比和同比有什么区别？",
            [],
            "环比是和上一个相邻周期比较（例如本月对上月）；同比是和上一年的同一周期比较（例如今年 3 月对去年 3 月）。",
        ),
        (
            "shop",
            "各用户的会员等级分布如何？",
            schema("shop", table="用户"),
            "用户表的字段是 用户ID、姓名、城市、注册日期，没有会员等级，无法统计会员等级分布。",
        ),
    ]
    return [
        Scenario(f"ho-nodata-{n}", "ho_no_data", "no_data", source, question, [*turns, *answer(draft)], draft)
        for n, (source, question, turns, draft) in enumerate(cases, start=1)
    ]
