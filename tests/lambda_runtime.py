"""A Lambda Python runtime in miniature, run as ``python -I -S lambda_runtime.py TASK_ROOT OPT_PYTHON HANDLER``.

Standard library only: ``-I -S`` leaves ``sys.path`` with nothing but the standard library, and
this puts the function's asset (the task root) and the layer's ``python/`` folder in front, as
Lambda does with ``/var/task`` and ``/opt/python``, so nothing can come from the repository's
checkout or its virtualenv. It imports the handler once (the init phase; an exception there is
an init error, as Lambda reports it), then serves invocations: one JSON request per line on
stdin (``{"event", "timeout_s"}``), one JSON answer per line on the original stdout (``{"result"}``
or ``{"error"}``). The function's own output (Powertools logs JSON to stdout) goes to stderr.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
import traceback
import uuid


class Context:
    """The attributes of Lambda's context object that handlers and Powertools read."""

    def __init__(self, function_name: str, memory_mb: int, timeout_s: float) -> None:
        self.function_name = function_name
        self.function_version = "$LATEST"
        self.invoked_function_arn = f"arn:aws:lambda:eu-west-1:123456789012:function:{function_name}"
        self.memory_limit_in_mb = memory_mb
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{function_name}"
        self.log_stream_name = "2026/12/01/[$LATEST]layout"
        self._deadline = time.monotonic() + timeout_s

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def main() -> None:
    task_root, opt_python, handler = sys.argv[1:4]
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # whatever the function prints goes to stderr, not into the protocol
    sys.stdout = sys.stderr
    sys.path[:0] = [task_root, opt_python]
    _log_aws_calls(os.environ.get("LAYOUT_CALL_LOG"))
    module_name, function_name = handler.rsplit(".", 1)
    try:
        entry = getattr(importlib.import_module(module_name.replace("/", ".")), function_name)
    except BaseException as exc:  # the init phase failed, as Lambda would report
        traceback.print_exc()
        protocol.write(json.dumps({"init_error": {"type": type(exc).__name__, "message": str(exc)}}) + "\n")
        return
    protocol.write(json.dumps({"init": "ok", "path": sys.path, "modules": _origins()}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        context = Context(
            os.environ["AWS_LAMBDA_FUNCTION_NAME"], int(request["memory_mb"]), request["timeout_s"]
        )
        os.environ["_X_AMZN_TRACE_ID"] = (
            f"Root=1-{int(time.time()):08x}-{uuid.uuid4().hex[:24]};Parent={uuid.uuid4().hex[:16]};Sampled=0"
        )
        try:
            result = entry(request["event"], context)
            protocol.write(json.dumps({"result": result}, default=str) + "\n")
        except BaseException as exc:  # Lambda reports the function's error
            traceback.print_exc()
            protocol.write(json.dumps({"error": {"type": type(exc).__name__, "message": str(exc)}}) + "\n")


def _log_aws_calls(path: str | None) -> None:
    """Append every AWS API call the function makes (its IAM action, ``service:Operation``) to
    ``path``, one JSON line each; a presigned URL counts as the call its holder will make.
    botocore comes from the layer; without it there is nothing to log."""
    if not path:
        return
    try:
        from botocore import signers
        from botocore.client import BaseClient
    except ImportError:
        return
    lock = __import__("threading").Lock()

    def record(client: object, operation: str) -> None:
        model = client.meta.service_model  # type: ignore[attr-defined]
        prefix = model.signing_name or model.endpoint_prefix
        try:
            method = model.operation_model(operation).http.get("method", "")
        except Exception:  # an item action of a transaction is not an operation of its own
            method = ""
        with lock, open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"action": f"{prefix}:{operation}", "method": method}) + "\n")

    make_call = BaseClient._make_api_call
    presign = signers.generate_presigned_url  # added to S3 client classes as they are made

    def logged_call(self: BaseClient, operation_name: str, api_params: dict) -> object:
        if operation_name in ("TransactWriteItems", "TransactGetItems"):  # IAM checks each item's action
            for item in api_params.get("TransactItems", []):
                for kind in item:
                    record(self, {"ConditionCheck": "ConditionCheckItem"}.get(kind, f"{kind}Item"))
        else:
            record(self, operation_name)
        return make_call(self, operation_name, api_params)

    def logged_presign(self: BaseClient, ClientMethod: str, *args: object, **kwargs: object) -> object:
        operation = self.meta.method_to_api_mapping.get(ClientMethod, ClientMethod)
        record(self, operation)
        return presign(self, ClientMethod, *args, **kwargs)

    BaseClient._make_api_call = logged_call  # type: ignore[method-assign]
    signers.generate_presigned_url = logged_presign


def _origins() -> dict[str, str]:
    """Where the packages that matter were imported from (the test checks none is the checkout's)."""
    out = {}
    for name in ("engram", "engram_http", "pydantic", "aws_lambda_powertools", "boto3", "opensearchpy"):
        module = sys.modules.get(name)
        if module is not None:
            out[name] = str(getattr(module, "__file__", ""))
    return out


if __name__ == "__main__":
    main()
