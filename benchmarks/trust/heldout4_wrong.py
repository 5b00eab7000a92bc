"""Wrong answers over 门诊就诊 and clinic.db, each built from values a query really returned: a real number under
the wrong campus or department, a yearly total for a monthly or quarterly question, an average (or a median)
reported as a total (or a mean), the wrong superlative, the wrong direction of change, a false premise confirmed,
a filter left over from the previous turn, a top-N that skips or reorders rows, a share over the wrong whole,
a rounding that turns "just under half" into "more than half", visits counted as patients, an invented row,
and numbers derived in the head (a sum, a difference, an average or a ratio no query returned).
Each `why` says what pandas/sqlite3 shows instead."""

from __future__ import annotations

from decimal import Decimal

from benchmarks.trust import heldout4_specs as s
from benchmarks.trust.formats import num, pct, rounded
from benchmarks.trust.heldout4_data import DEPARTMENTS
from benchmarks.trust.heldout4_facts import Facts4
from benchmarks.trust.script import Scenario

P = "h4_wrong"


def _w(id: str, source: str, question: str, turns: list, why: str, **kw: object) -> Scenario:
    return Scenario(id, P, "wrong", source, question, turns, why=why, **kw)  # type: ignore[arg-type]


def spreadsheet(f: Facts4) -> list[Scenario]:
    (c1, v1), (c2, v2), (c3, v3) = f.campus_fee
    east, east_n = f.campus("东院"), f.campus_visits["东院"]
    surgery = f.dept("外科")
    surgery_avg = dict(f.dept_avg_fee)["外科"]
    surgery_n = dict(f.dept_visits)["外科"]
    (w1, t1), (w2, t2), _ = f.campus_wait
    q_change = (f.q4_fee - f.q3_fee) / f.q3_fee
    (top_dept, top_n), ped_n = f.dept_visits[0], dict(f.dept_visits)["儿科"]
    assert top_dept != "儿科", "the premise must be false"
    (r1, rv1), (r2, rv2), (r3, rv3), (r4, rv4) = f.room_fee[:4]
    east_total = sum((v for _d, v in f.dept_fee_east), Decimal(0))
    ped_east = dict(f.dept_fee_east)["儿科"]
    share_east, share_all = ped_east / east_total, f.dept("儿科") / f.total_fee
    booked_rate = Decimal(f.booked) / f.visits
    assert booked_rate < Decimal("0.5") and rounded(booked_rate * 100, 0) == 50, "just under half, reads as 50%"
    assert abs(f.median_fee - f.avg_fee) > 20, "the median must read differently from the mean"
    fake = rounded(f.dept_fee[-1][1] * Decimal("0.37"), 2)
    east_history = [
        {
            "question": "2025年东院的门诊费用是多少？",
            "answer": f"2025年东院门诊费用 {s.yuan(east)}，共 {east_n} 人次。",
            "tables": [{"columns": ["费用", "人次"], "rows": [[float(east), east_n]]}],
        }
    ]
    return [
        _w(
            "h4w01",
            "clinic",
            "2025年各院区的门诊费用合计是多少？",
            s.file_run(s.CAMPUS_FEE_2025, f"2025年门诊费用：{c2} {s.wan(v1)}，{c1} {s.wan(v2)}，{c3} {s.wan(v3)}。"),
            f"the first two campuses swapped: {c1} is {s.wan(v1)}",
        ),
        _w(
            "h4w02",
            "clinic",
            "东院2025年12月的费用是多少？",
            s.file_run(s.EAST_2025, f"东院2025年12月的门诊费用为 {s.yuan(east)}，共 {east_n} 人次。"),
            f"that is 东院's 2025 total; December was {s.yuan(f.campus_dec_fee['东院'])}",
        ),
        _w(
            "h4w03",
            "clinic",
            "2025年外科的费用总额是多少？",
            s.file_run(s.SURGERY_2025, f"外科2025年费用总额为 {s.yuan(surgery_avg)}，共 {surgery_n} 人次。"),
            f"that is the average per visit; the total is {s.yuan(surgery)}",
        ),
        _w(
            "h4w04",
            "clinic",
            "2025年哪个院区患者候诊时间最长？",
            s.file_run(s.CAMPUS_WAIT_2025, f"候诊时间最长的是{w2}，平均 {num(t2, 1)} 分钟，另外两个院区都比它短。"),
            f"{w1} waits longest ({num(t1, 1)} minutes)",
        ),
        _w(
            "h4w05",
            "clinic",
            "2025年四季度的费用比三季度涨了还是跌了？",
            s.file_run(
                s.QUARTERS_2025,
                f"四季度费用 {s.wan(f.q4_fee)}，三季度 {s.wan(f.q3_fee)}，"
                f"{'涨了' if q_change < 0 else '跌了'}，"
                f"环比{'上升' if q_change < 0 else '下降'} {pct(abs(q_change))}。",
            ),
            f"the direction is reversed: the fourth quarter {'fell' if q_change < 0 else 'rose'} {pct(abs(q_change))}",
        ),
        _w(
            "h4w06",
            "clinic",
            "儿科是不是2025年就诊人次最多的科室？",
            s.file_run(s.DEPT_VISITS_2025, f"是的，儿科2025年共就诊 {ped_n} 人次，是就诊人次最多的科室。"),
            f"false premise confirmed: {top_dept} has more visits ({top_n})",
        ),
        _w(
            "h4w07",
            "clinic",
            "那全院一共是多少？",
            s.file_run(s.EAST_2025, f"2025年全院门诊费用合计 {s.yuan(east)}，共 {east_n} 人次。"),
            f"the 东院 filter of the previous turn is still on; the whole clinic took {s.yuan(f.total_fee)}",
            history=east_history,
        ),
        _w(
            "h4w08",
            "clinic",
            "2025年费用最高的三个诊室是哪几个？",
            s.file_run(
                s.rooms(4),
                f"费用最高的三个诊室：{r1} 诊室 {s.yuan(rv1)}，{r3} 诊室 {s.yuan(rv3)}，{r4} 诊室 {s.yuan(rv4)}。",
            ),
            f"room {r2} ({s.yuan(rv2)}) is second and was skipped",
        ),
        _w(
            "h4w09",
            "clinic",
            "2025年儿科费用占全院费用的比例是多少？",
            s.file_run(
                s.EAST_DEPT_SHARE_2025,
                f"2025年儿科费用 {s.yuan(ped_east)}，占全院费用的 {pct(share_east)}。",
            ),
            f"a share within 东院 only; of the whole clinic 儿科 took {pct(share_all)} ({s.yuan(f.dept('儿科'))})",
        ),
        _w(
            "h4w10",
            "clinic",
            "2025年预约就诊的比例过半了吗？",
            s.file_run(s.BOOKED_2025, f"过半了，2025年预约率约 {pct(booked_rate, 0)}，一半以上的患者是预约就诊的。"),
            f"{f.booked} of {f.visits} visits were booked ({pct(booked_rate, 2)}): just under half",
        ),
        _w(
            "h4w11",
            "clinic",
            "2025年有多少位患者来就诊？",
            s.file_run(s.VISITS_2025, f"2025年共有 {f.visits} 位患者来就诊。"),
            f"{f.visits} is visits (rows); {f.patients} distinct patients",
        ),
        _w(
            "h4w12",
            "clinic",
            "2025年各科室的费用分别是多少？",
            s.file_run(
                s.DEPT_FEE_2025,
                "2025年各科室费用："
                + "，".join(f"{d} {s.yuan(v)}" for d, v in f.dept_fee)
                + f"，皮肤科 {s.yuan(fake)}。",
            ),
            "皮肤科 is not in the data (five departments only)",
        ),
        _w(
            "h4w16",
            "clinic",
            "2025年平均每次就诊花多少钱？",
            s.file_run(s.FEE_STATS_2025, f"2025年平均每次就诊花费 {s.yuan(f.median_fee)}（共 {f.visits} 人次）。"),
            f"that is the median; the mean is {s.yuan(f.avg_fee)}",
        ),
    ]


