// The package as a user gets it: `npm pack`, installed by its name into a fresh project outside
// the checkout, imported as ESM and CommonJS, and the README's TypeScript snippets type-checked
// against it as the README says to save them (`.mts`, so top-level await is allowed).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const SDK = dirname(dirname(fileURLToPath(import.meta.url)));
const README = join(SDK, "..", "..", "README.md");
const TSC = join(SDK, "node_modules", "typescript", "bin", "tsc");
const NAME = "engram-recall";

let project;
let packed;

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

before(() => {
  project = mkdtempSync(join(tmpdir(), "engram-npm-"));
  [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", project], SDK));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "my-agent", private: true }));
  // no runtime dependencies, so the tarball installs offline
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", join(project, packed.filename)], project);
});

after(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("is named engram-recall and asks for Node 20 or newer", () => {
    assert.equal(packed.name, NAME);
    const manifest = JSON.parse(readFileSync(join(project, "node_modules", NAME, "package.json"), "utf8"));
    assert.equal(manifest.engines.node, ">=20");
  });

  it("is imported by its name as ESM and required as CommonJS", () => {
    writeFileSync(join(project, "esm.mjs"), `import { Engram } from "${NAME}"; console.log(typeof Engram);`);
    writeFileSync(join(project, "cjs.cjs"), `const { Engram } = require("${NAME}"); console.log(typeof Engram);`);
    assert.equal(run("node", ["esm.mjs"], project).trim(), "function");
    assert.equal(run("node", ["cjs.cjs"], project).trim(), "function");
  });

  it("type-checks every TypeScript snippet of the README saved as a .mts file", () => {
    const snippets = [...readFileSync(README, "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    assert.ok(snippets.length >= 2, "the README's TypeScript snippets");
    const files = snippets.map((code, i) => {
      const file = `snippet${i}.mts`;
      writeFileSync(join(project, file), code);
      return file;
    });
    const options = ["--noEmit", "--strict", "--module", "nodenext", "--target", "es2022", "--types", "node"];
    run("node", [TSC, ...options, "--typeRoots", join(SDK, "node_modules", "@types"), ...files], project);
  });
});
