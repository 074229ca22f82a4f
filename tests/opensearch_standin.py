"""An OpenSearch domain stand-in that checks what it receives, for the Lambda-layout test.

It speaks HTTPS only (a ``trustme`` certificate; clients trust its CA through ``SSL_CERT_FILE``),
so a client sending plain HTTP, or to another port, reaches nothing. Every request must

- be SigV4-signed for the ``es`` service; the access key id names the calling function's role,
  whose IAM grant from the template (``iam``: role -> HTTP methods) must allow the method;
- once the security API has mapped roles (the search setup custom resource), be allowed by
  fine-grained access control: a reader's role may only search, a writer's also write;
- be one of the operations of ``tests/contract/opensearch/operations.json`` (method and path
  template, recorded from the OpenSearch API specification), with the bodies Engram's contract
  fixes: bulk actions versioned externally and routed by their tenant, vectors of the index's
  dimension, every search (k-NN filter included) scoped by a tenant term and routed by it.

It keeps enough state to answer like a domain: the index exists once created from the template,
documents obey external versioning (a delete leaves a versioned tombstone, a write at a version
that is not higher is a 409), and searches are evaluated (filters, k-NN by cosine, a word-overlap
score for ``match``, ``terms`` on ids, ``search_after``). Problems are collected in ``problems``
(the test asserts there are none) and answered with 400 or 403 as a domain would.
"""

from __future__ import annotations

import json
import math
import re
import ssl
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

OPERATIONS = json.loads(
    (Path(__file__).resolve().parent / "contract" / "opensearch" / "operations.json").read_text()
)["operations"]
READS = {"search", "msearch", "exists", "get_mapping"}
WORD = re.compile(r"[a-z0-9]+")
CREDENTIAL = re.compile(r"Credential=([A-Z0-9]+)/\d{8}/([a-z0-9-]+)/([a-z]+)/aws4_request")


def _template(path: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path) + "$")


ROUTES = [(op["method"], _template(op["path"]), op["name"]) for op in OPERATIONS]


@dataclass
class Doc:
    version: int
    source: dict[str, Any] | None  # None: a tombstone


