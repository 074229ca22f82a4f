// `npm test`: the unit tests on this Node, then the OpenClaw tests (which start OpenClaw on the
// Node its engines require, and a real `engram serve`).
import { spawnSync } from "node:child_process";

const files = process.argv.slice(2);
const run = spawnSync(
  process.execPath,
  ["--test", "--test-reporter=spec", "--test-concurrency=1", ...(files.length ? files : ["test/unit.test.mjs", "test/openclaw.test.mjs"])],
  { stdio: "inherit" },
);
process.exit(run.status ?? 1);
