"""The OpenAPI schema documents every API call with its bodies; the docs page works offline."""

from __future__ import annotations

import yaml


def test_schema_lists_every_api_call_with_its_bodies(db, client):
    resp = client.get("/api/schema/")
    assert resp.status_code == 200
    schema = yaml.safe_load(resp.content)
    paths = schema["paths"]
    for path in (
        "/api/v1/me/",
        "/api/v1/datasets/",
        "/api/v1/datasets/{dataset_id}/query/",
        "/api/v1/sources/{source_id}/sql/",
        "/api/v1/conversations/{conversation_id}/messages/",
        "/api/v1/runs/{trace_id}/",
    ):
        assert path in paths, path
    query = paths["/api/v1/datasets/{dataset_id}/query/"]["post"]
    assert query["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("QuerySpecRequest")
    ask = paths["/api/v1/conversations/{conversation_id}/messages/"]["post"]
    assert ask["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("AskResponse")
    components = schema["components"]
    assert components["securitySchemes"]["bearer"]["scheme"] == "bearer"
    clarification = components["schemas"]["AskResponse"]["properties"]["clarification"]
    assert clarification["anyOf"][0]["$ref"].endswith("ClarificationOut") and clarification["description"]
    assert set(components["schemas"]["ClarificationOut"]["required"]) == {"question", "choices"}
    assert set(components["schemas"]["OpEnum"]["enum"]) == {
        "=",
        "!=",
        ">",
        ">=",
        "<",
        "<=",
        "in",
        "between",
        "contains",
        "is_null",
    }
    operation_ids = [op["operationId"] for item in paths.values() for op in item.values() if isinstance(op, dict)]
    assert len(operation_ids) == len(set(operation_ids)), "no colliding operation ids"


def test_docs_page_uses_local_assets(db, client):
    page = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in page.lower() and "/static/drf_spectacular_sidecar/" in page
    assert "cdn" not in page.lower() and "unpkg" not in page.lower()
