"""Verify: whole classes of wrong answers built from real result values (the aggregation behind a number, the scope
and the period of its query, the order of a ranking, yes/no and "more than half" answers), and the correct answers
next to them that must pass. Scripted inputs over a hotel's stays."""

from __future__ import annotations

from apps.agent.verification.check import EarlierTurn, ToolCallRecord, VerifyInput, verify
from apps.agent.verification.vocabulary import Vocabulary
from tests.agent.test_verification_claims import run as query
from tests.agent.test_verification_claims import tool_result

HOTELS = ["湖景店", "山顶店", "码头店"]
VOCAB = Vocabulary.from_profiles(
    [
        {
            "columns": [
                {"name": "入住月份", "kind": "text", "role": "time", "values": ["2024-01", "2024-12"]},
                {"name": "门店", "kind": "text", "role": "dimension", "values": HOTELS},
                {"name": "房型", "kind": "text", "role": "dimension", "values": ["大床", "双床", "套房"]},
                {"name": "房号", "kind": "integer", "role": "id"},
                {"name": "客人编号", "kind": "text", "role": "id"},
                {"name": "房费", "kind": "number", "role": "measure"},
            ]
        }
    ]
)
SCHEMA = ToolCallRecord(step=1, name="get_schema", status="ok", columns=["column"], rows=[["门店"]], row_count=1)
Y2024 = {"column": "入住月份", "op": "between", "value": ["2024-01", "2024-12"]}


def sql(text, columns, rows, step=2):
    return tool_result("execute_sql_safe", {"sql": text}, columns, rows, step)


def check(question, draft, *calls, earlier=(), source="file"):
    return verify(
        VerifyInput(
            question=question,
            draft=draft,
            tool_calls=[SCHEMA, *calls] if source == "file" else list(calls),
            vocabulary=VOCAB,
            source_type=source,
            earlier=list(earlier),
        )
    )


def codes(verdict):
    return [r.code for r in verdict.reasons]


# --- the aggregation word beside a number -------------------------------------------------------------

STATS = query(
    {
        "filters": [Y2024],
        "aggregations": [
            {"name": "房费合计", "func": "sum", "column": "房费"},
            {"name": "平均房费", "func": "avg", "column": "房费"},
            {"name": "房费中位数", "func": "median", "column": "房费"},
            {"name": "入住次数", "func": "count"},
            {"name": "客人数", "func": "nunique", "column": "客人编号"},
        ],
    },
    ["房费合计", "平均房费", "房费中位数", "入住次数", "客人数"],
    [[90876.5, 605.84, 488.0, 150, 97]],
)


def test_a_number_under_another_aggregation_word_is_mislabeled():
    wrong = [
        "2024年房费总额为 605.84 元。",  # the average as a total
        "2024年平均每晚房费 488.00 元。",  # the median as the average
        "2024年房费的中位数是 605.84 元。",  # the average as the median
        "2024年共接待 150 位客人。",  # stays counted as guests
        "2024年共有 97 人次入住。",  # guests counted as stays
    ]
    for draft in wrong:
        assert "mislabeled_value" in codes(check("2024年的房费情况如何？", draft, STATS)), draft
    right = "2024年房费合计 90,876.50 元，平均每次 605.84 元，中位数 488.00 元；共 150 人次、97 位客人。"
    assert check("2024年的房费情况如何？", right, STATS).passed


def test_sql_aggregates_are_read_for_their_words():
    stays = sql(
        "SELECT COUNT(DISTINCT guest_id) AS guests, COUNT(*) AS stays, AVG(rate) AS avg_rate FROM stays",
        ["guests", "stays", "avg_rate"],
        [[97, 150, 605.84]],
    )
    assert check("How many guests stayed?", "97 distinct guests; 150 stays.", stays, source="sql").passed
    wrong = check("How many guests stayed?", "In total 150 distinct guests stayed.", stays, source="sql")
    assert "mislabeled_value" in codes(wrong)
    total = check("What was the room revenue?", "Room revenue totalled 605.84 in all.", stays, source="sql")
    assert "mislabeled_value" in codes(total)


def test_the_lowest_average_named_by_its_column_must_be_the_lowest_average():
    by_hotel = sql(
        "SELECT hotel, AVG(rate) AS avg_rate, COUNT(*) AS stays FROM stays GROUP BY hotel ORDER BY avg_rate",
        ["hotel", "avg_rate", "stays"],
        [["湖景店", 449.77, 120], ["码头店", 512.4, 95], ["山顶店", 688.1, 80]],
    )
    question = "Which hotel had the lowest average rate per stay?"
    wrong = check(question, "码头店 had the lowest average rate per stay, at 512.40.", by_hotel, source="sql")
    assert "mislabeled_value" in codes(wrong)
    right = check(question, "湖景店 had the lowest average rate per stay, at 449.77.", by_hotel, source="sql")
    assert right.passed, right.reasons


