/** engram-recall-openclaw: Engram in OpenClaw's memory slot.
 *
 * - auto-recall (`before_prompt_build`): Engram's context block for the prompt, labelled as data,
 *   within `recall.maxItems` and `recall.maxChars`, skipped for prompts shorter than
 *   `recall.minPromptChars`, given up after `recall.timeoutMs` (the turn goes on without it);
 * - auto-capture (`agent_end`): the turn retained in the `capture` mode with the OpenClaw session
 *   as `session_id`, and `used` feedback for the recalled memories the answer used;
 * - the tools memory_search, memory_get, memory_store, memory_forget;
 * - the memory capability (search manager runtime, prompt section, flush plan).
 * Engram down, slow, refusing the key or rate limiting: one warning in OpenClaw's log, no stack
 * trace, and the turn completes. */

import type { OpenClawPluginApi } from "openclaw/plugin-sdk/plugin-entry";

import { ConfigError, readConfig } from "./config.js";
import { EngramMemory, promptOf } from "./memory.js";
import { memoryCapability } from "./runtime.js";
import { servesAgent, type TurnIdentity } from "./scopes.js";
import { memoryTools } from "./tools.js";

export { readConfig } from "./config.js";
export { EngramMemory, budgeted } from "./memory.js";
export { readScopes, writeScope } from "./scopes.js";

export const PLUGIN_ID = "engram-recall-openclaw";
const TOOL_NAMES = ["memory_search", "memory_get", "memory_store", "memory_forget"];

interface AgentContext {
  agentId?: string;
  sessionId?: string;
  sessionKey?: string;
  senderId?: string;
  requesterSenderId?: string;
  channel?: string;
  messageProvider?: string;
  messageChannel?: string;
}

function identity(ctx: AgentContext): TurnIdentity {
  return {
    agentId: ctx.agentId ?? "main",
    userId: ctx.senderId ?? ctx.requesterSenderId,
    sessionId: ctx.sessionId ?? ctx.sessionKey,
    channel: ctx.channel ?? ctx.messageChannel ?? ctx.messageProvider,
  };
}

function register(api: OpenClawPluginApi): void {
  let memory: EngramMemory;
  try {
    memory = new EngramMemory(readConfig(api.pluginConfig), api.logger);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    api.logger.warn(`engram: not enabled: ${error.message}`);
    return;
  }
  const { config } = memory;
  api.logger.info(`engram: memory from ${config.url} (capture ${config.capture}, auto-recall ${config.autoRecall ? "on" : "off"})`);

  api.registerMemoryCapability(memoryCapability(memory));

  api.registerTool(
    (ctx) => {
      const who = identity(ctx);
      return servesAgent(config, who.agentId) ? (memoryTools(memory, who) as never) : null;
    },
    { names: TOOL_NAMES },
  );

  if (config.autoRecall) {
    api.on("before_prompt_build", async (event, ctx) => {
      const who = identity(ctx);
      if (!servesAgent(config, who.agentId)) return;
      const recalled = await memory.recallFor(promptOf(event), who);
      return recalled ? { prependContext: recalled.text } : undefined;
    });
  }

  api.on("agent_end", async (event, ctx) => {
    const who = identity(ctx);
    if (!servesAgent(config, who.agentId) || !event.success) return;
    await memory.captureTurn(event.messages ?? [], who);
  });
}

const plugin = {
  id: PLUGIN_ID,
  name: "Engram memory",
  description: "Long-term memory from Engram: auto-recall, auto-capture and the memory tools",
  kind: "memory" as const,
  register,
};

export default plugin;
