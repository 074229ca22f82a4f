// npm run generate                  start `engram serve`, read its OpenAPI document, write src/schema.ts
// npm run generate -- --url URL     read it from a running server instead
// npm run generate -- --spec FILE   read a saved document
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { startServe } from "./serve.mjs";
import { SCHEMA_FILE, fetchSpec, renderTypes } from "./types.mjs";

const { values } = parseArgs({ options: { url: { type: "string" }, spec: { type: "string" } } });

async function spec() {
  if (values.spec) return JSON.parse(readFileSync(values.spec, "utf8"));
  if (values.url) return fetchSpec(values.url);
  const server = await startServe();
  try {
    return await fetchSpec(server.url);
  } finally {
    await server.stop();
  }
}

writeFileSync(SCHEMA_FILE, await renderTypes(await spec()));
console.log(`wrote ${SCHEMA_FILE.pathname}`);
