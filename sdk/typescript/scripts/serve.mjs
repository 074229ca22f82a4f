// `engram serve --port 0` in a child process on a throwaway data dir, for the type generator and
// the tests: the real server, found in the repository's .venv unless ENGRAM_BIN names another.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const venvEngram = resolve(here, "../../../.venv/bin/engram");

export function engramBin() {
  return process.env.ENGRAM_BIN ?? (existsSync(venvEngram) ? venvEngram : "engram");
}

/** Start a server; resolves to { url, operatorToken, stop() } once it prints its URL. */
export async function startServe() {
  const dataDir = mkdtempSync(join(tmpdir(), "engram-ts-"));
  const child = spawn(engramBin(), ["--data-dir", dataDir, "serve", "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr = [];
  child.stderr.on("data", (chunk) => stderr.push(chunk));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolveUrl, reject) => {
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`engram serve exited (${code}): ${Buffer.concat(stderr).toString()}`)),
    );
    lines.once("line", (line) => {
      if (!line.startsWith("Engram listening on ")) reject(new Error(`unexpected first line: ${line}`));
      else resolveUrl(line.split(/\s+/)[3]);
    });
  });
  child.stdout.resume(); // keep reading: a full pipe would block the server
  const operatorToken = readFileSync(join(dataDir, "operator-token"), "utf8").trim();
  async function stop() {
    child.removeAllListeners("exit");
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { url, operatorToken, stop };
}
