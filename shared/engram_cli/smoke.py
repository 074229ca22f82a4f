"""``engram smoke --url URL --operator-token T``: the post-deploy check of a running Engram.

Through the public HTTP API only, as an agent and an operator use it: create a throwaway tenant
and a key, retain a text, recall it (waiting for the index to catch up: in the cloud the stream
indexer makes a retain searchable within about a second), make one smart retain (a job) and fail
if its extraction fell back from the LLM to the rules (a model that is retired, not enabled or
not offered in the region fails here, not silently in every smart retain after the deploy),
forget it and check it is gone, fetch
the docs routes, then erase the tenant (repeating the erase until it answers 404, since the
cloud erases in steps). Each step's latency is printed in a table; the exit code is 1 if any step
failed (the tenant is erased even then), 0 otherwise.

Example::

    engram smoke --url https://abc.execute-api.eu-west-1.amazonaws.com/dev --operator-token "$OP"
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import httpx

WAIT_S = 30.0
"""How long recall may take to find the retained text, and the erasure to finish."""


@dataclass
class Step:
    name: str
    ok: bool
    status: int | None
    ms: float
    note: str = ""


class SmokeFailedError(Exception):
    """One step answered something else than it should (the message says what)."""


class Smoke:
    def __init__(
        self, url: str, operator_token: str, *, timeout_s: float = 30.0, wait_s: float = WAIT_S
    ) -> None:
        base = url.rstrip("/")
        self.http = httpx.Client(base_url=base if base.endswith("/v1") else base + "/v1", timeout=timeout_s)
        self.operator = {"Authorization": f"Bearer {operator_token}"}
        self.key: dict[str, str] = {}
        self.wait_s = wait_s
        self.tenant = "smoke-" + secrets.token_hex(4)
        self.text = f"Smoke check {secrets.token_hex(3)}: the deployment remembers that I prefer dark mode"
        self.conversation = (
            f"Smoke check {secrets.token_hex(3)}: for the smart retain, remember that I water the office plants"
            " every Monday morning before the team meeting"
        )
        self.memory_id = ""
        self.steps: list[Step] = []

    def _call(self, method: str, path: str, headers: dict[str, str], body: Any = None) -> httpx.Response:
        return self.http.request(method, path, headers=headers, json=body)

    def step(self, name: str, run: Callable[[], tuple[httpx.Response, str]]) -> bool:
        started = time.perf_counter()
        try:
            response, note = run()
            ok, status = True, response.status_code
        except SmokeFailedError as exc:
            ok, status, note = False, None, str(exc)
        except httpx.HTTPError as exc:
            ok, status, note = False, None, f"{type(exc).__name__}: {exc}"
        self.steps.append(Step(name, ok, status, (time.perf_counter() - started) * 1000, note))
        return ok

    @staticmethod
    def expect(response: httpx.Response, *statuses: int) -> Any:
        if response.status_code not in statuses:
            raise SmokeFailedError(f"HTTP {response.status_code}: {response.text[:200]}")
        try:
            return response.json()
        except ValueError:
            return response.text

    # -- the steps -------------------------------------------------------------------------------

    def create_tenant(self) -> tuple[httpx.Response, str]:
        r = self._call("POST", "/admin/tenants", self.operator, {"tenant_id": self.tenant})
        self.expect(r, 201)
        return r, self.tenant

    def create_key(self) -> tuple[httpx.Response, str]:
        r = self._call("POST", f"/admin/tenants/{self.tenant}/keys", self.operator, {})
        self.key = {"Authorization": f"Bearer {self.expect(r, 201)['api_key']}"}
        return r, "a read-write key"

    def retain(self) -> tuple[httpx.Response, str]:
        r = self._call(
            "POST", "/memories", self.key, {"scope": "user:smoke", "text": self.text, "mode": "raw"}
        )
        result = self.expect(r, 200)["results"][0]
        self.memory_id = result["id"]
        return r, f"{result['action']} {self.memory_id}"

    def recall(self) -> tuple[httpx.Response, str]:
        give_up = time.monotonic() + self.wait_s
        tries = 0
        while True:
            tries += 1
            r = self._call(
                "POST", "/recall", self.key, {"query": "what does the deployment remember about dark mode?"}
            )
            found = [m["id"] for m in self.expect(r, 200)["memories"]]
            if self.memory_id in found:
                return r, f"found after {tries} tries"
            if time.monotonic() > give_up:
                raise SmokeFailedError(f"not found within {self.wait_s:g} s ({tries} tries): {found}")
            time.sleep(0.5)

    def smart_retain(self) -> tuple[httpx.Response, str]:
        """One smart retain (a job): fails if an LLM is configured but the rules extracted."""
        body = {
            "scope": "user:smoke",
            "messages": [{"role": "user", "content": self.conversation}],
            "mode": "smart",
        }
        r = self._call("POST", "/memories", self.key, body)
        answer = self.expect(r, 200, 202)
        give_up = time.monotonic() + self.wait_s
        accepted = r.status_code == 202  # a job: its status is polled until it has ended
        while accepted and answer.get("status") not in ("succeeded", "failed"):
            if time.monotonic() > give_up:
                raise SmokeFailedError(f"the job is still {answer.get('status')} after {self.wait_s:g} s")
            time.sleep(0.5)
            r = self._call("GET", f"/jobs/{answer['job_id']}", self.key)
            answer = self.expect(r, 200)
        if answer.get("status", "succeeded") != "succeeded":
            raise SmokeFailedError(f"the job failed: {answer.get('error')}")
        if answer.get("fallback"):
            raise SmokeFailedError(f"the extraction fell back to the rules: {answer['fallback']}")
        if answer.get("extraction") == "llm":
            return r, "extracted by the LLM"
        return r, "extracted by the rules (no LLM configured)"

    def forget(self) -> tuple[httpx.Response, str]:
        r = self._call("POST", "/forget", self.key, {"ids": [self.memory_id]})
        deleted = self.expect(r, 200)["deleted"]
        if deleted != [self.memory_id]:
            raise SmokeFailedError(f"deleted {deleted}")
        gone = self._call("GET", f"/memories/{self.memory_id}", self.key)
        self.expect(gone, 404)
        return r, "deleted; GET answers 404"

    def docs(self) -> tuple[httpx.Response, str]:
        health = self._call("GET", "/health", {})
        self.expect(health, 200)
        document = self.expect(self._call("GET", "/openapi.json", {}), 200)
        if "/v1/recall" not in document.get("paths", {}):
            raise SmokeFailedError("the OpenAPI document has no /v1/recall")
        ui = self._call("GET", "/docs", {})
        self.expect(ui, 200)
        return ui, f"health, OpenAPI ({len(document['paths'])} paths), Swagger UI"

    def erase(self) -> tuple[httpx.Response, str]:
        give_up = time.monotonic() + self.wait_s
        first = self._call("DELETE", f"/admin/tenants/{self.tenant}", self.operator)
        self.expect(first, 200, 202)
        if first.status_code == 200:
            return first, "erased"
        while True:  # erased in steps: done once the tenant is gone
            again = self._call("DELETE", f"/admin/tenants/{self.tenant}", self.operator)
            if again.status_code == 404:
                return first, "erased in steps"
            self.expect(again, 202)
            if time.monotonic() > give_up:
                raise SmokeFailedError(f"still erasing after {self.wait_s:g} s")
            time.sleep(1.0)

    def run(self) -> bool:
        created = self.step("create tenant", self.create_tenant)
        if created and self.step("create key", self.create_key) and self.step("retain", self.retain):
            self.step("recall", self.recall)
            self.step("smart retain", self.smart_retain)
            self.step("forget", self.forget)
        self.step("docs", self.docs)
        if created:
            self.step("erase tenant", self.erase)
        return all(s.ok for s in self.steps)

    def table(self) -> str:
        rows = [("step", "result", "status", "ms", "note")]
        rows += [
            (s.name, "ok" if s.ok else "FAILED", str(s.status or "-"), f"{s.ms:.0f}", s.note)
            for s in self.steps
        ]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = [
            "  ".join(c.ljust(w) for c, w in zip(r[:4], widths, strict=True)) + "  " + r[4] for r in rows
        ]
        return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    smoke = Smoke(args.url, args.operator_token, wait_s=args.wait)
    ok = smoke.run()
    if args.json:
        print(json.dumps({"ok": ok, "tenant": smoke.tenant, "steps": [asdict(s) for s in smoke.steps]}))
    else:
        print(smoke.table())
        print("smoke check passed" if ok else "smoke check FAILED")
    return 0 if ok else 1
