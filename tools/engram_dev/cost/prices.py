"""The one price table ``engram cost`` multiplies by: AWS list prices, us-east-1, on demand.

Read from the services' pricing pages; every number a cost line uses is here (and printed under
``prices`` in ``engram cost --json``), so a price change is one edit.
"""

from __future__ import annotations

PRICES_AS_OF = "2026-12-02"
REGION = "us-east-1"

PRICES: dict[str, float] = {
    # API Gateway REST API requests (first 333 M a month), per million; HTTP API for comparison
    "apigw_rest_per_million": 3.50,
    "apigw_http_per_million": 1.00,
    # Lambda arm64: per million requests, per GB-second
    "lambda_per_million_requests": 0.20,
    "lambda_arm64_per_gb_s": 0.0000133334,
    # DynamoDB on demand: per million write / read request units
    "dynamodb_per_million_wru": 0.625,
    "dynamodb_per_million_rru": 0.125,
    # Titan Text Embeddings V2, per 1,000 input tokens
    "titan_v2_per_1k_tokens": 0.00002,
    # SQS standard (after the free tier), per million requests
    "sqs_per_million_requests": 0.40,
    # EventBridge custom events, per million
    "eventbridge_per_million_events": 1.00,
    # CloudWatch Logs ingestion, per GB; metrics (Powertools EMF lines are logs)
    "cloudwatch_logs_per_gb": 0.50,
    # X-Ray traces recorded (after the free 100,000 a month), per million
    "xray_traces_per_million": 5.00,
    # Idle, per month
    "opensearch_t3_small_per_hour": 0.036,
    "opensearch_t3_medium_per_hour": 0.073,
    "opensearch_gp3_per_gb_month": 0.122,
    "kms_key_per_month": 1.00,
    "secret_per_month": 0.40,
    "cloudwatch_alarm_per_month": 0.10,
    "cloudwatch_dashboard_per_month": 3.00,
}
HOURS_PER_MONTH = 730.0

# What one request costs besides DynamoDB and its Lambda, by assumption (stated, not measured here)
TITAN_CHARS_PER_TOKEN = 4.7
"""Bedrock's figure for English text."""
ACCESS_LOG_BYTES = 400
"""The API's access log line of one request (``engram_infra.api.ACCESS_LOG_FIELDS``: id, tenant,
route, status, latency) with long values: the one line a request logs (``tests/infra`` checks it)."""
LOG_BYTES_PER_INVOCATION = {"WARN": 0, "INFO": 1_500}
"""What one successful invocation logs at its function's application log level: at ``WARN``
nothing (Lambda's START/END/REPORT lines are off at its system level ``WARN``, and the handlers
print no line on success: ``tests/functional/test_quiet_logs.py``); at ``INFO`` (the workers and
jobs), one Powertools line and its metrics, as assumed before."""