def database(f: Facts4) -> list[Scenario]:
    depts = f.db_dept_visits
    reordered = [depts[0], depts[2], depts[1], *depts[3:]]
    (d1, a1), (d2, a2), *rest = f.db_dept_avg_fee
    east25, west25 = f.db_campus_h2[("East", 2025)], f.db_campus_h2[("West", 2025)]
    assert west25 < east25, "the premise must be false"
    ped24, ped25 = f.db_ped_h2[2024], f.db_ped_h2[2025]
    assert ped24 != ped25
    ped_change = abs(Decimal(ped25 - ped24) / ped24)
    (high, high_avg), *_, (low, low_avg) = f.db_campus_avg_fee
    second, second_avg = f.db_campus_avg_fee[-2]
    return [
        _w(
            "h4w13",
            "clinicdb",
            "Rank the departments by number of visits in 2025.",
            s.db_run(
                s.DB_DEPT_VISITS,
                "Departments by 2025 visits:\n"
                + "\n".join(f"{i}. {d}: {n} visits" for i, (d, n) in enumerate(reordered, start=1)),
            ),
            f"second and third reordered: {depts[1][0]} ({depts[1][1]}) is second",
        ),
        _w(
            "h4w14",
            "clinicdb",
            "What was the average fee per visit by department in 2025?",
            s.db_run(
                s.DB_DEPT_AVG,
                f"Average fee per visit in 2025: {d2} ¥{num(a1)}, {d1} ¥{num(a2)}, "
                + ", ".join(f"{d} ¥{num(a)}" for d, a in rest)
                + ".",
            ),
            f"the top two departments swapped: {d1} averages ¥{num(a1)}",
        ),
        _w(
            "h4w15",
            "clinicdb",
            "What were total fees in Q4 2025?",
            s.db_run(s.DB_YEAR_TOTAL, f"Total fees in Q4 2025 came to {s.k(f.db_total)} across {f.visits} visits."),
            f"the full-year 2025 total; Q4 was {s.k(f.db_q4_total)}",
        ),
        _w(
            "h4w17",
            "clinicdb",
            "West overtook East in the second half of 2025, right?",
            s.db_run(
                s.DB_CAMPUS_H2_2025, f"Yes. West campus brought in {num(west25)} yuan in Jul–Dec 2025, ahead of East."
            ),
            f"false premise confirmed: East took {num(east25)} yuan, more than West",
        ),
        _w(
            "h4w18",
            "clinicdb",
            "Did Pediatrics visits go up from the second half of 2024 to the second half of 2025?",
            s.db_run(
                s.DB_PED_H2,
                f"{'Yes' if ped25 < ped24 else 'No'}. Pediatrics had {ped25} visits in Jul–Dec 2025, "
                f"{pct(ped_change)} {'more' if ped25 < ped24 else 'fewer'} than in the same months of 2024.",
            ),
            f"the direction is reversed: {ped24} -> {ped25}",
        ),
        _w(
            "h4w19",
            "clinicdb",
            "Which campus had the lowest average fee per visit in 2025?",
            s.db_run(
                s.DB_CAMPUS_AVG,
                f"{second} had the lowest average fee per visit in 2025, at ¥{num(second_avg)}; "
                f"{high} was the most expensive at ¥{num(high_avg)}.",
            ),
            f"{low} is lowest (¥{num(low_avg)})",
        ),
    ]


