// The client against a real `engram serve` (started here on a throwaway data dir), in a tenant
// made through the admin API with the operator token, as an operator would.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";

import { AuthenticationError, Engram, NotFoundError, UnprocessableEntityError } from "../dist/esm/index.js";
import { startServe } from "../scripts/serve.mjs";
import { SCHEMA_FILE, fetchSpec, renderTypes } from "../scripts/types.mjs";

let server;
let engram;

async function admin(path, body) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${server.operatorToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return response.json();
}

before(async () => {
  server = await startServe();
  const tenant = `ts-${Date.now().toString(36)}`;
  await admin("/v1/admin/tenants", { tenant_id: tenant });
  const { api_key } = await admin(`/v1/admin/tenants/${tenant}/keys`, {});
  engram = new Engram({ baseUrl: server.url, apiKey: api_key, backoffMs: 50 });
});

after(async () => {
  await server?.stop();
});

describe("against engram serve", () => {
  it("retains a memory and recalls it by a paraphrase", async () => {
    const retained = await engram.retain({ scope: "user:alice", text: "I prefer dark mode in every editor", mode: "raw" });
    assert.equal(retained.results[0].action, "created");
    const { memories } = await engram.recall({ query: "which colour theme do I like?", scopes: ["user:alice"] });
    assert.equal(memories[0].id, retained.results[0].id);
    assert.equal(memories[0].content, "I prefer dark mode in every editor");
  });

  it("answers a retain repeated with the same Idempotency-Key with the first answer", async () => {
    const request = { scope: "user:alice", text: "My sister lives in Porto", mode: "raw" };
    const first = await engram.retain(request, { idempotencyKey: "same-key-1" });
    const second = await engram.retain(request, { idempotencyKey: "same-key-1" });
    assert.equal(second.replayed, true);
    assert.deepEqual(second.results, first.results);
  });

  it("forgets on a dry run without deleting, then for real", async () => {
    const { results } = await engram.retain({ scope: "user:bob", text: "Bob's locker code is 4412", mode: "raw" });
    const id = results[0].id;
    const dry = await engram.forget({ ids: [id], dry_run: true });
    assert.equal(dry.dry_run, true);
    assert.deepEqual(dry.would_delete, [id]);
    assert.deepEqual(dry.deleted, []);
    assert.equal((await engram.getMemory(id)).id, id);
    const done = await engram.forget({ ids: [id] });
    assert.deepEqual(done.deleted, [id]);
    await assert.rejects(engram.getMemory(id), NotFoundError);
  });

  it("records feedback on a memory", async () => {
    const { results } = await engram.retain({ scope: "user:carol", text: "Carol drinks her tea without sugar", mode: "raw" });
    const answer = await engram.feedback(results[0].id, { signal: "used" });
    assert.equal(answer.id, results[0].id);
    assert.ok(answer.feedback_weight > 0.5, `weight ${answer.feedback_weight}`);
  });

  it("lists memories page by page with the async iterator", async () => {
    const texts = Array.from({ length: 7 }, (_, n) => `Paging note number ${n} about item ${n * 13}`);
    await engram.retain({ scope: "project:paging", items: texts.map((text) => ({ text })), mode: "raw" });
    const page = await engram.listMemories({ scope: "project:paging", limit: 3 });
    assert.equal(page.memories.length, 3);
    assert.ok(page.next_cursor);
    const all = [];
    for await (const memory of engram.iterMemories({ scope: "project:paging", limit: 3 })) all.push(memory.content);
    assert.deepEqual(all.sort(), [...texts].sort());
  });

  it("throws the API's validation error with its code and details", async () => {
    await assert.rejects(engram.retain({ scope: "team:nope", text: "x" }), (error) => {
      assert.ok(error instanceof UnprocessableEntityError || error.status === 400, error.name);
      assert.equal(typeof error.code, "string");
      assert.ok(error.details.length > 0);
      assert.ok(JSON.stringify(error.details).includes("scope"));
      return true;
    });
  });

  it("throws an authentication error for a wrong key", async () => {
    const stranger = new Engram({ baseUrl: server.url, apiKey: "egk_not_a_key" });
    await assert.rejects(stranger.stats(), (error) => error instanceof AuthenticationError && error.status === 401);
  });

  it("counts what the tenant holds", async () => {
    const stats = await engram.stats();
    assert.ok(stats.total >= 9, `total ${stats.total}`);
    assert.equal((await engram.health()).status, "ok");
  });

  it("has types that match the server's OpenAPI document", async () => {
    const expected = await renderTypes(await fetchSpec(server.url));
    const committed = readFileSync(SCHEMA_FILE, "utf8");
    assert.ok(committed === expected, "src/schema.ts differs from /v1/openapi.json: run `npm run generate`");
  });
});
