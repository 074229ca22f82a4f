/** How OpenClaw's agents, users and sessions map onto Engram scopes.
 *
 * A scope template is an Engram scope with placeholders: `agent:{agentId}` (the default),
 * `user:{userId}` (the sender of the turn, as the channel names them), `session:{sessionId}`,
 * `project:support`, `global`. A value is made safe for an Engram scope id (letters, digits and
 * `._@:+-`; anything else becomes `-`). A template whose placeholder has no value in a turn (a CLI
 * turn has no sender) is left out of that turn's reads; the write scope falls back to the agent's. */

import type { EngramPluginConfig } from "./config.js";

export interface TurnIdentity {
  agentId: string;
  userId?: string;
  sessionId?: string;
  channel?: string;
}

const PLACEHOLDER = /\{(agentId|userId|sessionId|channel)\}/g;

export function safeId(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9._@:+-]/g, "-").replace(/^[^A-Za-z0-9]+/, "");
  return cleaned.slice(0, 128) || "default";
}

/** The template with the turn's values, or undefined when one of them is missing. */
export function fill(template: string, who: TurnIdentity): string | undefined {
  let missing = false;
  const scope = template.replace(PLACEHOLDER, (_, name: keyof TurnIdentity) => {
    const value = who[name];
    if (!value) {
      missing = true;
      return "";
    }
    return safeId(value);
  });
  return missing ? undefined : scope;
}

/** Whether the plugin serves this agent at all (`includeAgents` / `excludeAgents`). */
export function servesAgent(config: EngramPluginConfig, agentId: string): boolean {
  if (config.excludeAgents.includes(agentId)) return false;
  return config.includeAgents.length === 0 || config.includeAgents.includes(agentId);
}

/** The scope a turn of this agent is retained into. */
export function writeScope(config: EngramPluginConfig, who: TurnIdentity): string {
  const template = config.agents[who.agentId]?.scope ?? config.scope;
  return fill(template, who) ?? `agent:${safeId(who.agentId)}`;
}

/** The scopes recall reads for a turn of this agent (never empty: at least its write scope). */
export function readScopes(config: EngramPluginConfig, who: TurnIdentity): string[] {
  const mapping = config.agents[who.agentId];
  const templates = mapping?.recallScopes ?? (mapping?.scope ? [mapping.scope] : config.recallScopes);
  const scopes = templates.map((t) => fill(t, who)).filter((s): s is string => s !== undefined);
  return scopes.length > 0 ? [...new Set(scopes)] : [writeScope(config, who)];
}