# --- a figure of one part presented as the whole --------------------------------------------------------

LAKE_2024 = query(
    {
        "filters": [{"column": "门店", "op": "=", "value": "湖景店"}, Y2024],
        "aggregations": [{"name": "房费", "func": "sum", "column": "房费"}],
    },
    ["房费"],
    [[31234.5]],
)


def test_a_filter_the_question_does_not_ask_for_is_not_the_whole():
    earlier = [
        EarlierTurn(question="2024年湖景店的房费是多少？", answer="31,234.50 元", tables=[(["房费"], [[31234.5]])])
    ]
    wrong = check("那所有门店加起来呢？", "2024年所有门店房费合计 31,234.50 元。", LAKE_2024, earlier=earlier)
    assert "mislabeled_value" in codes(wrong)
    kept = check("那2024年湖景店全年呢？", "2024年湖景店全年房费 31,234.50 元。", LAKE_2024, earlier=earlier)
    assert kept.passed


def test_a_share_within_a_subset_is_not_a_share_of_the_whole():
    within = query(
        {
            "filters": [{"column": "门店", "op": "=", "value": "山顶店"}, Y2024],
            "group_by": ["房型"],
            "aggregations": [{"name": "房费", "func": "sum", "column": "房费"}],
            "windows": [{"name": "占比", "func": "share_of_total", "of": "房费"}],
        },
        ["房型", "房费", "占比"],
        [["套房", 9000.0, 0.6], ["大床", 6000.0, 0.4]],
    )
    question = "2024年套房房费占整体的比例？"
    assert "mislabeled_value" in codes(check(question, "2024年套房房费占整体的 60.0%。", within))
    assert check("2024年山顶店套房房费占比？", "2024年山顶店套房房费占该店整体的 60.0%。", within).passed


# --- yes to a leading superlative, "more than half", the order of a numbered list ------------------------

BY_HOTEL = query(
    {
        "filters": [Y2024],
        "group_by": ["门店"],
        "aggregations": [{"name": "入住次数", "func": "count"}],
        "sort": [{"by": "入住次数", "desc": True}],
    },
    ["门店", "入住次数"],
    [["山顶店", 420], ["码头店", 388], ["湖景店", 301]],
)


def test_yes_to_a_leading_superlative_must_agree_with_the_ranking():
    question = "码头店是不是2024年入住次数最多的门店？"
    wrong = check(question, "是的，码头店2024年入住 388 次。", BY_HOTEL)
    assert "mislabeled_value" in codes(wrong)
    right = check("山顶店是不是2024年入住次数最多的门店？", "是的，山顶店2024年入住 420 次，排名第一。", BY_HOTEL)
    assert right.passed
    honest = check(question, "不是。2024年入住次数最多的是山顶店（420 次），码头店 388 次。", BY_HOTEL)
    assert honest.passed


def test_more_than_half_must_agree_with_the_share():
    rate = query(
        {
            "filters": [Y2024],
            "aggregations": [
                {"name": "续住人次", "func": "count", "where": [{"column": "房型", "op": "=", "value": "套房"}]},
                {"name": "人次", "func": "count"},
            ],
            "derived": [{"name": "续住率", "expr": "续住人次 / 人次"}],
        },
        ["续住人次", "人次", "续住率"],
        [[203, 410, 0.4951]],
    )
    question = "2024年续住率过半了吗？"
    assert "mislabeled_value" in codes(check(question, "过半了，续住率约 50%。", rate))
    assert "mislabeled_value" in codes(check(question, "Yes, the majority: 50% of stays.", rate))
    assert check(question, "没有过半，续住率为 49.5%，略低于一半。", rate).passed


def test_a_numbered_list_follows_the_order_of_its_sorted_result():
    question = "2024年各门店入住次数排名"
    swapped = "2024年各门店入住次数：\n1. 山顶店：420 次\n2. 湖景店：301 次\n3. 码头店：388 次"
    assert "mislabeled_value" in codes(check(question, swapped, BY_HOTEL))
    ordered = "2024年各门店入住次数：\n1. 山顶店：420 次\n2. 码头店：388 次\n3. 湖景店：301 次"
    assert check(question, ordered, BY_HOTEL).passed


