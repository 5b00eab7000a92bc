"""What users read when a run does not end in an answer, in their language, with what to try."""

from __future__ import annotations

import re
from typing import Literal

from django.utils import translation
from django.utils.translation import gettext as _

from apps.agent.failures import failure_reason, failure_suggestions
from apps.agent.response import ErrorOut

Lang = Literal["zh", "en"]
LANGUAGE_CODES: dict[str, str] = {"zh": "zh-hans", "en": "en"}

_TEXTS: dict[str, dict[str, tuple[str, list[str]]]] = {
    "intercepted": {
        "zh": (
            "这个回答未能通过核对，已被拦截：{detail}。",
            ["换一种更具体的问法再试一次", "检查数据源是否包含所需的字段和时间范围"],
        ),
        "en": (
            "This answer did not pass the checks against your data, so it was held back: {detail}.",
            ["Rephrase the question more specifically", "Check that the data source has the fields and period asked"],
        ),
    },
    "no_progress": {
        "zh": ("分析在重复同一步骤，已停止。", ["换一种问法，或把问题拆成更小的问题"]),
        "en": ("The analysis kept repeating the same step and was stopped.", ["Rephrase, or split the question"]),
    },
    "too_many_steps": {
        "zh": ("这个问题需要的步骤太多，已停止。", ["把问题拆成几个更简单的问题"]),
        "en": ("The question needed too many steps and was stopped.", ["Split it into simpler questions"]),
    },
    "invalid_requests": {
        "zh": ("分析未能形成有效的查询，已停止。", ["用数据中的字段名重新提问"]),
        "en": (
            "The analysis could not form valid queries and was stopped.",
            ["Ask again using the data's field names"],
        ),
    },
    "truncated_output": {
        "zh": (
            "模型的输出超出了长度上限被截断，未生成回答。",
            ["把问题拆成几个更小的问题", "要求更少的行或更简短的回答"],
        ),
        "en": (
            "The model's output was cut off by its length limit, so no answer was produced.",
            ["Split the question into smaller ones", "Ask for fewer rows or a shorter answer"],
        ),
    },
    "oversized_output": {
        "zh": ("模型生成的内容过长，未生成回答。", ["把问题拆成几个更小的问题", "要求更简短的回答"]),
        "en": (
            "The model produced more text than an answer may hold, so no answer was produced.",
            ["Split the question into smaller ones", "Ask for a shorter answer"],
        ),
    },
    "unreadable_reply": {
        "zh": (
            "模型的回复无法解读（不是完整有效的结构化 JSON），未生成回答。",
            ["稍后重试", "把问题拆成几个更简单的问题"],
        ),
        "en": (
            "The model's reply could not be read (it was not complete, valid structured JSON), so no answer was "
            "produced.",
            ["Try again", "Split the question into simpler ones"],
        ),
    },
    "llm_unavailable": {
        "zh": ("语言模型服务暂时不可用：{detail}。", ["稍后重试", "请管理员检查模型服务配置"]),
        "en": ("The language model service is unavailable: {detail}.", ["Try again later", "Ask an admin to check it"]),
    },
    "internal": {
        "zh": ("处理问题时发生内部错误，未生成回答。", ["稍后重试"]),
        "en": ("An internal error stopped the run; no answer was produced.", ["Try again later"]),
    },
}


def language_of(text: str) -> Lang:
    """The language to answer in: Chinese when Chinese characters outnumber English words."""
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    words = len(re.findall(r"[A-Za-z]{2,}", text))
    return "zh" if cjk and cjk >= words else "en"


def user_error(code: str, lang: Lang, detail: str = "", *, cause: str = "") -> ErrorOut:
    """`cause`: a failed tool's error code; its message says why in words people read, and what to do."""
    if code == "tool_failed":
        return tool_failed(lang, cause, detail)
    message, suggestions = _TEXTS[code][lang]
    return ErrorOut(code=code, message=message.format(detail=detail.rstrip("。.")), suggestions=list(suggestions))


def tool_failed(lang: Lang, cause: str, detail: str = "") -> ErrorOut:
    """A tool could not answer: why (never a host, port, path or driver text) and what to try."""
    with translation.override(LANGUAGE_CODES[lang]):
        reason = failure_reason(cause) if cause or not detail else detail
        message = _("Reading the data failed: %(reason)s.") % {"reason": reason.rstrip("。.")}
        return ErrorOut(code="tool_failed", message=message, suggestions=failure_suggestions(cause))
