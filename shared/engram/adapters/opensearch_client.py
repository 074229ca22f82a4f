"""The OpenSearch client: an endpoint URL checked, SigV4 for ``es`` (managed) or ``aoss`` (Serverless).

opensearch-py and botocore are imported only when a client is built, never at import.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from engram.errors import ConfigurationError

REQUEST_RETRIES = 2
"""opensearch-py's own retries of one request (502/503/504, timeouts): 1 + 2 attempts."""


def endpoint_url(endpoint: str) -> tuple[str, int, bool]:
    """(host, port, TLS) of an endpoint URL; one without ``https://`` (or ``http://``) is refused.

    A managed domain or a collection listens on 443 over TLS only; a bare host name would make the
    client speak plain HTTP to port 9200, so it is a configuration error rather than a guess.

    >>> endpoint_url("https://search-engram-dev-abc.eu-west-1.es.amazonaws.com")
    ('search-engram-dev-abc.eu-west-1.es.amazonaws.com', 443, True)
    >>> endpoint_url("http://localhost:9200")
    ('localhost', 9200, False)
    """
    parts = urllib.parse.urlsplit(endpoint)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ConfigurationError(
            f"ENGRAM_OPENSEARCH_ENDPOINT must be a URL with its scheme (https://host), not {endpoint!r}"
        )
    if parts.path not in ("", "/") or parts.query:
        raise ConfigurationError(f"ENGRAM_OPENSEARCH_ENDPOINT must be scheme://host[:port], not {endpoint!r}")
    tls = parts.scheme == "https"
    return parts.hostname, parts.port or (443 if tls else 80), tls


def opensearch_client(
    endpoint: str, region: str | None, service: str = "es", *, timeout: float = 5.0, session: Any = None
) -> Any:
    """An opensearch-py client signing with SigV4 for ``es`` (managed) or ``aoss`` (Serverless).

    ``endpoint`` is a URL (``https://host``); ``session`` a boto3 or botocore session (default:
    the process's botocore session, ``engram.adapters.aws_session``).
    """
    host, port, tls = endpoint_url(endpoint)
    from opensearchpy import AWSV4SignerAuth, OpenSearch, RequestsHttpConnection

    from engram.adapters import aws_session

    session = session or aws_session.session()
    credentials = session.get_credentials()
    auth = AWSV4SignerAuth(credentials, region or aws_session.region(session), service)
    return OpenSearch(
        hosts=[{"host": host, "port": port, "scheme": "https" if tls else "http"}],
        http_auth=auth,
        use_ssl=tls,
        verify_certs=True,
        connection_class=RequestsHttpConnection,
        timeout=timeout,
        max_retries=REQUEST_RETRIES,
        retry_on_status=(502, 503, 504),
        retry_on_timeout=True,
        pool_maxsize=16,
    )
