"""How a verified answer is cut into answer.delta pieces: a few words each, joined back exactly, and a long
answer still in a bounded number of events."""

from __future__ import annotations

from apps.agent.events import DELTA_CHARS, MAX_DELTAS, answer_chunks


def test_an_english_answer_is_cut_after_whole_words():
    text = "The East sold the most, 160.5; the North follows with 80 and the South with 60."
    chunks = answer_chunks(text)
    assert "".join(chunks) == text and len(chunks) > 2
    assert all(c.endswith(" ") for c in chunks[:-1]), chunks
    assert all(len(c) <= DELTA_CHARS for c in chunks), chunks


def test_a_chinese_answer_without_spaces_is_cut_by_length():
    text = "销售额最高的是华东，为一百六十点五；其次是华北，为八十；华南为六十，三个地区合计三百零零点五。"
    chunks = answer_chunks(text)
    assert "".join(chunks) == text
    assert [len(c) for c in chunks[:-1]] == [DELTA_CHARS] * (len(chunks) - 1)


def test_a_long_answer_comes_in_a_bounded_number_of_pieces():
    text = "第一行的金额是 160.5，占 12.3%。\n" * 200
    chunks = answer_chunks(text)
    assert "".join(chunks) == text
    assert len(chunks) <= 2 * MAX_DELTAS


def test_an_empty_answer_sends_nothing():
    assert answer_chunks("") == []