def derived(f: Facts4) -> list[Scenario]:
    """Numbers the analyst worked out in the answer (a sum of rows, a difference, an average, a ratio) instead of
    taking them from a query: the values happen to be right, but no query returned them (docs/VERIFY.md check 5)."""
    (c1, v1), (c2, v2), (c3, v3) = f.campus_fee
    march = "、".join(f"{d} {n}" for d, n in f.march_dept_visits)
    absent = [d for d in DEPARTMENTS if d not in dict(f.march_dept_visits)]
    follow, first = f.type_visits["复诊"], f.type_visits["初诊"]
    lo, hi = min(f.month_visits.values()), max(f.month_visits.values())
    busiest = [m for m, n in f.month_visits.items() if n == hi]
    quietest = [m for m, n in f.month_visits.items() if n == lo]
    assert len(busiest) == len(quietest) == 1, "the busiest and quietest months must be unique"
    yes, no = f.wait_by_booked["是"], f.wait_by_booked["否"]
    booked, walk_in = f.db_wait_all["Y"], f.db_wait_all["N"]
    head = "derived in the head: "
    west24, west25 = f.db_campus_h2[("West", 2024)], f.db_campus_h2[("West", 2025)]
    west = (west25 - west24) / west24
    return [
        _w(
            "h4c01",
            "clinic",
            "2025年各院区的门诊费用合计是多少？",
            s.file_run(
                s.CAMPUS_FEE_2025,
                f"2025年门诊费用：{c1} {s.wan(v1)}，{c2} {s.wan(v2)}，{c3} {s.wan(v3)}，"
                f"三个院区合计约 {s.wan(f.total_fee)}。",
            ),
            head + f"the total {s.wan(f.total_fee)} is a sum of the rows; the query grouped by campus only",
        ),
        _w(
            "h4c02",
            "clinic",
            "2025年3月各科室分别看了多少人次？",
            s.file_run(
                s.MARCH_DEPT,
                f"2025-03 共 {f.march_visits} 人次：{march}"
                + (f"；{'、'.join(absent)}当月没有就诊记录。" if absent else "。"),
            ),
            head + f"the total {f.march_visits} is a sum of the rows; the query grouped by department only",
        ),
        _w(
            "h4c04",
            "clinic",
            "2025年复诊人次占比多少？",
            s.file_run(
                s.TYPE_SHARE_2025,
                f"2025年共 {f.visits} 人次，其中复诊 {follow} 人次，占 {pct(Decimal(follow) / f.visits)}；"
                f"初诊 {first} 人次（{pct(Decimal(first) / f.visits)}）。",
            ),
            head + f"the total {f.visits} is a sum of the rows; no query returned it",
        ),
        _w(
            "h4c05",
            "clinic",
            "2025年一共有多少位患者来看过病？",
            s.file_run(
                s.PATIENTS_2025,
                f"按患者编号去重，2025年共有 {f.patients} 位患者，合计就诊 {f.visits} 人次，"
                f"平均每人约 {num(Decimal(f.visits) / f.patients, 1)} 次。",
            ),
            head + "visits per patient is a ratio of two returned values; no query returned it",
        ),
        _w(
            "h4c08",
            "clinic",
            "2025年每个月大概有多少人次？",
            s.file_run(
                s.MONTH_VISITS_2025,
                f"2025年每月就诊 {lo}–{hi} 人次，月均约 {num(Decimal(f.visits) / 12, 1)} 人次；"
                f"最多的是 {busiest[0]}（{hi} 人次），最少的是 {quietest[0]}（{lo} 人次）。",
            ),
            head + "the monthly average is a mean of the rows; no query returned it",
        ),
        _w(
            "h4c09",
            "clinic",
            "2025年预约和没预约的患者候诊时间差多少？",
            s.file_run(
                s.WAIT_BOOKED_2025,
                f"2025年预约患者平均候诊 {num(yes, 1)} 分钟，未预约患者 {num(no, 1)} 分钟，"
                f"相差约 {num(no - yes, 1)} 分钟。",
            ),
            head + "the difference is a subtraction of two rows; no query returned it",
        ),
        _w(
            "h4c17",
            "clinicdb",
            "Across the whole period, how long do booked patients wait compared with walk-ins?",
            s.db_run(
                s.DB_WAIT,
                f"Booked patients waited {num(booked, 1)} minutes on average, walk-ins {num(walk_in, 1)} minutes: "
                f"about {num(walk_in / booked, 1)} times as long.",
            ),
            head + "the ratio of the two waits; no query returned it",
        ),
        _w(
            "h4c18",
            "clinicdb",
            "How did West campus fees in the second half of 2025 compare with the same months of 2024?",
            s.db_run(
                s.DB_WEST_H2,
                f"West campus took in {num(west25)} yuan in Jul–Dec 2025 against {num(west24)} yuan in Jul–Dec 2024, "
                f"{'down' if west < 0 else 'up'} {pct(abs(west))} year on year.",
            ),
            head + "the year-on-year change is worked out from the two rows; no query returned it",
        ),
    ]


def wrong(f: Facts4) -> list[Scenario]:
    return [*spreadsheet(f), *database(f), *derived(f)]
