/** The plugin's settings: `plugins.entries.engram-recall-openclaw.config` in openclaw.json, read once
 * at registration (the schema in openclaw.plugin.json says the same; this is what the code relies on). */

export type CaptureMode = "auto" | "smart" | "raw" | "off";

export interface AgentMapping {
  /** The scope this agent's turns are retained into (a template, see `ScopeTemplate`). */
  scope?: string;
  /** The scopes auto-recall and memory_search read (templates); default: `[scope]`. */
  recallScopes?: string[];
}

export interface EngramPluginConfig {
  url: string;
  apiKey: string;
  scope: string;
  recallScopes: string[];
  agents: Record<string, AgentMapping>;
  includeAgents: string[];
  excludeAgents: string[];
  autoRecall: boolean;
  capture: CaptureMode;
  recall: { maxItems: number; maxChars: number; minPromptChars: number; timeoutMs: number };
  requestTimeoutMs: number;
  cooldownMs: number;
  feedback: boolean;
}

export const DEFAULTS = {
  url: "http://127.0.0.1:8080",
  scope: "agent:{agentId}",
  capture: "auto" as CaptureMode,
  recall: { maxItems: 5, maxChars: 2000, minPromptChars: 12, timeoutMs: 1500 },
  requestTimeoutMs: 5000,
  cooldownMs: 30_000,
};

/** A config problem, said in one line naming the field. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

/** The settings from the plugin's config object and the environment (`ENGRAM_URL`,
 * `ENGRAM_API_KEY`): the config wins over the environment, except that an `apiKey` of the form
 * `${NAME}` (or `env:NAME`) names the variable to read. */
export function readConfig(raw: Record<string, unknown> | undefined, env: Env = process.env): EngramPluginConfig {
  const c = raw ?? {};
  const recall = record(c.recall, "recall");
  const apiKey = resolveSecret(optionalString(c.apiKey, "apiKey"), env) ?? env.ENGRAM_API_KEY ?? "";
  if (!apiKey) {
    throw new ConfigError("no Engram API key: set apiKey in the plugin config or ENGRAM_API_KEY in the environment");
  }
  const scope = optionalString(c.scope, "scope") ?? DEFAULTS.scope;
  const capture = optionalString(c.capture, "capture") ?? DEFAULTS.capture;
  if (!["auto", "smart", "raw", "off"].includes(capture)) {
    throw new ConfigError(`capture: must be one of auto, smart, raw, off (got ${JSON.stringify(capture)})`);
  }
  const agents: Record<string, AgentMapping> = {};
  for (const [id, value] of Object.entries(record(c.agents, "agents"))) {
    const mapping = record(value, `agents.${id}`);
    agents[id] = {
      scope: optionalString(mapping.scope, `agents.${id}.scope`),
      recallScopes: optionalStrings(mapping.recallScopes, `agents.${id}.recallScopes`),
    };
  }
  return {
    url: (optionalString(c.url, "url") ?? env.ENGRAM_URL ?? DEFAULTS.url).replace(/\/+$/, ""),
    apiKey,
    scope,
    recallScopes: optionalStrings(c.recallScopes, "recallScopes") ?? [scope],
    agents,
    includeAgents: optionalStrings(c.includeAgents, "includeAgents") ?? [],
    excludeAgents: optionalStrings(c.excludeAgents, "excludeAgents") ?? [],
    autoRecall: optionalBoolean(c.autoRecall, "autoRecall") ?? true,
    capture: capture as CaptureMode,
    recall: {
      maxItems: optionalInt(recall.maxItems, "recall.maxItems", 1, 50) ?? DEFAULTS.recall.maxItems,
      maxChars: optionalInt(recall.maxChars, "recall.maxChars", 100, 100_000) ?? DEFAULTS.recall.maxChars,
      minPromptChars: optionalInt(recall.minPromptChars, "recall.minPromptChars", 0, 10_000) ?? DEFAULTS.recall.minPromptChars,
      timeoutMs: optionalInt(recall.timeoutMs, "recall.timeoutMs", 50, 60_000) ?? DEFAULTS.recall.timeoutMs,
    },
    requestTimeoutMs: optionalInt(c.requestTimeoutMs, "requestTimeoutMs", 100, 120_000) ?? DEFAULTS.requestTimeoutMs,
    cooldownMs: optionalInt(c.cooldownMs, "cooldownMs", 0, 3_600_000) ?? DEFAULTS.cooldownMs,
    feedback: optionalBoolean(c.feedback, "feedback") ?? true,
  };
}

/** `${NAME}` or `env:NAME` → that variable; anything else is the key itself. */
function resolveSecret(value: string | undefined, env: Env): string | undefined {
  if (value === undefined) return undefined;
  const named = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value) ?? /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
  if (!named) return value;
  const found = env[named[1] as string];
  if (!found) throw new ConfigError(`apiKey: the environment variable ${named[1]} is not set`);
  return found;
}

function record(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new ConfigError(`${name}: must be an object`);
  return value as Record<string, unknown>;
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || !value.trim()) throw new ConfigError(`${name}: must be a non-empty string`);
  return value.trim();
}

function optionalStrings(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ConfigError(`${name}: must be an array of strings`);
  return value.map((item, n) => optionalString(item, `${name}[${n}]`) as string);
}

function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw new ConfigError(`${name}: must be true or false`);
  return value;
}

function optionalInt(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}: must be an integer from ${min} to ${max}`);
  }
  return value;
}