def test_a_list_is_not_held_to_rows_that_are_not_in_sorted_order():
    unordered = query(
        BY_HOTEL.arguments["spec"], ["门店", "入住次数"], [["湖景店", 301], ["山顶店", 420], ["码头店", 388]]
    )
    draft = "2024年各门店入住次数：\n1. 山顶店：420 次\n2. 码头店：388 次\n3. 湖景店：301 次"
    assert check("2024年各门店入住次数排名", draft, unordered).passed


# --- a numeric grouping key is a label ---------------------------------------------------------------------


def test_a_numeric_group_key_written_beside_its_value_is_a_label():
    rooms = query(
        {
            "filters": [Y2024],
            "group_by": ["房号"],
            "aggregations": [{"name": "房费", "func": "sum", "column": "房费"}],
            "sort": [{"by": "房费", "desc": True}],
            "limit": 2,
        },
        ["房号", "房费"],
        [[808, 12034.5], [615, 9988.25]],
    )
    vocab = Vocabulary.from_profiles(
        [
            {
                "columns": [
                    {"name": "房号", "kind": "integer", "role": "measure"},
                    {"name": "房费", "kind": "number", "role": "measure"},
                ]
            }
        ]
    )
    draft = "房费最高的两间房：\n1. 808 房号：12,034.50 元\n2. 615 房号：9,988.25 元"
    verdict = verify(
        VerifyInput(question="2024年房费最高的两间房", draft=draft, tool_calls=[SCHEMA, rooms], vocabulary=vocab)
    )
    assert verdict.passed, verdict.reasons


def test_a_numeric_group_key_after_its_name_is_a_label_and_names_its_row():
    weeks = query(
        {
            "group_by": ["Week"],
            "aggregations": [{"name": "total Attendance", "func": "sum", "column": "Attendance"}],
            "sort": [{"by": "total Attendance", "desc": True}],
        },
        ["Week", "total Attendance"],
        [[7, 72000], [3, 68364], [9, 65000], [5, 61000]],
    )
    vocab = Vocabulary.from_profiles(
        [
            {
                "columns": [
                    {"name": "Week", "kind": "integer", "role": "measure"},
                    {"name": "Attendance", "kind": "integer", "role": "measure"},
                ]
            }
        ]
    )

    def passed(draft):
        question = "what week had the most attendance?"
        return verify(VerifyInput(question=question, draft=draft, tool_calls=[SCHEMA, weeks], vocabulary=vocab)).passed

    assert passed("The highest total Attendance is in Week 7 (total Attendance 72,000).")
    assert passed("1. Week 7: total Attendance 72,000\n2. Week 3: total Attendance 68,364")
    for wrong in (
        "The highest total Attendance is in Week 3 (total Attendance 72,000).",  # 72,000 is Week 7's
        "Week 9 had the highest total Attendance: 72,000.",
        "The highest total Attendance is 72,000, in Week 9.",
        "The highest total Attendance is in Week 61000.",  # not a week at all
    ):
        assert not passed(wrong), wrong


def test_a_superlative_said_on_a_column_is_applied_only_by_ranking_that_column():
    """ "the team with the most wins": a ranking by Goals that shows total Wins beside it answers another question,
    however real its numbers; ranked by Wins (its sum, a sort on it, or its max) it passes."""
    vocab = Vocabulary.from_profiles(
        [
            {
                "columns": [
                    {"name": "Team", "kind": "text", "role": "dimension", "values": ["Alpha", "Beta", "Gamma"]},
                    {"name": "Wins", "kind": "integer", "role": "measure"},
                    {"name": "Goals", "kind": "integer", "role": "measure"},
                ]
            }
        ]
    )
    sums = [
        {"name": "total Goals", "func": "sum", "column": "Goals"},
        {"name": "total Wins", "func": "sum", "column": "Wins"},
    ]

    def ranked(by, rows):
        spec = {"group_by": ["Team"], "aggregations": sums, "sort": [{"by": by, "desc": True}], "limit": 1}
        return query(spec, ["Team", "total Goals", "total Wins"], rows)

    def passed(question, draft, call):
        return verify(VerifyInput(question=question, draft=draft, tool_calls=[SCHEMA, call], vocabulary=vocab)).passed

    question = "which team had the most wins?"
    by_goals = ranked("total Goals", [["Alpha", 40, 3]])
    assert not passed(
        question, "The Team with the highest total Goals is Alpha (total Goals 40, total Wins 3).", by_goals
    )
    by_wins = ranked("total Wins", [["Beta", 33, 5]])
    assert passed(question, "The Team with the highest total Wins is Beta (total Wins 5, total Goals 33).", by_wins)
    largest = query({"aggregations": [{"name": "max Wins", "func": "max", "column": "Wins"}]}, ["max Wins"], [[5]])
    assert passed("what is the highest wins?", "max Wins is 5.", largest)
    assert not passed("Goals最多的Team是哪个？", "Wins合计最高的Team是Beta（Wins合计 5）。", by_wins)


