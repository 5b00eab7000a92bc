"""The golden set: bilingual questions over four generated datasets, answered by the offline planner
through the real graph and tools, compared with pandas references. Prints every question's result."""

from __future__ import annotations

import pytest

from tests.agent.golden.scorer import CASES, accuracy, breakdown, ingest_all, report, run_all

MIN_ACCURACY = 0.9


@pytest.fixture(autouse=True)
def _data_dir(settings, tmp_path):
    settings.TENANT_DATA_ROOT = tmp_path / "tenants"


def test_the_golden_set_is_bilingual_and_large_enough():
    languages = {case.lang for case in CASES}
    assert len(CASES) >= 40 and languages == {"zh", "en"}
    assert len({case.dataset for case in CASES}) >= 3
    share_zh = sum(case.lang == "zh" for case in CASES) / len(CASES)
    assert 0.35 <= share_zh <= 0.65
    assert len({case.id for case in CASES}) == len(CASES)


@pytest.mark.slow
def test_golden_accuracy(tenant_a):
    results = run_all(ingest_all(tenant_a))
    text = report(results)
    print("\n" + text)
    assert accuracy(results) >= MIN_ACCURACY, text
    for group in breakdown(results).values():
        for key, (passed, total) in group.items():
            assert passed / total >= 0.8, f"{key}: {passed}/{total}\n{text}"
