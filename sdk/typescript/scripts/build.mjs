// ESM and CommonJS builds of src/ (tsc twice); each dist folder says which it is.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";

const tsc = new URL("../node_modules/typescript/bin/tsc", import.meta.url).pathname;
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
for (const [config, type] of [
  ["tsconfig.json", "module"],
  ["tsconfig.cjs.json", "commonjs"],
]) {
  execFileSync(process.execPath, [tsc, "-p", config], { stdio: "inherit" });
  const folder = type === "module" ? "esm" : "cjs";
  writeFileSync(new URL(`../dist/${folder}/package.json`, import.meta.url), JSON.stringify({ type }) + "\n");
}
