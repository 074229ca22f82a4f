"""What each function of the Lambda-layout run called, and what its synthesised policy grants.

The calls come from the run itself: the layout runtime logs every AWS API call a function makes
(``LAYOUT_CALL_LOG``: its IAM action ``service:Operation``, a presigned URL as the call its holder
makes), and the OpenSearch stand-in records each request with the access key of the function
that signed it (``es:ESHttp<Method>``). The grants are the ``AWS::IAM::Policy`` statements
attached to the function's role, for the services the code calls (CloudWatch Logs, X-Ray and KMS
follow from the function's own log group, tracing and the encrypted resources it uses).
"""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path
from typing import Any

AUTHORISED_BY = {
    "s3:HeadObject": "s3:GetObject",
    "s3:DeleteObjects": "s3:DeleteObject",
    "s3:ListObjectsV2": "s3:ListBucket",
    "bedrock:Converse": "bedrock:InvokeModel",
}
"""API operations IAM authorises under another action's name."""
SERVICES = ("dynamodb", "s3", "sqs", "secretsmanager", "bedrock", "events", "es", "apigateway")
"""The services whose grants follow the code's calls (the rest follow from the resources)."""


def called(calls_dir: Path, function: str, opensearch_requests: list[dict[str, Any]], key: str) -> set[str]:
    """The IAM actions one function's code used during the run."""
    actions: set[str] = set()
    log = calls_dir / f"{function}.jsonl"
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            service = entry["action"].split(":", 1)[0]
            if service == "apigateway":  # API Gateway's IAM actions are its HTTP methods
                actions.add(f"apigateway:{entry['method']}")
            else:
                actions.add(AUTHORISED_BY.get(entry["action"], entry["action"]))
    for request in opensearch_requests:
        if request.get("key") == key:
            actions.add(f"es:ESHttp{request['method'].capitalize()}")
    return actions


def granted(raw: dict[str, Any], role: str) -> set[str]:
    """The actions the policies attached to ``role`` (a logical id) allow, for ``SERVICES``."""
    actions: set[str] = set()
    for resource in raw["Resources"].values():
        if resource["Type"] != "AWS::IAM::Policy" or {"Ref": role} not in resource["Properties"].get(
            "Roles", []
        ):
            continue
        for statement in resource["Properties"]["PolicyDocument"]["Statement"]:
            if statement.get("Effect", "Allow") != "Allow":
                continue
            listed = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
            actions |= {a for a in listed if a.split(":", 1)[0] in SERVICES}
    return actions


def covered(action: str, grants: set[str]) -> bool:
    """Whether ``action`` is allowed by one of ``grants`` (IAM's ``*`` wildcards)."""
    return any(fnmatch.fnmatchcase(action, grant) for grant in grants)


def unused(grants: set[str], calls: set[str]) -> set[str]:
    """Grants that no call of the run needed."""
    return {g for g in grants if not any(fnmatch.fnmatchcase(c, g) for c in calls)}


STREAM_SOURCE = frozenset(
    {"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"}
)
"""What the event source mapping of a stream reads with the function's role (not its code)."""
_DATA_PLANE = (
    "retain",
    "recall",
    "forget",
    "memories",
    "stream",
    "extract_worker",
    "decay",
    "tiering",
    "tenant_work",
)
NARROWED: dict[str, dict[str, frozenset[str]]] = {
    # every data-plane function sends POSTs only (searches, bulk writes, deletions by query)
    **{name: {"es:": frozenset()} for name in _DATA_PLANE},
    # an import's bulk writes are POSTs; the flow above exports but does not import
    "memories": {"es:": frozenset({"es:ESHttpPost"})},
    # a lifecycle run for one tenant (an operator's, ``detail.tenant_id``) archives in place; the
    # scheduled runs above fan out to the step worker instead
    "decay": {"es:": frozenset({"es:ESHttpPost"})},
    "tiering": {"es:": frozenset({"es:ESHttpPost"})},
    "admin": {"es:": frozenset()},
    "authorizer": {"dynamodb:": frozenset(), "es:": frozenset()},
    "feedback": {"dynamodb:": frozenset(), "es:": frozenset()},
    # the stream consumer reads the vector items a batch lacks (a batch holds those its writes
    # put, as in this run) and the tenants' settings (BatchGetItem), and puts events on the bus
    "stream": {"dynamodb:": STREAM_SOURCE, "es:": frozenset(), "events:": frozenset()},
}
"""Per function, the services whose grant must hold nothing its code did not call (and what a
grant may hold besides, on the function's behalf). The others keep CDK's read or read-write set
of the table: their code paths (imports, merges, erasures) reach more than one run shows."""
