"""``MemoryBlobs``: the ``BlobStore`` port kept in a dict, for engines on the AWS store without S3
(what the engine puts there, and what a presigned upload would have stored, are asserted)."""

from __future__ import annotations

from pathlib import Path


class MemoryBlobs:
    def __init__(self) -> None:
        self.objects: dict[str, bytes] = {}

    def put(self, key: str, data: bytes) -> None:
        self.objects[key] = data

    def get(self, key: str) -> bytes | None:
        return self.objects.get(key)

    def delete(self, key: str) -> None:
        self.objects.pop(key, None)

    def delete_prefix(self, prefix: str) -> int:
        gone = [k for k in self.objects if k.startswith(prefix)]
        for key in gone:
            del self.objects[key]
        return len(gone)

    def upload_file(self, key: str, path: str) -> None:
        self.objects[key] = Path(path).read_bytes()

    def presigned_get(self, key: str, expires_s: int) -> str:
        return f"https://bucket.example/{key}?X-Amz-Expires={expires_s}"

    def presigned_put(self, key: str, expires_s: int) -> str:
        return f"https://bucket.example/{key}?X-Amz-Expires={expires_s}&X-Amz-Method=PUT"

    def size(self, key: str) -> int | None:
        data = self.objects.get(key)
        return None if data is None else len(data)
