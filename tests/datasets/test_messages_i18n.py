"""Data-engine messages in the user's language: Chinese by default and on request, English on request
(Accept-Language or the portal's language switch), user values kept verbatim; a check that every
message the engine raises goes through gettext; and one that "how it was computed" is worded only through
gettext, with Chinese for every message."""

from __future__ import annotations

import ast
import io
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from apps.datasets import services
from apps.datasets.ingest.excel import unknown_sheet
from apps.tenants.scopes import DATASETS_READ, DATASETS_WRITE, Role
from tests.datasets.sources_support import make_sqlite

LANGUAGES = ("zh-hans", "en")
SALES_CSV = "地区,产品,金额\n华东,A,100.5\n华北,B,200\n华东,B,50\n"
TOTALS = {"group_by": ["地区"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}


def csv_file(text: str, name: str = "data.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def xlsx_file(sheets: dict[str, list[list]]) -> SimpleUploadedFile:
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for title, rows in sheets.items():
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return SimpleUploadedFile("book.xlsx", buffer.getvalue())


def in_each_language(send: Callable[[str], Any], code: str) -> dict[str, str]:
    """The error message `send(language)` gets back in each language, after checking the code stays the same."""
    messages = {}
    for language in LANGUAGES:
        resp = send(language)
        body = resp.json()
        assert resp.status_code == 400 and body["code"] == code, body
        assert resp["Content-Language"] == language
        messages[language] = body["message"]
    return messages


def assert_translated(messages: dict[str, str], zh: list[str], en: list[str]) -> None:
    for fragment in zh:
        assert fragment in messages["zh-hans"], messages["zh-hans"]
    for fragment in en:
        assert fragment in messages["en"], messages["en"]
    assert messages["zh-hans"] != messages["en"]


def upload(writer, file: Callable[[], SimpleUploadedFile]) -> Callable[[str], Any]:
    return lambda language: writer.post(
        "/api/v1/datasets/", {"file": file()}, format="multipart", HTTP_ACCEPT_LANGUAGE=language
    )


@pytest.fixture
def sales(writer):
    resp = writer.post("/api/v1/datasets/", {"file": csv_file(SALES_CSV), "name": "销售"}, format="multipart")
    assert resp.status_code == 201, resp.json()
    return resp.json()


# ---- uploads ----


def test_empty_csv(writer):
    messages = in_each_language(upload(writer, lambda: csv_file("", "empty.csv")), "empty_file")
    assert_translated(messages, zh=["文件为空", "表头行"], en=["the file is empty"])


def test_duplicate_header_names_the_column_and_both_positions(writer):
    messages = in_each_language(upload(writer, lambda: csv_file("金额,地区,金额\n1,x,2\n")), "duplicate_header")
    assert_translated(
        messages, zh=["“金额”", "第 1 列和第 3 列", "第 1 行"], en=["column '金额' twice", "columns 1 and 3"]
    )


def test_ragged_row_keeps_the_line_number(writer):
    messages = in_each_language(upload(writer, lambda: csv_file("a,b\n1,2\n3,4,5\n6,7\n")), "ragged_rows")
    assert_translated(
        messages,
        zh=["第 3 行有 3 个值，但表头有 2 列", "逗号"],
        en=["line 3 has 3 values but the header has 2 columns", "comma"],
    )


def test_unknown_sheet_lists_the_real_sheets(writer):
    book = xlsx_file({"一月": [["客户", "金额"], ["张三", 10]], "二月": [["客户", "金额"], ["王五", 5]]})
    staged = writer.post("/api/v1/uploads/", {"file": book}, format="multipart").json()
    messages = in_each_language(
        lambda language: writer.post(
            "/api/v1/datasets/",
            {"upload": staged["id"], "sheet": "三月"},
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        ),
        "unknown_sheet",
    )
    assert_translated(
        messages,
        zh=["没有名为 “三月” 的工作表", "“一月”、“二月”"],
        en=["the workbook has no sheet '三月'", "'一月', '二月'"],
    )


def test_chinese_is_the_default_language(tenant_a, make_token):
    token = make_token(tenant_a, [DATASETS_READ, DATASETS_WRITE])
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")  # no Accept-Language, no language cookie
    resp = client.post("/api/v1/datasets/", {"file": csv_file("", "empty.csv")})
    assert resp.status_code == 400 and "文件为空" in resp.json()["message"]


# ---- the portal's language switch (a cookie that outranks Accept-Language) ----


@pytest.mark.parametrize(
    ("switch_to", "browser", "fragment"), [("zh-hans", "en", "文件为空"), ("en", "zh-hans", "empty")]
)
def test_portal_language_switch_applies_to_api_errors(tenant_a, make_user, switch_to, browser, fragment):
    client = Client(HTTP_ACCEPT_LANGUAGE=browser)
    client.force_login(make_user(tenant=tenant_a, role=Role.ANALYST))
    client.post("/i18n/setlang/", {"language": switch_to, "next": "/"})
    resp = client.post("/api/v1/datasets/", {"file": csv_file("", "empty.csv")})
    assert resp.status_code == 400 and resp.json()["code"] == "empty_file"
    assert fragment in resp.json()["message"] and resp["Content-Language"] == switch_to


def test_portal_dataset_page_shows_the_reason_in_the_chosen_language(tenant_a, make_user, monkeypatch):
    monkeypatch.setattr(services, "SYNC_INGEST_BYTES", 1)
    monkeypatch.setattr(services, "_start_background_ingest", lambda *args: None)
    file = csv_file("a\n1\n", "p.csv")
    staged = services.upload_receive(tenant=tenant_a, chunks=file.chunks(), original_name="p.csv", size=file.size)
    dataset = services.dataset_create(tenant=tenant_a, upload=staged, name="待导入").dataset
    client = Client()
    client.force_login(make_user(tenant=tenant_a, role=Role.ANALYST))
    page = client.get(f"/datasets/{dataset.pk}/").content.decode()
    assert "数据集 “待导入” 还没有数据：正在等待导入；请稍后再试" in page
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "dataset &#x27;待导入&#x27; has no data yet" in client.get(f"/datasets/{dataset.pk}/").content.decode()


def test_background_ingest_keeps_the_uploaders_language(monkeypatch):
    languages: list[str | None] = []
    monkeypatch.setattr(services, "version_ingest", lambda **kwargs: languages.append(translation.get_language()))
    monkeypatch.setattr(services, "close_old_connections", lambda: None)
    for language in LANGUAGES:
        with translation.override(language):
            services._start_background_ingest(987_654, tenant=None)  # type: ignore[arg-type]
        for thread in threading.enumerate():
            if thread.name == "ingest-987654":
                thread.join(timeout=10)
    assert languages == list(LANGUAGES)


# ---- queries, SQL, charts, exports ----


def test_unknown_column_in_a_queryspec_keeps_the_suggestions(writer, sales):
    messages = in_each_language(
        lambda language: writer.post(
            f"/api/v1/datasets/{sales['id']}/query/",
            {"columns": ["地域"]},
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        ),
        "unknown_column",
    )
    assert_translated(
        messages,
        zh=["未知列 “地域”", "您是不是要找 “地区”"],
        en=["unknown column '地域'", "did you mean '地区'"],
    )


def test_queryspec_shape_errors_are_translated_without_pydantic_prefixes(writer, sales):
    messages = in_each_language(
        lambda language: writer.post(
            f"/api/v1/datasets/{sales['id']}/query/",
            {"columns": ["地区"], "limit": 0, "filters": [{"column": "地区", "op": "in", "value": []}]},
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        ),
        "invalid_spec",
    )
    assert_translated(
        messages,
        zh=["无效的 QuerySpec", "limit：应大于或等于 1", "“地区” 上的筛选条件：'in' 需要一个非空的值列表"],
        en=["invalid QuerySpec", "limit: Input should be greater than or equal to 1", "'in' needs a non-empty list"],
    )
    assert "Value error" not in messages["zh-hans"] + messages["en"]


@pytest.fixture
def shop(source_admin, settings, tmp_path, tenant_a):
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    make_sqlite(settings.SQLITE_SOURCES_ROOT / tenant_a.slug / "shop.db")
    body = {"name": "门店库", "kind": "sqlite", "database": "shop.db"}
    resp = source_admin.post("/api/v1/sources/", body, format="json")
    assert resp.status_code == 201, resp.json()
    return resp.json()


def test_refused_sql_on_a_sqlite_source(writer, shop):
    def run(sql: str) -> Callable[[str], Any]:
        return lambda language: writer.post(
            f"/api/v1/sources/{shop['id']}/sql/", {"sql": sql}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )

    assert_translated(
        in_each_language(run("DROP TABLE 订单"), "sql_not_select"),
        zh=["SQL 被拒绝，未执行任何语句", "DROP 会更改数据库结构"],
        en=["SQL refused, nothing was executed", "DROP changes the schema"],
    )
    assert_translated(
        in_each_language(run("SELECT * FROM 订货"), "sql_table_refused"),
        zh=["此数据源未开放表 “订货”", "“订单”"],
        en=["table '订货' is not exposed by this source", "'订单'"],
    )


def test_invalid_chart_specs(writer, sales):
    def plot(spec: dict) -> Callable[[str], Any]:
        return lambda language: writer.post(
            f"/api/v1/datasets/{sales['id']}/plot/",
            {"query": TOTALS, "plot": spec},
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        )

    two_ys = in_each_language(plot({"chart_type": "pie", "x": "地区", "y": ["销售额", "地区"]}), "invalid_spec")
    assert_translated(two_ys, zh=["饼图只能显示一个 y 列"], en=["a pie shows one y column"])
    unknown_x = in_each_language(plot({"chart_type": "bar", "x": "地域", "y": "销售额"}), "unknown_column")
    assert_translated(
        unknown_x,
        zh=["图表：未知的 x 列 “地域”", "您是不是要找 “地区”"],
        en=["plot: unknown x column '地域'", "did you mean '地区'"],
    )


def test_bad_export_format(writer, sales):
    messages = in_each_language(
        lambda language: writer.post(
            f"/api/v1/datasets/{sales['id']}/export/?format=pdf", TOTALS, format="json", HTTP_ACCEPT_LANGUAGE=language
        ),
        "invalid_format",
    )
    assert_translated(
        messages,
        zh=["format 必须是 csv, xlsx 之一", "“pdf”"],
        en=["format must be one of csv, xlsx; got 'pdf'"],
    )


def test_engine_messages_follow_the_active_language_outside_requests():
    with translation.override("zh-hans"):
        assert unknown_sheet("三月", ["一月"]).message == "工作簿中没有名为 “三月” 的工作表；现有工作表：“一月”"
    with translation.override("en"):
        assert unknown_sheet("三月", ["一月"]).message == "the workbook has no sheet '三月'; its sheets are: '一月'"


# ---- every message the engine raises goes through gettext ----

ENGINE = Path(__file__).resolve().parents[2] / "apps" / "datasets"
MESSAGE_CLASSES = {
    "IngestRejected",
    "QueryInvalid",
    "SourceFailure",
    "QueryTimeout",
    "InvalidInput",
    "Conflict",
    "Http404",
    "CommandError",
    "ValidationError",
}
# Helpers whose first argument becomes the message (sqlsafe.refuse, plot._fail, the expression parser's fail).
MESSAGE_HELPERS = {"refuse", "_fail", "fail", "_too_many"}
TRANSLATORS = {"_", "gettext", "ngettext", "pgettext", "npgettext"}
PYDANTIC_VALIDATORS = {"model_validator", "field_validator"}
NOT_MESSAGES = {"str", "repr", "format"}  # turn anything into text, never translated text


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


class _MessageCheck(ast.NodeVisitor):
    """Finds message arguments that are plain strings, f-strings or string concatenations."""

    def __init__(self, path: str) -> None:
        self.path, self.problems = path, []
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node)
        self.generic_visit(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def in_pydantic_validator(self) -> bool:
        return any(
            isinstance(d, ast.Call) and _name(d.func) in PYDANTIC_VALIDATORS
            for function in self.functions
            for d in function.decorator_list
        )

    def visit_Call(self, node: ast.Call) -> None:
        called = _name(node.func)
        checked = called in MESSAGE_CLASSES | MESSAGE_HELPERS or (
            called == "ValueError" and self.in_pydantic_validator()
        )
        message = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "message"), None)
        if checked and message is not None and not self.translated(message, set()):
            self.problems.append(f"{self.path}:{node.lineno}: {called}(...) has an untranslated message")
        self.generic_visit(node)

    def assignments(self, name: str) -> list[ast.expr]:
        scope = self.functions[-1] if self.functions else None
        values: list[ast.expr] = []
        for node in ast.walk(scope) if scope else []:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                values.append(node.value)
            elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and _name(node.target) == name and node.value:
                values.append(node.value)
        return values

    def translated(self, node: ast.expr, seen: set[str]) -> bool:
        if isinstance(node, ast.Call):
            called = _name(node.func)
            if called in TRANSLATORS:
                return True
            on_text = isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Constant | ast.JoinedStr)
            return called not in NOT_MESSAGES and not on_text  # another helper's result, e.g. unknown_sheet(...)
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, ast.Mod) and self.translated(node.left, seen)  # _("...%(x)s") % {...}
        if isinstance(node, ast.IfExp):
            return self.translated(node.body, seen) and self.translated(node.orelse, seen)
        if isinstance(node, ast.Name):  # a variable: every value assigned to it in the function must be translated
            if node.id in seen:
                return True
            return all(self.translated(value, seen | {node.id}) for value in self.assignments(node.id))
        return isinstance(node, ast.Attribute)  # a message built elsewhere and passed on: exc.message


