// Retries, timeouts and typed errors against a scripted HTTP server: each test says what the
// server answers, attempt by attempt, and checks what the client sent and threw.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { after, before, beforeEach, describe, it } from "node:test";

import { APITimeoutError, BadRequestError, Engram, InternalServerError, RateLimitError } from "../dist/esm/index.js";

/** Answers are [status, body, headers?] or "hang" (never answers); requests are recorded. */
let script = [];
const seen = [];
let server;
let baseUrl;

before(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body, at: Date.now() });
      const answer = script.shift() ?? [500, { error: { code: "internal", message: "script ran out" } }];
      if (answer === "hang") return;
      const [status, payload, headers = {}] = answer;
      response.writeHead(status, { "Content-Type": "application/json", ...headers });
      response.end(JSON.stringify(payload));
    });
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  script = [];
  seen.length = 0;
});

function client(options = {}) {
  return new Engram({ baseUrl, apiKey: "egk_test", backoffMs: 10, maxBackoffMs: 40, ...options });
}

const unavailable = [503, { error: { code: "unavailable", message: "try again" } }];
const retained = [200, { results: [{ id: "mem_" + "0".repeat(32), action: "created" }] }];

describe("retries", () => {
  it("retries a retain after a 503 with the same Idempotency-Key", async () => {
    script = [unavailable, unavailable, retained];
    const result = await client().retain({ scope: "user:a", text: "hello" });
    assert.equal(result.results[0].action, "created");
    assert.equal(seen.length, 3);
    const keys = seen.map((r) => r.headers["idempotency-key"]);
    assert.match(keys[0], /^[0-9a-f-]{36}$/);
    assert.deepEqual(new Set(keys).size, 1);
    assert.equal(seen[0].headers.authorization, "Bearer egk_test");
  });

  it("gives each retain call its own Idempotency-Key", async () => {
    script = [retained, retained];
    const engram = client();
    await engram.retain({ scope: "user:a", text: "one" });
    await engram.retain({ scope: "user:a", text: "two" });
    assert.notEqual(seen[0].headers["idempotency-key"], seen[1].headers["idempotency-key"]);
  });

  it("waits the Retry-After the server asks for", async () => {
    script = [[429, { error: { code: "rate_limited", message: "slow down" } }, { "Retry-After": "1" }], retained];
    await client().retain({ scope: "user:a", text: "hello" });
    assert.equal(seen.length, 2);
    assert.ok(seen[1].at - seen[0].at >= 950, `waited ${seen[1].at - seen[0].at} ms`);
  });

  it("never retries another 4xx, and throws it typed with the envelope", async () => {
    const details = [{ field: "scope", message: "must match" }];
    script = [[400, { error: { code: "validation_error", message: "scope: bad", details } }]];
    await assert.rejects(client().recall({ query: "x" }), (error) => {
      assert.ok(error instanceof BadRequestError);
      assert.equal(error.status, 400);
      assert.equal(error.code, "validation_error");
      assert.equal(error.message, "scope: bad");
      assert.deepEqual(error.details, details);
      return true;
    });
    assert.equal(seen.length, 1);
  });

  it("throws the last 5xx when the retries run out", async () => {
    script = [unavailable, unavailable, unavailable];
    await assert.rejects(client({ maxRetries: 2 }).stats(), (error) => {
      assert.ok(error instanceof InternalServerError);
      assert.equal(error.code, "unavailable");
      return true;
    });
    assert.equal(seen.length, 3);
  });

  it("does not wait for a Retry-After longer than its limit", async () => {
    script = [[429, { error: { code: "rate_limited", message: "tomorrow" } }, { "Retry-After": "3600" }]];
    await assert.rejects(client().stats(), RateLimitError);
    assert.equal(seen.length, 1);
  });

  it("times out an attempt that gets no answer, and retries it", async () => {
    script = ["hang", [200, { total: 0 }]];
    const stats = await client({ timeoutMs: 200 }).stats();
    assert.equal(stats.total, 0);
    assert.equal(seen.length, 2);
  });

  it("throws a timeout error when no attempt is answered", async () => {
    script = ["hang", "hang"];
    await assert.rejects(client({ timeoutMs: 150, maxRetries: 1 }).stats(), APITimeoutError);
  });
});

describe("requests", () => {
  it("sends list filters as the query and follows cursors page after page", async () => {
    const memory = (n) => ({ id: `mem_${String(n).padStart(32, "0")}`, content: `m${n}` });
    script = [
      [200, { memories: [memory(1), memory(2)], next_cursor: "c2" }],
      [200, { memories: [memory(3)], next_cursor: null }],
    ];
    const contents = [];
    for await (const m of client().iterMemories({ scope: "user:a", limit: 2 })) contents.push(m.content);
    assert.deepEqual(contents, ["m1", "m2", "m3"]);
    assert.equal(seen[0].url, "/v1/memories?scope=user%3Aa&limit=2");
    assert.equal(seen[1].url, "/v1/memories?scope=user%3Aa&limit=2&cursor=c2");
  });

  it("is usable from CommonJS", () => {
    const require = createRequire(import.meta.url);
    const cjs = require("../dist/cjs/index.js");
    assert.equal(typeof cjs.Engram, "function");
    assert.ok(new cjs.NotFoundError(404, {}, new Headers()) instanceof cjs.APIError);
  });
});
