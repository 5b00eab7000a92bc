"""The DataSource interface answers the same questions the same way for a file dataset and for SQL sources on
real SQLite, PostgreSQL and MariaDB/MySQL databases holding the same orders: tables, schema, sample rows,
QuerySpec results, checked SQL, synonyms and the refusals."""

from __future__ import annotations

import csv
import io
from collections import defaultdict

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.agent.tools import DataBinding
from apps.datasets import selectors, services
from apps.datasets.data_source import FILE_TABLE, DataSource, FileData, SqlData, data_source_for
from apps.datasets.errors import QueryInvalid
from apps.datasets.models import FieldSynonym
from apps.datasets.query.spec import QuerySpec
from tests.datasets import sources_support
from tests.datasets.sources_support import ORDERS, connection_fields, register

pg_schema = sources_support.pg_schema  # fixtures: real customer databases, created once per session
mysql_database = sources_support.mysql_database

COLUMNS = ["id", "地区", "产品", "金额", "数量", "日期"]
KINDS = ["file", "sqlite", "postgresql", "mysql"]


def orders_csv() -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(["" if v is None else v for v in row] for row in ORDERS)
    return out.getvalue().encode()


@pytest.fixture(params=KINDS)
def orders(request, tenant_a, settings, tmp_path) -> tuple[DataSource, str | None]:
    """The same 80 orders as a file dataset (table left unnamed) or in a customer's database (table 订单)."""
    if request.param == "file":
        content = orders_csv()
        file = SimpleUploadedFile("orders.csv", content)
        upload = services.upload_receive(
            tenant=tenant_a, chunks=file.chunks(), original_name="orders.csv", size=len(content)
        )
        dataset = services.dataset_create(tenant=tenant_a, upload=upload, name="订单").dataset
        version = selectors.ready_version(dataset=dataset)
        return data_source_for(tenant=tenant_a, dataset=dataset, version=version), None
    settings.SQLITE_SOURCES_ROOT = tmp_path / "sqlite-sources"
    fields = connection_fields(request.param, request, tenant_a, settings.SQLITE_SOURCES_ROOT)
    return data_source_for(tenant=tenant_a, source=register(request.param, tenant_a, fields)), "订单"


def totals_by_region() -> dict[str | None, float]:
    sums: dict[str | None, float] = defaultdict(float)
    for _id, region, _product, amount, _quantity, _day in ORDERS:
        sums[region] += amount or 0.0
    return {region: round(total, 2) for region, total in sums.items()}


def test_the_same_questions_get_the_same_answers(orders):
    data, table = orders
    assert data.kind == ("file" if table is None else "sql")
    assert (table or FILE_TABLE) in data.list_tables()

    schema = data.schema(table)
    assert [c.name for c in schema.columns] == COLUMNS and schema.row_count == len(ORDERS)
    assert schema.column("金额").role == "measure" and schema.column("地区").role == "dimension"

    sample = data.sample_rows(table, n=3, columns=["地区", "金额"])
    assert sample.columns == ["地区", "金额"] and sample.row_count == 3

    spec = QuerySpec.model_validate(
        {"group_by": ["地区"], "aggregations": [{"name": "销售额", "func": "sum", "column": "金额"}]}
    )
    result = data.run_query(spec, table)
    assert result.columns == ["地区", "销售额"]
    got = {region: round(float(total or 0), 2) for region, total in result.rows}
    assert got == pytest.approx(totals_by_region(), abs=0.01)


def test_the_same_mistakes_get_the_same_refusals(orders):
    data, table = orders
    with pytest.raises(QueryInvalid) as too_many:
        data.sample_rows(table, n=51)
    assert too_many.value.code == "invalid_sample_size"
    with pytest.raises(QueryInvalid) as unknown:
        data.sample_rows(table, columns=["区域"])
    assert unknown.value.code == "unknown_column" and "地区" in unknown.value.message
    with pytest.raises(QueryInvalid) as no_such_column:
        data.run_query(QuerySpec.model_validate({"columns": ["区域"]}), table)
    assert "地区" in no_such_column.value.message


def test_checked_sql_runs_on_sql_sources_only(orders):
    data, table = orders
    if table is None:
        with pytest.raises(QueryInvalid) as refused:
            data.execute_sql("SELECT COUNT(*) FROM data")
        assert refused.value.code == "sql_not_supported" and "QuerySpec" in refused.value.message
    else:
        result = data.execute_sql('SELECT COUNT(*) AS n FROM "订单" WHERE id <= :k', {"k": 7})
        assert result.rows == [[7]]


def test_tables_are_named_for_sql_sources_and_left_out_for_files(orders):
    data, table = orders
    if table is None:
        assert data.schema(FILE_TABLE).row_count == len(ORDERS)
        with pytest.raises(QueryInvalid) as other:
            data.schema("订单")
        assert other.value.code == "unknown_table"
    else:
        with pytest.raises(QueryInvalid) as unnamed:
            data.schema(None)
        assert unnamed.value.code == "table_required"


def test_synonyms_belong_to_datasets(orders, tenant_a):
    data, table = orders
    dataset = data.dataset if isinstance(data, FileData) else None
    FieldSynonym.objects.create(tenant=tenant_a, term="营收", column="金额", dataset=dataset)
    assert data.synonyms() == ({"营收": "金额"} if table is None else {})


def test_a_binding_chooses_its_data_source_once(orders, tenant_a):
    data, table = orders
    if isinstance(data, SqlData):
        binding = DataBinding.for_source(tenant=tenant_a, source=data.source)
    else:
        assert isinstance(data, FileData) and data.dataset is not None
        binding = DataBinding.for_dataset(tenant=tenant_a, dataset=data.dataset)
    assert binding.data is binding.data and binding.data == data
    assert binding.source_type == data.kind and binding.name == data.name