def untranslated_messages(source: str, path: str = "<snippet>") -> list[str]:
    check = _MessageCheck(path)
    check.visit(ast.parse(source))
    return check.problems


def _engine_files() -> Iterator[Path]:
    return (p for p in sorted(ENGINE.rglob("*.py")) if "migrations" not in p.parts)


def test_every_engine_message_goes_through_gettext():
    problems = [
        problem
        for path in _engine_files()
        for problem in untranslated_messages(path.read_text(encoding="utf-8"), str(path.relative_to(ENGINE)))
    ]
    assert problems == []


def test_the_message_check_catches_untranslated_messages():
    bad = """
def unknown(name):
    raise QueryInvalid(f"unknown column {name!r}", code="unknown_column")

def empty():
    raise IngestRejected("the file is empty", code="empty_file")

def joined(detail):
    message = "could not connect: " + detail
    raise SourceFailure(message)

def half(detail):
    raise QueryInvalid(_("SQL refused: ") + detail)

def formatted(name):
    raise Conflict("a dataset named {} exists".format(name))

def refused(name):
    raise refuse(f"function {name}() is not allowed")

class Spec(BaseModel):
    @model_validator(mode="after")
    def shape(self):
        raise ValueError("nothing to return")
"""
    problems = untranslated_messages(bad)
    assert [p.split(": ")[1] for p in problems] == [
        "QueryInvalid(...) has an untranslated message",
        "IngestRejected(...) has an untranslated message",
        "SourceFailure(...) has an untranslated message",
        "QueryInvalid(...) has an untranslated message",
        "Conflict(...) has an untranslated message",
        "refuse(...) has an untranslated message",
        "ValueError(...) has an untranslated message",
    ], problems
    good = """
def unknown(name, names):
    raise QueryInvalid(_("unknown column '%(name)s'%(hint)s") % {"name": name, "hint": closest(name, names)})

def chosen(state, exc):
    hint = _("try again") if state else _("upload a file first")
    message = _("dataset has no data: %(hint)s") % {"hint": hint}
    raise IngestRejected(message, code="x") from exc

def passed_on(exc, sheet, names):
    raise SourceFailure(exc.message, code="source_unreachable")
    raise unknown_sheet(sheet, names)

def internal():
    raise ValueError("tenant must be saved")  # not a pydantic validator: never shown to users
"""
    assert untranslated_messages(good) == []


