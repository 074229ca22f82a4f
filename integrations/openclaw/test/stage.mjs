// The plugin as `openclaw plugins install` leaves it: its manifest, package.json and build, with
// its runtime dependencies (engram-recall, typebox) copied into its own node_modules, in a
// throwaway directory. OpenClaw captures a plugin's package before loading it and refuses an
// entry whose modules resolve outside it (the development checkout links engram-recall to
// sdk/typescript and holds openclaw itself as a dev dependency).
import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const pluginRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function copyPackage(name, into, pick) {
  const from = realpathSync(join(pluginRoot, "node_modules", name));
  const to = join(into, "node_modules", name);
  mkdirSync(to, { recursive: true });
  for (const entry of pick) cpSync(join(from, entry), join(to, entry), { recursive: true, dereference: true });
}

export function stagePlugin(into) {
  const root = join(into, "engram-recall-openclaw");
  mkdirSync(root, { recursive: true });
  for (const entry of ["openclaw.plugin.json", "dist"]) cpSync(join(pluginRoot, entry), join(root, entry), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(pluginRoot, "package.json"), "utf8"));
  delete manifest.devDependencies;
  delete manifest.scripts;
  writeFileSync(join(root, "package.json"), JSON.stringify(manifest, null, 2));
  copyPackage("engram-recall", root, ["package.json", "dist"]);
  copyPackage("typebox", root, ["package.json", "build"]);
  return root;
}
