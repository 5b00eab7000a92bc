"""Model-written markup is never rendered: charts come only from the `plot` tool, whose series the server fills
from a query result. The requirements' prompt invites an HTML/ECharts blob inside the final content; this
removes it (scripts, styles, embedded frames, HTML tags, fenced HTML/JavaScript code) before the text is
checked or shown, and says whether anything was removed.
"""

from __future__ import annotations

import re

# Elements whose whole body is code or another document: removed with everything inside them. An element
# left open (a cut-off answer) runs to the end of the text.
_BLOCKS = re.compile(
    r"<(script|style|iframe|object|embed|noscript|template|svg|canvas)\b[^>]*>.*?(?:</\1\s*>|\Z)",
    re.IGNORECASE | re.DOTALL,
)
_LONE_OPEN = re.compile(r"<(?:script|style|iframe|object|embed)\b[^>]*/?>", re.IGNORECASE)
# Tags of HTML elements (the text between them stays). Only real element names: "<华东>" or "a < b" are text.
_TAGS = re.compile(
    r"</?(?:html|head|body|div|span|p|br|hr|section|article|figure|figcaption|header|footer|main|aside|nav|"
    r"table|thead|tbody|tfoot|tr|td|th|caption|ul|ol|li|dl|dt|dd|h[1-6]|b|i|u|em|strong|small|sup|sub|"
    r"img|picture|source|video|audio|a|link|meta|form|input|button|select|option|textarea|label|font|center|"
    r"pre|code|blockquote|details|summary)"
    r"""(?:\s+[A-Za-z_:][A-Za-z0-9_:.-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>]+))?)*\s*/?>""",
    re.IGNORECASE,
)
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
# A fenced block of HTML or JavaScript, or any fence that sets up a chart library.
_FENCE = re.compile(r"```[ \t]*(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)(?:```|\Z)", re.DOTALL)
_CODE_LANGS = frozenset({"html", "htm", "xhtml", "javascript", "js", "jsx", "ts", "typescript", "echarts", "vue"})
_CHART_CODE = re.compile(r"echarts|setOption\s*\(|new\s+Chart\s*\(|document\.|window\.|<script", re.IGNORECASE)
_BLANK_LINES = re.compile(r"\n[ \t]*(?:\n[ \t]*){2,}")


def _drop_code_fence(match: re.Match[str]) -> str:
    if match["lang"].lower() in _CODE_LANGS or _CHART_CODE.search(match["body"]):
        return ""
    return match.group(0)


def strip_markup(text: str) -> tuple[str, bool]:
    """`text` without model-written HTML, scripts and chart code; and True when something was removed."""
    if not text or ("<" not in text and "```" not in text):
        return text, False
    cleaned = _FENCE.sub(_drop_code_fence, text)
    cleaned = _BLOCKS.sub("", cleaned)
    cleaned = _COMMENT.sub("", cleaned)
    cleaned = _LONE_OPEN.sub("", cleaned)
    cleaned = _TAGS.sub("", cleaned)
    if cleaned == text:
        return text, False
    cleaned = _BLANK_LINES.sub("\n\n", cleaned)
    return "\n".join(line.rstrip() for line in cleaned.strip().splitlines()), True
