"""The table itself: its keys and six global secondary indexes, and the client to reach it.

g1  <owner listing>: TENANT#<t>#MEMS | #KEYS | #JOBS | #IDEMS, TENANTS   sk <created>#<id>
g2  memories by scope  TENANT#<t>#SCOPE#<scope>; open jobs JOBS#OPEN      sk <created>#<id>
g3  memories by tier   TENANT#<t>#TIER#<tier>  (sparse: not peripheral)   sk <created>#<id>
g4  content hash       TENANT#<t>#HASH#<scope>#<sha256>  (sparse: an id    sk <id>
                       not derived from the text; keys only)
g5  pending embedding  TENANT#<t>#PENDING  (sparse, keys only)            sk <created>#<id>
g6  session neighbours TENANT#<t>#SESSION#<scope>#<session>  (sparse)      sk <created>#<id>
"""

from __future__ import annotations

from typing import Any

GSIS = ("g1", "g2", "g3", "g4", "g5", "g6")
# Listings carry the filter fields (``projected.FIELDS``), never the record (``doc``), the vector
# nor the access counters: an entry is one write unit, and recall's access tracking writes the
# base item alone. Key, tenant and job listings carry what their readers use.
_MEMORY_FIELDS = (
    "tenant_id", "id", "scope", "category", "status", "tier",
    "created_at", "occurred_at", "content_hash", "session_id", "dim", "doc_size",
)  # fmt: skip
PROJECTED: dict[str, tuple[str, ...]] = {
    "g1": (*_MEMORY_FIELDS, "name", "settings", "key_id", "display_prefix", "secret_hash", "scopes",
           "read_only", "expires_at", "revoked_at", "last_used_at"),
    "g2": _MEMORY_FIELDS,
    "g3": _MEMORY_FIELDS,
    "g6": _MEMORY_FIELDS,
}  # fmt: skip


def index_name(gsi: str) -> str:
    """The index's name (``g1-index``); its key attributes are ``g1pk`` and ``g1sk``."""
    return f"{gsi}-index"


def table_definition(table_name: str) -> dict[str, Any]:
    """The ``CreateTable`` request for the table (the CDK stack declares the same)."""
    attributes = ["pk", "sk"] + [f"{g}{part}" for g in GSIS for part in ("pk", "sk")]
    return {
        "TableName": table_name,
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"} for a in attributes],
        "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": index_name(g),
                "KeySchema": [
                    {"AttributeName": f"{g}pk", "KeyType": "HASH"},
                    {"AttributeName": f"{g}sk", "KeyType": "RANGE"},
                ],
                "Projection": (
                    {"ProjectionType": "INCLUDE", "NonKeyAttributes": list(PROJECTED[g])}
                    if g in PROJECTED
                    else {"ProjectionType": "KEYS_ONLY"}
                ),
            }
            for g in GSIS
        ],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    }


def create_table(client: Any, table_name: str) -> None:
    """Create the table (idempotent), wait until it is active and turn on TTL on ``ttl``."""
    try:
        client.create_table(**table_definition(table_name))
    except client.exceptions.ResourceInUseException:
        return
    client.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig={"Delay": 1})
    client.update_time_to_live(
        TableName=table_name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"}
    )


def dynamodb_client(
    *, region: str | None = None, endpoint_url: str | None = None, max_attempts: int = 4, **kwargs: Any
) -> Any:
    """A DynamoDB client with botocore's ``standard`` retry mode and bounded attempts and timeouts
    (botocore's, without boto3: ``engram.adapters.aws_session``)."""
    from botocore.config import Config

    from engram.adapters import aws_session

    config = Config(
        retries={"mode": "standard", "total_max_attempts": max_attempts},
        connect_timeout=2,
        read_timeout=5,
        tcp_keepalive=True,
        max_pool_connections=32,
    )
    return aws_session.client(
        "dynamodb", region_name=region, endpoint_url=endpoint_url, config=config, **kwargs
    )
