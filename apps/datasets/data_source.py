"""One interface over the data a run or a request reads: a file dataset's version, or a SQL source.

The implementation is chosen once, from what the caller holds (`data_source_for`); after that the agent's
tools, the REST views and replay ask the same questions of either kind: the tables, a table's schema, a few
rows, a QuerySpec's result, and one checked SELECT (SQL sources only). A file dataset has one table,
FILE_TABLE, which callers may leave unnamed; a SQL source's table is always named.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from django.utils.translation import gettext as _

from apps.datasets import selectors
from apps.datasets.errors import QueryInvalid
from apps.datasets.ingest.profile import TableProfile
from apps.datasets.models import Dataset, DatasetVersion, SqlSource
from apps.datasets.query.results import ResultTable
from apps.datasets.query.spec import QuerySpec
from apps.datasets.sources import queries
from apps.tenants.models import Tenant

FILE_TABLE = "data"
SourceType = Literal["file", "sql"]


class DataSource(Protocol):
    """What can be read from one bound piece of data, whatever its kind."""

    @property
    def kind(self) -> SourceType:
        """The kind of data: file (a dataset's version) or sql (a SQL source)."""
        ...

    @property
    def name(self) -> str:
        """The dataset's or the source's name, as people know it."""
        ...

    def list_tables(self) -> list[str]:
        """The tables queries may use."""
        ...

    def schema(self, table: str | None = None) -> TableProfile:
        """A table's profile: per column its type, kind, role, null ratio, distinct count, examples."""
        ...

    def sample_rows(self, table: str | None = None, *, n: int = 10, columns: list[str] | None = None) -> ResultTable:
        """A few raw rows (n from 1 to 50), all columns or the chosen ones."""
        ...

    def run_query(self, spec: QuerySpec, table: str | None = None) -> ResultTable:
        """A QuerySpec compiled for the data's engine and run with bound values and the row cap."""
        ...

    def execute_sql(self, sql: str, params: Mapping[str, Any] | None = None) -> ResultTable:
        """One checked, read-only SELECT with :name parameters (SQL sources only)."""
        ...

    def synonyms(self) -> dict[str, str]:
        """The tenant's own words for the data's columns ({word: column})."""
        ...


@dataclass(frozen=True)
class FileData:
    """A file dataset's version: one table, profiled at ingest; results cached per version and spec."""

    tenant: Tenant
    dataset: Dataset | None
    version: DatasetVersion | None
    kind: SourceType = "file"

    @property
    def name(self) -> str:
        return self.dataset.name if self.dataset is not None else ""

    def _version(self) -> DatasetVersion:
        if self.version is None:
            raise QueryInvalid(_("this dataset has no version to read yet; upload a file first"), code="no_data")
        return self.version

    def _check_table(self, table: str | None) -> None:
        if table not in (None, "", FILE_TABLE):
            raise QueryInvalid(
                _("this data is a file dataset with one table, '%(table)s': leave the table out")
                % {"table": FILE_TABLE},
                code="unknown_table",
            )

    def list_tables(self) -> list[str]:
        return [FILE_TABLE]

    def schema(self, table: str | None = None) -> TableProfile:
        self._check_table(table)
        return selectors.schema_of(self._version())

    def sample_rows(self, table: str | None = None, *, n: int = 10, columns: list[str] | None = None) -> ResultTable:
        self._check_table(table)
        return selectors.sample_rows(version=self._version(), n=n, columns=columns)

    def run_query(self, spec: QuerySpec, table: str | None = None) -> ResultTable:
        self._check_table(table)
        return selectors.run_query(version=self._version(), spec=spec)

    def execute_sql(self, sql: str, params: Mapping[str, Any] | None = None) -> ResultTable:
        raise QueryInvalid(
            _("SQL text runs only on SQL sources; on a file dataset send a QuerySpec"), code="sql_not_supported"
        )

    def synonyms(self) -> dict[str, str]:
        if self.dataset is None:
            return {}
        return selectors.synonyms_for(tenant=self.tenant, dataset=self.dataset)


@dataclass(frozen=True)
class SqlData:
    """A tenant's own database: tables named in every call, read in read-only sessions, never cached results."""

    tenant: Tenant
    source: SqlSource
    kind: SourceType = "sql"

    @property
    def name(self) -> str:
        return self.source.name

    def _table(self, table: str | None) -> str:
        if not table:
            raise QueryInvalid(_("name the table to read (one of the source's tables)"), code="table_required")
        return table

    def list_tables(self) -> list[str]:
        return queries.list_tables(self.source)

    def schema(self, table: str | None = None) -> TableProfile:
        return queries.get_schema(self.source, self._table(table))

    def sample_rows(self, table: str | None = None, *, n: int = 10, columns: list[str] | None = None) -> ResultTable:
        return queries.sample_rows(self.source, self._table(table), n=n, columns=columns)

    def run_query(self, spec: QuerySpec, table: str | None = None) -> ResultTable:
        return queries.run_query(self.source, self._table(table), spec)

    def execute_sql(self, sql: str, params: Mapping[str, Any] | None = None) -> ResultTable:
        return queries.execute_sql_safe(self.source, sql, params)

    def synonyms(self) -> dict[str, str]:
        return {}  # synonyms are defined for datasets' columns


def data_source_for(
    *,
    tenant: Tenant,
    dataset: Dataset | None = None,
    version: DatasetVersion | None = None,
    source: SqlSource | None = None,
) -> DataSource:
    """The implementation for what the caller holds: a SQL source, else a dataset's version."""
    if source is not None:
        return SqlData(tenant=tenant, source=source)
    return FileData(tenant=tenant, dataset=dataset, version=version)