@dataclass
class OpenSearchStandIn:
    server: ThreadingHTTPServer
    ca_file: Path
    iam: dict[str, set[str]] = field(default_factory=dict)
    """Access key id -> the HTTP methods its role's IAM policy allows on the domain."""
    role_of_key: dict[str, str] = field(default_factory=dict)
    """Access key id -> the role ARN it stands for."""
    master: str = ""
    """The domain's master user (``AdvancedSecurityOptions``): always mapped to all_access."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    template: dict[str, Any] | None = None
    index_settings: dict[str, Any] | None = None
    index_mappings: dict[str, Any] | None = None
    """The index's mapping, fixed when it was created (a later template changes only new indices)."""
    pipelines: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, Any] = field(default_factory=dict)
    mappings: dict[str, list[str]] = field(default_factory=dict)
    docs: dict[str, Doc] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def address(self) -> str:
        """``host:port`` as a domain's ``DomainEndpoint`` attribute reads (no scheme)."""
        return f"localhost:{self.server.server_address[1]}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def live(self, tenant_id: str) -> dict[str, dict[str, Any]]:
        return {
            k: d.source
            for k, d in self.docs.items()
            if d.source is not None and k.startswith(f"{tenant_id}:")
        }

    # -- checks ------------------------------------------------------------------------------------

    def problem(self, text: str) -> None:
        self.problems.append(text)

    def allowed_by_fgac(self, key: str, name: str) -> bool:
        role = self.role_of_key.get(key, "")
        if role == self.master:
            return True
        if role in self.mappings.get("all_access", []):
            return True
        if role in self.mappings.get("engram_writer", []):
            return True
        return name in READS and role in self.mappings.get("engram_reader", [])

    # -- operations --------------------------------------------------------------------------------

    def handle(self, method: str, path: str, query: dict[str, str], body: Any, auth: str) -> tuple[int, Any]:
        name, params = self.route(method, path)
        record = {"method": method, "path": path, "query": query, "body": body, "operation": name}
        self.requests.append(record)
        signed = CREDENTIAL.search(auth)
        if signed is None or signed.group(3) != "es":
            self.problem(f"{method} {path}: not SigV4-signed for es ({auth[:40]!r})")
            return 403, {"message": "missing authentication"}
        key = signed.group(1)
        record["key"] = key
        if method not in self.iam.get(key, set()):
            self.problem(f"{method} {path}: IAM does not allow {key} ({self.role_of_key.get(key)})")
            return 403, {"message": f"User is not authorized to perform: es:ESHttp{method.capitalize()}"}
        if name is None:
            self.problem(f"{method} {path}: not an operation Engram's contract names")
            return 400, {"error": {"type": "invalid_path"}, "status": 400}
        if not self.allowed_by_fgac(key, name):
            self.problem(f"{method} {path}: fine-grained access control denies {self.role_of_key.get(key)}")
            return 403, {"error": {"type": "security_exception"}, "status": 403}
        with self.lock:
            return getattr(self, f"op_{name}")(params, query, body)

    def route(self, method: str, path: str) -> tuple[str | None, dict[str, str]]:
        for m, pattern, name in ROUTES:
            match = pattern.match(path)
            if m == method and match is not None:
                return name, match.groupdict()
        return None, {}

    def op_put_template(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        embedding = body["template"]["mappings"]["properties"].get("embedding", {})
        if embedding.get("type") != "knn_vector" or body["template"]["settings"].get("index.knn") is not True:
            self.problem("index template without a knn_vector embedding")
        self.template = body
        return 200, {"acknowledged": True}

    def op_exists(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        return (200 if self.index_settings is not None else 404), {}

    def op_create_index(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        if self.template is None:
            self.problem("index created before its template: it would get a dynamic mapping")
        if self.index_settings is not None:
            return 400, {"error": {"type": "resource_already_exists_exception"}, "status": 400}
        self.index_settings = dict((self.template or {}).get("template", {}).get("settings", {}))
        self.index_mappings = json.loads(
            json.dumps((self.template or {}).get("template", {}).get("mappings", {}))
        )
        return 200, {"acknowledged": True, "index": params["index"]}

    def op_get_mapping(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        if self.index_settings is None:
            return 404, {"error": {"type": "index_not_found_exception"}, "status": 404}
        return 200, {params["index"]: {"mappings": self.index_mappings or {}}}

    def op_put_settings(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        if self.index_settings is None:
            return 404, {"error": {"type": "index_not_found_exception"}, "status": 404}
        self.index_settings["number_of_replicas"] = body["index"]["number_of_replicas"]
        return 200, {"acknowledged": True}

    def op_put_pipeline(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        self.pipelines[params["id"]] = body
        return 200, {"acknowledged": True}

    def op_put_role(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        self.roles[params["role"]] = body
        return 200, {"status": "OK"}

    def op_put_role_mapping(
        self, params: dict[str, str], query: dict[str, str], body: Any
    ) -> tuple[int, Any]:
        self.mappings[params["role"]] = list(body.get("backend_roles", []))
        return 200, {"status": "OK"}

    def _dimension(self) -> int:
        assert self.index_mappings is not None
        return int(self.index_mappings["properties"]["embedding"]["dimension"])

    def op_bulk(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        if self.index_settings is None:
            self.problem("_bulk before the index exists: it would be created with a dynamic mapping")
            return 404, {"error": {"type": "index_not_found_exception"}, "status": 404}
        items, position = [], 0
        while position < len(body):
            [(op, meta)] = body[position].items()
            source = body[position + 1] if op == "index" else None
            position += 2 if op == "index" else 1
            doc_id = str(meta.get("_id", ""))
            tenant = doc_id.split(":", 1)[0]
            if meta.get("_index") != "engram-memories" or meta.get("routing") != tenant:
                self.problem(f"bulk {op} {doc_id}: index {meta.get('_index')}, routing {meta.get('routing')}")
            if op == "index" and (
                meta.get("version_type") != "external" or not isinstance(meta.get("version"), int)
            ):
                self.problem(f"bulk index {doc_id} without an external version")
            if source is not None and len(source.get("embedding", [])) != self._dimension():
                self.problem(f"bulk index {doc_id}: vector of {len(source.get('embedding', []))} dimensions")
            items.append({op: self._write(op, doc_id, meta.get("version"), source)})
        return 200, {
            "took": 1,
            "errors": any(i[next(iter(i))]["status"] >= 300 for i in items),
            "items": items,
        }

    def _write(
        self, op: str, doc_id: str, version: int | None, source: dict[str, Any] | None
    ) -> dict[str, Any]:
        current = self.docs.get(doc_id)
        if version is not None and current is not None and version <= current.version:
            return {"_id": doc_id, "status": 409, "error": {"type": "version_conflict_engine_exception"}}
        if op == "delete":
            existed = current is not None and current.source is not None
            next_version = version if version is not None else (current.version + 1 if current else 1)
            self.docs[doc_id] = Doc(next_version, None)
            return {
                "_id": doc_id,
                "result": "deleted" if existed else "not_found",
                "status": 200 if existed else 404,
            }
        self.docs[doc_id] = Doc(
            version if version is not None else (current.version + 1 if current else 1), source
        )
        return {"_id": doc_id, "result": "created", "status": 201}

    def op_msearch(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        responses = []
        for header, search in zip(body[0::2], body[1::2], strict=True):
            tenant = _tenant_of(search.get("query", {}))
            if tenant is None:
                self.problem(f"a search without a tenant filter: {json.dumps(search)[:200]}")
            if header.get("routing") != tenant or header.get("index") != "engram-memories":
                self.problem(f"msearch header {header} for tenant {tenant}")
            responses.append({"hits": {"hits": self._search(search, tenant or "")}, "status": 200})
        return 200, {"took": 1, "responses": responses}

    def op_search(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        tenant = _tenant_of(body.get("query", {}))
        if tenant is None or query.get("routing") != tenant:
            self.problem("a search without its tenant filter and routing")
        return 200, {"hits": {"hits": self._search(body, tenant or "")}}

    def op_delete_by_query(self, params: dict[str, str], query: dict[str, str], body: Any) -> tuple[int, Any]:
        tenant = _tenant_of(body.get("query", {}))
        if tenant is None or query.get("routing") != tenant:
            self.problem("delete_by_query without its tenant filter and routing")
        gone = [k for k, src in self.live(tenant or "").items() if _matches(src, body["query"])]
        for key in gone:
            self.docs[key] = Doc(self.docs[key].version + 1, None)
        return 200, {"deleted": len(gone), "version_conflicts": 0, "failures": []}

    def _search(self, search: dict[str, Any], tenant: str) -> list[dict[str, Any]]:
        query = search.get("query", {})
        size = int(search.get("size", 10))
        docs = self.live(tenant)
        if "knn" in query:
            spec = query["knn"]["embedding"]
            if len(spec["vector"]) != self._dimension() or "filter" not in spec:
                self.problem("a k-NN query of another dimension or without its filter")
            scored = [
                (k, (1 + _cosine(spec["vector"], src["embedding"])) / 2)
                for k, src in docs.items()
                if _matches(src, spec.get("filter", {"match_all": {}}))
            ]
            scored.sort(key=lambda kv: -kv[1])
            scored = scored[: min(size, int(spec["k"]))]
        else:
            scored = [(k, _lexical(src, query)) for k, src in docs.items() if _matches(src, query)]
            if "sort" in search:
                scored.sort(key=lambda kv: docs[kv[0]]["memory_id"])
                after = (search.get("search_after") or [None])[0]
                scored = [kv for kv in scored if after is None or docs[kv[0]]["memory_id"] > after]
            else:
                scored.sort(key=lambda kv: -kv[1])
            scored = scored[:size]
        wanted = search.get("_source")
        hits = []
        for key, score in scored:
            hit: dict[str, Any] = {
                "_index": "engram-memories",
                "_id": key,
                "_score": score,
                "_routing": tenant,
            }
            if isinstance(wanted, dict):
                hit["_source"] = {f: docs[key][f] for f in wanted.get("includes", []) if f in docs[key]}
            elif wanted is not False:
                hit["_source"] = docs[key]
            if "sort" in search:
                hit["sort"] = [docs[key]["memory_id"]]
            hits.append(hit)
        return hits


def _tenant_of(query: dict[str, Any]) -> str | None:
    """The tenant of the ``term`` on ``tenant_id`` that every Engram query filters by."""
    if "knn" in query:
        [spec] = query["knn"].values()
        return _tenant_of(spec.get("filter", {}))
    if "bool" in query:
        for clause in query["bool"].get("filter", []):
            if "term" in clause and "tenant_id" in clause["term"]:
                return str(clause["term"]["tenant_id"])
            found = _tenant_of(clause)
            if found is not None:
                return found
    return None


def _words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def _lexical(src: dict[str, Any], query: dict[str, Any]) -> float:
    texts = [m["match"]["content"]["query"] for m in query.get("bool", {}).get("must", []) if "match" in m]
    return float(sum(len(_words(t) & _words(src.get("content", ""))) for t in texts))


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)) or 1.0
    return dot / norm


def _matches(src: dict[str, Any], query: dict[str, Any]) -> bool:
    if not query or "match_all" in query:
        return True
    if "bool" in query:
        b = query["bool"]
        must = [*b.get("filter", []), *b.get("must", [])]
        if not all(_matches(src, q) for q in must):
            return False
        if any(_matches(src, q) for q in b.get("must_not", [])):
            return False
        should = b.get("should", [])
        need = int(b.get("minimum_should_match", 1 if should and not must else 0))
        return sum(_matches(src, q) for q in should) >= need
    if "term" in query:
        [(name, value)] = query["term"].items()
        have = src.get(name)
        return value in have if isinstance(have, list) else have == value
    if "terms" in query:
        [(name, values)] = query["terms"].items()
        have = src.get(name)
        return bool(set(have) & set(values)) if isinstance(have, list) else have in values
    if "range" in query:
        [(name, bounds)] = query["range"].items()
        have = src.get(name)
        if have is None:
            return False
        checks = {"gte": have >= bounds.get("gte", have), "lte": have <= bounds.get("lte", have)}
        checks |= {
            "gt": "gt" not in bounds or have > bounds["gt"],
            "lt": "lt" not in bounds or have < bounds["lt"],
        }
        return all(checks.values())
    if "exists" in query:
        return src.get(query["exists"]["field"]) is not None
    if "match" in query:
        return bool(_words(query["match"]["content"]["query"]) & _words(src.get("content", "")))
    raise AssertionError(f"the stand-in does not evaluate {json.dumps(query)[:100]}")


def start(directory: Path) -> OpenSearchStandIn:
    """Serve HTTPS on a free port of localhost; the CA to trust is written to ``directory``."""
    import trustme

    ca = trustme.CA()
    cert = ca.issue_cert("localhost", "127.0.0.1")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(context)
    ca_file = directory / "opensearch-ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    stand_in: OpenSearchStandIn

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            return

        def _serve(self) -> None:
            parts = urllib.parse.urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode() if length else ""
            if parts.path.endswith(("/_bulk", "/_msearch")):
                body: Any = [json.loads(line) for line in raw.splitlines() if line.strip()]
            else:
                body = json.loads(raw) if raw else None
            query = dict(urllib.parse.parse_qsl(parts.query))
            try:
                status, answer = stand_in.handle(
                    self.command, parts.path, query, body, self.headers.get("Authorization", "")
                )
            except Exception as exc:  # a shape the stand-in cannot read is a problem too
                stand_in.problem(f"{self.command} {parts.path}: {type(exc).__name__}: {exc}")
                status, answer = 400, {"error": {"type": "parse_exception"}, "status": 400}
            payload = json.dumps(answer).encode() if self.command != "HEAD" else b""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if payload:
                self.wfile.write(payload)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _serve

    class Server(ThreadingHTTPServer):
        def get_request(self) -> Any:
            sock, address = super().get_request()
            return context.wrap_socket(sock, server_side=True), address

        def handle_error(self, request: Any, client_address: Any) -> None:
            return  # a client speaking plain HTTP fails the handshake: it gets nothing

    server = Server(("127.0.0.1", 0), Handler)
    stand_in = OpenSearchStandIn(server=server, ca_file=ca_file)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return stand_in