# ---- "how it was computed" is worded only through gettext, with Chinese for every message ----

EXPLANATION_MODULES = [ENGINE.parent / "agent" / "explain.py", ENGINE.parent / "agent" / "explain_terms.py"]
WORDING_TRANSLATORS = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def wording(source: str) -> tuple[list[tuple[str, str | None]], list[str]]:
    """(singular, plural) of every message given to gettext, and the Chinese text written inline instead
    (string literals outside gettext calls and docstrings)."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skipped.add(id(body[0].value))  # a docstring
    messages: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _name(node.func) in WORDING_TRANSLATORS):
            continue
        texts = [a for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        skipped |= {id(a) for a in texts}
        if texts:
            messages.append((texts[0].value, texts[1].value if len(texts) > 1 else None))
    inline = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped
        if CJK.search(node.value)
    ]
    return messages, inline


def test_explanations_are_worded_through_gettext_with_chinese_for_every_message():
    for path in EXPLANATION_MODULES:
        messages, inline = wording(path.read_text(encoding="utf-8"))
        assert messages, path
        assert inline == [], f"{path.name} words these inline instead of through gettext: {inline}"
        with translation.override("zh-hans"):
            untranslated = [
                singular
                for singular, plural in messages
                if (translation.ngettext(singular, plural, 1) if plural else translation.gettext(singular)) == singular
            ]
        assert untranslated == [], f"{path.name}: no Chinese for {untranslated}"


def test_the_wording_check_finds_inline_chinese():
    source = '''
def grain(zh):
    """按月: a docstring may show an example."""
    return "按月" if zh else _("by month")
'''
    assert wording(source) == ([("by month", None)], ["按月"])
