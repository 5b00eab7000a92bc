"""`manage.py demo --no-serve`: the README's main command answers two demo questions end to end."""

from __future__ import annotations

import io

from django.core.management import call_command

from apps.conversations.models import Conversation, Message


def test_demo_answers_a_chinese_and_an_english_question_with_verified_numbers(db, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"
    out = io.StringIO()
    call_command("demo", "--no-serve", stdout=out)
    text = out.getvalue()
    assert (
        "Q: 2025 年各账号的销售额和退货率分别是多少？" in text and "Q: What is the monthly sales trend in 2025?" in text
    )
    assert text.count("numbers verified against tool results") == 2 and "[failed]" not in text
    assert "天猫旗舰店" in text and "2025-12" in text
    conversation = Conversation.objects.for_tenant(Conversation.objects.unscoped_for_admin().get().tenant).get()
    statuses = list(Message.objects.for_tenant(conversation.tenant).values_list("status", flat=True))
    assert statuses == ["answered", "answered"], "the answers are in the conversation the portal shows"
    call_command("demo", "--no-serve", stdout=io.StringIO())
    assert Conversation.objects.unscoped_for_admin().count() == 1, "running the demo again reuses its conversation"
