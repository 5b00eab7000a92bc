"""`manage.py seed_demo_datasets --tenant demo`: the demo datasets (idempotent), with a first query."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from apps.datasets import selectors
from apps.datasets.demo import ORDERS, demo_datasets_seed
from apps.datasets.errors import IngestRejected
from apps.datasets.query.spec import QuerySpec
from apps.tenants.selectors import tenant_by_slug

FIRST_QUERY = {
    "group_by": ["账号"],
    "aggregations": [
        {"name": "订单数", "func": "count"},
        {"name": "销售额", "func": "sum", "column": "金额"},
        {"name": "退货数", "func": "count", "where": [{"column": "是否退货", "op": "=", "value": True}]},
    ],
    "derived": [{"name": "退货率%", "expr": "round(退货数 / 订单数 * 100, 2)"}],
    "sort": [{"by": "销售额", "desc": True}],
}


class Command(BaseCommand):
    help = "Create the demo datasets for a tenant (skipped when they exist) and print one query over them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", default="demo", help="tenant slug (default: demo)")

    def handle(self, *args: Any, **opts: Any) -> None:
        tenant = tenant_by_slug(slug=opts["tenant"])
        if tenant is None:
            raise CommandError(
                _("no tenant with slug '%(slug)s'; run seed_demo or create_tenant first") % {"slug": opts["tenant"]}
            )
        try:
            versions = demo_datasets_seed(tenant=tenant)
        except IngestRejected as exc:
            raise CommandError(_("a demo dataset could not be ingested: %(reason)s") % {"reason": exc.message}) from exc
        for version in versions:
            self.stdout.write(f"  Dataset:  {version.dataset.name} (id {version.dataset_id}, {version.row_count} rows)")
        orders = selectors.dataset_get(tenant=tenant, key=ORDERS)
        result = selectors.run_query(
            version=selectors.ready_version(dataset=orders), spec=QuerySpec.model_validate(FIRST_QUERY)
        )
        self.stdout.write(f"  Query over {ORDERS}, by account (QuerySpec -> DuckDB):")
        self.stdout.write("    " + " | ".join(result.columns))
        for row in result.rows:
            self.stdout.write("    " + " | ".join(str(v) for v in row))
