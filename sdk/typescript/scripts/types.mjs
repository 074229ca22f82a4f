// The OpenAPI document of `engram serve` rendered as TypeScript types by openapi-typescript:
// one function, so `npm run generate` and the drift test cannot render it differently.
import openapiTS, { astToString } from "openapi-typescript";

export const SCHEMA_FILE = new URL("../src/schema.ts", import.meta.url);

const HEADER = `/**
 * Types of the Engram HTTP API, generated from /v1/openapi.json by openapi-typescript.
 * Do not edit: run \`npm run generate\` (a test fails when this file and the API differ).
 */

`;

export async function renderTypes(spec) {
  // defaultNonNullable off: a field with a default is optional to send (and may be absent in an answer).
  const ast = await openapiTS(spec, { alphabetize: true, defaultNonNullable: false });
  return HEADER + astToString(ast);
}

export async function fetchSpec(url) {
  const response = await fetch(new URL("/v1/openapi.json", url));
  if (!response.ok) throw new Error(`GET ${url}/v1/openapi.json: ${response.status}`);
  return response.json();
}
