"""The process's one botocore session, and clients made from it without boto3.

A DynamoDB or bedrock-runtime client made by ``boto3.client`` is botocore's client as it is (boto3
customises only S3's client), but ``import boto3`` also loads s3transfer and multiprocessing: 35-40
ms of CPU in every cold start of the request-path functions, ~10 % of the retain function's
(``engram coldstart --first-call``). botocore is imported on first use, never at import.
"""

from __future__ import annotations

import threading
from typing import Any

_session: Any = None
_lock = threading.Lock()


def session() -> Any:
    """The process's botocore session (credentials and region from the environment, as boto3's
    default session reads them), made once."""
    global _session
    if _session is None:
        with _lock:
            if _session is None:
                import botocore.session

                _session = botocore.session.get_session()
    return _session


def client(service: str, **options: Any) -> Any:
    """A botocore client of ``service`` (``region_name``, ``endpoint_url``, ``config``, credentials:
    ``boto3.client``'s keywords); made under the lock, since a session is not thread-safe."""
    made = session()
    with _lock:
        return made.create_client(service, **options)


def region(given: Any = None) -> str | None:
    """The region of a session (a boto3 or botocore one; this process's when None)."""
    chosen = given or session()
    found = getattr(chosen, "region_name", None) or chosen.get_config_variable("region")
    return str(found) if found else None
