"""The five outcomes of a question and the rule that assigns exactly one of them.

In order: `failed` (status failed, or an answer without a passing verification, which the graph should
never produce); `intercepted` (status intercepted); `clarified-or-refused` (see `is_refusal`); `correct`
(the set's judge finds the answer right against its pandas reference); otherwise `wrong-but-verified`.
Refusals are decided before correctness so that a refusal which happens to mention the target (the
row count of the data, a column name) is never counted as a correct answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from apps.agent.response import AskResponse
from tests.agent.golden.answer_text import listed_rows


class Outcome(StrEnum):
    CORRECT = "correct"
    WRONG = "wrong-but-verified"
    REFUSED = "clarified-or-refused"
    INTERCEPTED = "intercepted"
    FAILED = "failed"


# Wording that asks back or declines. Only consulted when the answer shows no result number (below).
REFUSAL_WORDING = re.compile(
    r"抱歉|无法|不能|不支持|没能|没有找到|未找到|请问|请说明|请明确|请确认|是指|哪一个|哪个口径"
    r"|sorry|cannot|can't|could not|couldn't|unable|not able|not supported|do you mean|which one"
    r"|please (?:clarify|specify|confirm)",
    re.IGNORECASE,
)
# The refusal's description of the data ("这份数据共有 3,000 行" / "The data has 3,000 rows"): grounded, yet no result.
_DATA_DESCRIPTION = re.compile(r"^\s*(这份数据|The data has )")
_SUGGESTION = re.compile(r"^\s*>>")


def is_refusal(response: AskResponse) -> bool:
    """An honest non-answer: a clarification (the response's `clarification`), or an answer that asks back or
    says it cannot compute the result (REFUSAL_WORDING) and claims no result: no grounded number of the
    response appears in it once the suggested questions and the sentence describing the data's size are set
    aside. An answer that shows any other grounded number is judged on its numbers, even if it apologises."""
    if response.clarification is not None:
        return True
    lines = [
        line
        for line in response.answer.splitlines()
        if not _SUGGESTION.match(line) and not _DATA_DESCRIPTION.match(line)
    ]
    text = "\n".join(lines)
    if not REFUSAL_WORDING.search(text):
        return False
    return not any(g.text and g.text in text for g in response.verification.grounding)


Judge = Callable[[AskResponse], str]  # "" when the answer is right, else what is wrong


@dataclass
class Item:
    """One question's run: its outcome and what a reader needs to check it."""

    set: str
    id: str
    question: str
    expected: str
    group: str = ""
    outcome: Outcome = Outcome.FAILED
    reason: str = ""
    answer: str = ""
    disclosed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # what verify found the answer's queries did not apply
    listed: int = 0  # numbered result rows in the answer: a right value may sit anywhere in a long listing
    seconds: float = 0.0
    plan_ms: list[float] = field(default_factory=list)


def classify(response: AskResponse, judge: Judge) -> tuple[Outcome, str]:
    if response.status == "failed":
        return Outcome.FAILED, response.error.message if response.error else "failed"
    if response.status == "intercepted":
        reasons = response.verification.reasons
        return Outcome.INTERCEPTED, "; ".join(f"{r.get('code', '')} ({r.get('message', '')[:160]})" for r in reasons)
    if not response.verification.passed:
        return Outcome.FAILED, "answered without a passing verification"
    if is_refusal(response):
        return Outcome.REFUSED, ""
    problem = judge(response)
    return (Outcome.WRONG, problem) if problem else (Outcome.CORRECT, "")


def judged(
    response: AskResponse,
    judge: Judge,
    *,
    set_name: str,
    case_id: str,
    question: str,
    expected: str,
    group: str = "",
    seconds: float = 0.0,
    plan_ms: list[float] | None = None,
) -> Item:
    outcome, reason = classify(response, judge)
    return Item(
        set=set_name,
        id=case_id,
        question=question,
        expected=expected,
        group=group,
        outcome=outcome,
        reason=reason,
        answer=response.answer,
        disclosed=[c.anchor for c in response.verification.coverage if c.status == "disclosed"],
        missing=[c.anchor for c in response.verification.coverage if c.status == "missing"],
        listed=listed_rows(response.answer),
        seconds=seconds,
        plan_ms=plan_ms or [],
    )
