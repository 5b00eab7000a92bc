"""Correct answers over 门诊就诊 and clinic.db, written the way analysts write them: 万元 and ¥k, counts with
and without separators, percentages, months and room codes that look like numbers, a follow-up over an earlier
turn's table, references into a result. Answers that work a number out themselves (a sum of rows, a difference,
an average, a ratio) are wrong answers: see heldout4_wrong.derived. Truth: heldout4_facts.py."""

from __future__ import annotations

from decimal import Decimal

from benchmarks.trust import heldout4_specs as s
from benchmarks.trust.formats import num, pct
from benchmarks.trust.heldout4_facts import Facts4
from benchmarks.trust.script import Scenario

P = "h4_correct"


def _c(id: str, source: str, question: str, turns: list, **kw: object) -> Scenario:
    return Scenario(id, P, "correct", source, question, turns, **kw)  # type: ignore[arg-type]


def _change(new: Decimal, old: Decimal) -> Decimal:
    return (new - old) / old


def spreadsheet(f: Facts4) -> list[Scenario]:
    (c1, v1), (c2, v2), (c3, v3) = f.campus_fee
    (d1, a1), (d2, a2) = f.dept_avg_fee[:2]
    q_change = _change(f.q4_fee, f.q3_fee)
    rooms = f.room_fee[:3]
    history = [
        {
            "question": "2025年各院区的门诊费用合计是多少？",
            "answer": "；".join(f"{c} {s.yuan(v)}" for c, v in f.campus_fee) + "。",
            "tables": [{"columns": ["院区", "费用"], "rows": [[c, float(v)] for c, v in f.campus_fee]}],
        }
    ]
    east_dec = f.campus_dec_fee["东院"]
    return [
        _c(
            "h4c03",
            "clinic",
            "2025年哪个科室的次均费用最高？",
            s.file_run(
                s.DEPT_AVG_2025,
                f"{d1}次均费用最高，约 {num(a1, 0)} 元/人次（共 {dict(f.dept_visits)[d1]} 人次）；"
                f"{d2}以 {num(a2)} 元紧随其后。",
            ),
        ),
        _c(
            "h4c06",
            "clinic",
            "2025年四季度的费用比三季度涨了还是跌了？",
            s.file_run(
                s.QUARTERS_2025,
                f"四季度费用 {s.wan(f.q4_fee)}，三季度 {s.wan(f.q3_fee)}，"
                f"{'跌了' if q_change < 0 else '涨了'}，环比{'下降' if q_change < 0 else '上升'} "
                f"{pct(abs(q_change))}。",
            ),
        ),
        _c(
            "h4c07",
            "clinic",
            "2025年费用最高的三个诊室是哪几个？",
            s.file_run(
                s.rooms(3),
                "按2025年费用合计：\n"
                + "\n".join(f"{i}. {room} 诊室：{s.yuan(v)}" for i, (room, v) in enumerate(rooms, start=1)),
            ),
        ),
        _c(
            "h4c10",
            "clinic",
            "那2024年下半年呢？",
            s.file_run(
                s.CAMPUS_FEE_H2_2024,
                "2024年下半年（2024-07 至 2024-12）各院区费用："
                + "，".join(f"{c} {s.yuan(v)}" for c, v in f.campus_fee_h2_2024)
                + "。",
            ),
            history=history,
        ),
        _c(
            "h4c11",
            "clinic",
            "2025年医保支付了多少？占费用的比例是多少？",
            s.file_run(
                s.INSURED_2025,
                f"2025年医保支付合计 {s.wan(f.insured)}，占费用总额 {s.wan(f.total_fee)} 的 "
                f"{pct(f.insured / f.total_fee)}。",
            ),
        ),
        _c(
            "h4c12",
            "clinic",
            "给我一个2025年各科室就诊人次的排名",
            s.file_run(
                s.DEPT_VISITS_2025,
                "2025年各科室就诊人次：\n"
                + "\n".join(f"{i + 1}. {{{{q1.科室[{i}]}}}}：{{{{q1.人次[{i}]}}}} 人次" for i in range(5)),
            ),
            shows=tuple(Decimal(n) for _d, n in f.dept_visits),
        ),
        _c(
            "h4c13",
            "clinic",
            "东院2025年12月的费用是多少？",
            s.file_run(
                s.EAST_DEC_2025,
                f"东院2025年12月的门诊费用为 {s.yuan(east_dec)}。",
            ),
        ),
    ]


def database(f: Facts4) -> list[Scenario]:
    (c1, v1), (c2, v2), (c3, v3) = f.db_campus_fee
    (m1, f1), (m2, f2) = f.db_month_fee[:2]
    return [
        _c(
            "h4c14",
            "clinicdb",
            "What were total fees by campus in 2025?",
            s.db_run(
                s.DB_CAMPUS,
                f"In 2025 {c1} campus led with {s.k(v1)}, followed by {c2} ({s.k(v2)}) and {c3} ({s.k(v3)}).",
            ),
        ),
        _c(
            "h4c15",
            "clinicdb",
            "Which month of 2025 brought in the most fees?",
            s.db_run(s.DB_MONTHS, f"{m1} was the top month at {num(f1)} yuan, ahead of {m2} ({num(f2)} yuan)."),
        ),
        _c(
            "h4c16",
            "clinicdb",
            "How many different patients did Pediatrics see in 2025, and how many visits was that?",
            s.db_run(
                s.DB_PED,
                f"Pediatrics saw {f.db_ped_patients} distinct patients in 2025, across {f.db_ped_visits} visits.",
            ),
        ),
    ]


def correct(f: Facts4) -> list[Scenario]:
    return [*spreadsheet(f), *database(f)]
