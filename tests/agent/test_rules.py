"""The verify rules are data: edits by admins apply to the next run; a whitelist lets a legitimate match through."""

from __future__ import annotations

from apps.agent.rules import verification_rules
from apps.agent.verification.patterns import DEFAULT_PATTERNS
from apps.audit.models import DetectionPattern, InterceptionLog, RequiredToolRule, WhitelistPattern
from tests.fakes import final
from tests.support.sales import ask, schema_then_query


def test_defaults_are_seeded_as_editable_rows(db):
    assert set(DetectionPattern.objects.values_list("code", flat=True)) == {p.code for p in DEFAULT_PATTERNS}
    file_rule = RequiredToolRule.objects.get(source_type="file")
    assert file_rule.all_of == ["get_schema", "run_query"]


def test_a_whitelist_added_after_an_interception_lets_the_same_answer_through(binding):
    draft = "推荐套餐：Sample Kit，适合 {{q1.地区[0]}} 的客户。"
    first, _events, _model = ask(binding, *schema_then_query(), final(draft), final(draft))
    assert first.status == "intercepted"
    log = InterceptionLog.objects.for_tenant(binding.tenant).get()
    assert log.reason == "fake_data_pattern" and log.matched_patterns[0]["text"] == "Sample"
    WhitelistPattern.objects.create(regex=r"Sample Kit", note="a real product name")
    second, _events, _model = ask(binding, *schema_then_query(), final(draft))
    assert second.status == "answered" and "Sample Kit" in second.answer


def test_a_deactivated_pattern_stops_matching_at_once(binding):
    DetectionPattern.objects.filter(code="test_name").update(active=False)
    assert "test_name" not in {p.code for p in verification_rules().patterns}
    response, _events, _model = ask(binding, *schema_then_query(), final("Alice 所在的 {{q1.地区[0]}} 最高。"))
    assert response.status == "answered"


def test_required_tools_are_data(binding):
    RequiredToolRule.objects.filter(source_type="file").update(all_of=["get_schema", "run_query", "sample_rows"])
    response, _events, _model = ask(binding, *schema_then_query(), final("{{q1.地区[0]}}"), final("{{q1.地区[0]}}"))
    assert response.status == "intercepted"
    assert "sample_rows" in InterceptionLog.objects.for_tenant(binding.tenant).get().reasons[0]["message"]


def test_a_pattern_that_does_not_compile_is_skipped_not_fatal(binding):
    DetectionPattern.objects.create(code="broken", regex="(unclosed")
    assert "broken" not in {p.code for p in verification_rules().patterns}
    response, _events, _model = ask(binding, *schema_then_query(), final("{{q1.地区[0]}}"))
    assert response.status == "answered"


def test_ordinary_phrases_are_whitelisted_by_default(binding):
    draft = "For example, {{q1.地区[0]}} leads with {{q1.销售额[0]}}; the example data are real results."
    response, _events, _model = ask(
        binding, *schema_then_query(), final(draft), final(draft), question="Which region leads?"
    )
    assert response.status == "intercepted", "the word 'example' alone is still a sample-data marker"
    response, _events, _model = ask(binding, *schema_then_query(), final("For example, {{q1.地区[0]}} leads."))
    assert response.status == "answered", "'for example' is ordinary English"
