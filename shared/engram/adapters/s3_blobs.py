"""``BlobStore`` on one S3 bucket: large job bodies, exports (presigned for download) and
imports (presigned for upload).

The client is injected or made on first use (boto3 is imported then), with SigV4 so that
presigned URLs work for KMS-encrypted objects.
"""

from __future__ import annotations

from typing import Any

from engram.errors import ProviderError


class S3Blobs:
    def __init__(self, bucket: str, *, client: Any | None = None, region: str | None = None) -> None:
        self.bucket = bucket
        self._client = client
        self._region = region

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3
            from botocore.config import Config

            config = Config(signature_version="s3v4", retries={"mode": "standard", "max_attempts": 4})
            self._client = boto3.client("s3", region_name=self._region, config=config)
        return self._client

    def _call(self, what: str, operation: str, **kwargs: Any) -> Any:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return getattr(self.client, operation)(Bucket=self.bucket, **kwargs)
        except (ClientError, BotoCoreError) as exc:
            raise ProviderError(f"object storage failed to {what}") from exc

    def put(self, key: str, data: bytes) -> None:
        self._call("store an object", "put_object", Key=key, Body=data)

    def get(self, key: str) -> bytes | None:
        from botocore.exceptions import ClientError

        try:
            response = self.client.get_object(Bucket=self.bucket, Key=key)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404"):
                return None
            raise ProviderError("object storage failed to read an object") from exc
        data: bytes = response["Body"].read()
        return data

    def delete(self, key: str) -> None:
        self._call("delete an object", "delete_object", Key=key)

    def delete_prefix(self, prefix: str) -> int:
        removed = 0
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix):
            keys = [{"Key": o["Key"]} for o in page.get("Contents", [])]
            if keys:
                self._call("delete objects", "delete_objects", Delete={"Objects": keys, "Quiet": True})
                removed += len(keys)
        return removed

    def upload_file(self, key: str, path: str) -> None:
        from botocore.exceptions import BotoCoreError, ClientError

        try:  # managed transfer: multipart for large files
            self.client.upload_file(path, self.bucket, key)
        except (ClientError, BotoCoreError) as exc:
            raise ProviderError("object storage failed to store an export") from exc

    def presigned_get(self, key: str, expires_s: int) -> str:
        url: str = self.client.generate_presigned_url(
            "get_object", Params={"Bucket": self.bucket, "Key": key}, ExpiresIn=expires_s
        )
        return url

    def presigned_put(self, key: str, expires_s: int) -> str:
        url: str = self.client.generate_presigned_url(
            "put_object", Params={"Bucket": self.bucket, "Key": key}, ExpiresIn=expires_s
        )
        return url

    def size(self, key: str) -> int | None:
        from botocore.exceptions import ClientError

        try:
            head = self.client.head_object(Bucket=self.bucket, Key=key)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404", "NotFound"):
                return None
            raise ProviderError("object storage failed to read an object") from exc
        return int(head["ContentLength"])