def test_an_extreme_in_a_single_period_is_the_best_period_total_not_the_largest_row():
    """ "the most 房费 in a single month": one month's total, the best month; the largest single stay passes no
    longer, however real its number."""
    question = "what is the most 房费 in a single month?"
    row = query(
        {"columns": ["入住月份", "门店", "房费"], "sort": [{"by": "房费", "desc": True}], "limit": 1},
        ["入住月份", "门店", "房费"],
        [["2024-03", "湖景店", 980]],
    )
    assert not check(question, "Records with the highest 房费: 1. 2024-03 · 湖景店: 房费 980", row).passed
    monthly = query(
        {
            "group_by": ["入住月份"],
            "aggregations": [{"name": "total 房费", "func": "sum", "column": "房费"}],
            "sort": [{"by": "total 房费", "desc": True}],
            "limit": 1,
        },
        ["入住月份", "total 房费"],
        [["2024-03", 15400]],
    )
    verdict = check(question, "The 入住月份 with the highest total 房费 is 2024-03 (total 房费 15,400).", monthly)
    assert verdict.passed, verdict.reasons


def test_the_column_a_threshold_counts_with_is_the_one_named_before_it():
    """ "won at least 4 matches" filters Won; filtering Matches >= 4 instead reads the wrong column."""
    vocab = Vocabulary.from_profiles(
        [
            {
                "columns": [
                    {"name": "Team", "kind": "text", "role": "dimension", "values": ["Canada", "Sweden"]},
                    {"name": "Matches", "kind": "integer", "role": "measure"},
                    {"name": "Won", "kind": "integer", "role": "measure"},
                ]
            }
        ]
    )

    def passed(column):
        spec = {
            "filters": [{"column": column, "op": ">=", "value": 4}],
            "aggregations": [{"name": "distinct Team", "func": "nunique", "column": "Team"}],
        }
        call = query(spec, ["distinct Team"], [[3]])
        question = "how many teams won at least 4 matches?"
        draft = f"distinct Team is 3.\nFilters: {column} >= 4."
        return verify(VerifyInput(question=question, draft=draft, tool_calls=[SCHEMA, call], vocabulary=vocab)).passed

    assert passed("Won") and not passed("Matches")


def test_what_the_question_leaves_out_is_never_the_only_thing_kept():
    """ "不含退货的销售额", "excluding 2022": a query that keeps only the returned orders, or only 2022, answers the
    opposite question; leaving them out passes."""
    vocab = Vocabulary.from_profiles(
        [
            {
                "columns": [
                    {"name": "日期", "kind": "date", "role": "time", "min": "2024-01-01", "max": "2025-12-31"},
                    {"name": "地区", "kind": "text", "role": "dimension", "values": ["华东", "华南"]},
                    {"name": "是否退货", "kind": "text", "role": "dimension", "values": ["是", "否"]},
                    {"name": "金额", "kind": "number", "role": "measure"},
                    {"name": "Season", "kind": "integer", "role": "time", "min": 2015, "max": 2023},
                ]
            }
        ]
    )

    def passed(question, filters, draft):
        spec = {"filters": filters, "aggregations": [{"name": "金额合计", "func": "sum", "column": "金额"}]}
        call = query(spec, ["金额合计"], [[179695.59]])
        return verify(VerifyInput(question=question, draft=draft, tool_calls=[SCHEMA, call], vocabulary=vocab)).passed

    kept = [{"column": "是否退货", "op": "=", "value": "是"}]
    left_out = [{"column": "是否退货", "op": "!=", "value": "是"}]
    assert not passed("不含退货的销售额是多少？", kept, "金额合计为 179,695.59。\n筛选条件：是否退货 = 是。")
    assert passed("不含退货的销售额是多少？", left_out, "金额合计为 179,695.59。\n筛选条件：是否退货 ≠ 是。")
    assert not passed(
        "what is the total 金额 excluding 2022?",
        [{"column": "Season", "op": "=", "value": 2022}],
        "金额合计 is 179,695.59.\nFilters: Season = 2022.",
    )
