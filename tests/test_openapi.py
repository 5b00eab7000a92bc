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


def test_queryspec_bodies_are_documented_in_both_spellings(db, client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    components, paths = schema["components"]["schemas"], schema["paths"]
    for name, explicit, documented in (
        ("Filter", "column", "col"),
        ("Aggregation", "func", "agg"),
        ("Sort", "by", "col"),
    ):
        properties = components[name]["properties"]
        assert explicit in properties and documented in properties, name
    assert components["Sort"]["properties"]["dir"]["anyOf"] == [{"type": "string", "enum": ["asc", "desc"]}]
    assert {"required": ["as"]} in components["Derived"]["allOf"][0]["anyOf"]
    for path in ("/api/v1/datasets/{dataset_id}/query/", "/api/v1/datasets/{dataset_id}/export/"):
        examples = paths[path]["post"]["requestBody"]["content"]["application/json"]["examples"]
        documented, explicit = examples["DocumentedSpelling"]["value"], examples["ExplicitSpelling"]["value"]
        assert documented["aggregations"][0] == {"as": "return_qty", "agg": "sum", "col": "退货数量"}
        assert documented["sort"] == [{"col": "月份", "dir": "asc"}] and explicit["sort"] == [
            {"by": "月份", "desc": False}
        ]
    plot = paths["/api/v1/datasets/{dataset_id}/plot/"]["post"]["requestBody"]["content"]["application/json"]
    assert plot["examples"]["DocumentedSpelling"]["value"]["plot"]["y_format"] == "percent"
    create = paths["/api/v1/datasets/"]["post"]["requestBody"]["content"]["application/json"]
    assert create["examples"]["CreateDataset"]["value"] == {"file_id": 1, "sheet": "Sheet1", "header_row": 1}
    assert "file_id" in components["DatasetUploadInRequest"]["properties"]
    assert "/api/v1/datasets/{dataset_id}/schema/" in paths


def test_the_administrative_changes_are_documented_with_their_filter(db, client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    changes = schema["paths"]["/api/v1/audit/changes/"]["get"]
    assert {p["name"] for p in changes["parameters"]} >= {"action"}
    page = changes["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    item = schema["components"]["schemas"][page]["properties"]["results"]["items"]["$ref"].rsplit("/", 1)[1]
    assert {"action", "actor", "changes", "secrets_changed", "created_at"} <= set(
        schema["components"]["schemas"][item]["properties"]
    )


def test_the_schema_is_typed_for_integrators(db, client):
    """Status codes as the API answers them, error bodies, paging and query parameters, valid OpenAPI 3.1."""
    schema = yaml.safe_load(client.get("/api/schema/").content)
    assert schema["openapi"].startswith("3.1")
    paths, components = schema["paths"], schema["components"]["schemas"]
    ask = paths["/api/v1/conversations/{conversation_id}/messages/"]["post"]
    assert {"200", "202", "400", "404", "409", "429"} <= set(ask["responses"])
    assert ask["responses"]["202"]["content"]["application/json"]["schema"]["$ref"].endswith("RunAccepted")
    assert "Idempotency-Key" in [p["name"] for p in ask["parameters"] if p["in"] == "header"]
    created = paths["/api/v1/conversations/"]["post"]["responses"]
    assert "201" in created and "200" not in created
    assert "204" in paths["/api/v1/tokens/{token_id}/"]["delete"]["responses"]
    error = ask["responses"]["400"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(components[error]["required"]) == {"code", "message"}
    listing = paths["/api/v1/conversations/"]["get"]
    assert {"limit", "offset"} <= {p["name"] for p in listing["parameters"]}
    page = listing["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(components[page]["properties"]) == {"count", "next", "previous", "results"}
    run = paths["/api/v1/runs/{trace_id}/"]["get"]
    assert "after" in [p["name"] for p in run["parameters"]]
