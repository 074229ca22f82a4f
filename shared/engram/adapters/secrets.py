"""A secret given either as itself or as a Secrets Manager ARN, read once on first use."""

from __future__ import annotations

import threading
from typing import Any

from engram.errors import ProviderError

SECRET_ARN_PREFIX = "arn:aws:secretsmanager:"


class LazySecret:
    """Call it for the value; an ARN is resolved with ``GetSecretValue`` the first time only.

    >>> LazySecret("sk-local")()
    'sk-local'
    """

    def __init__(
        self, value: str | None, *, client: Any | None = None, name: str = "the LLM API key"
    ) -> None:
        self._value = value
        self._name = name
        self._client = client
        self._resolved: str | None = None
        self._lock = threading.Lock()

    @property
    def is_arn(self) -> bool:
        return bool(self._value and self._value.startswith(SECRET_ARN_PREFIX))

    def __call__(self) -> str | None:
        if not self.is_arn:
            return self._value
        with self._lock:
            if self._resolved is None:
                self._resolved = self._fetch()
            return self._resolved

    def _fetch(self) -> str:
        from botocore.exceptions import BotoCoreError, ClientError

        if self._client is None:
            import boto3

            region = str(self._value).split(":")[3]  # arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME
            self._client = boto3.client("secretsmanager", region_name=region)
        try:
            answer = self._client.get_secret_value(SecretId=self._value)
        except (ClientError, BotoCoreError) as exc:
            raise ProviderError(f"could not read {self._name} from Secrets Manager") from exc
        secret = answer.get("SecretString")
        if not secret:
            raise ProviderError(f"the secret of {self._name} has no SecretString")
        return str(secret)
