/** What the plugin asks of Engram: recall for a prompt, capture of a turn, feedback, and the tools'
 * search/get/store/forget. Every call goes through the Guard: a failure is a warning, not an error
 * of the turn. */

import { Engram, type Memory, type RecallResponse, type RetainResponse } from "engram-recall";

import type { EngramPluginConfig } from "./config.js";
import { Guard, withTimeout, type Logger } from "./guard.js";
import { RECALL_CLOSE, RECALL_OPEN, answerUses, lastExchange, textOf } from "./messages.js";
import { readScopes, writeScope, type TurnIdentity } from "./scopes.js";

type Recalled = RecallResponse["memories"][number];

/** The prompt-ready memories of one recall, and which memories they were (for `used` feedback). */
export interface RecalledContext {
  text: string;
  memories: Recalled[];
}

export class EngramMemory {
  readonly guard: Guard;
  private readonly engram: Engram;
  /** Memories recalled into a session's prompt, waiting for the answer (for `used` feedback). */
  private readonly pending = new Map<string, Recalled[]>();

  constructor(
    readonly config: EngramPluginConfig,
    logger: Logger,
    options: { fetch?: typeof fetch } = {},
  ) {
    this.guard = new Guard(logger, config.cooldownMs);
    // No retries inside a turn: a failed call is skipped, never retried until it works.
    this.engram = new Engram({
      baseUrl: config.url,
      apiKey: config.apiKey,
      timeoutMs: config.requestTimeoutMs,
      maxRetries: 0,
      headers: { "User-Agent": "engram-recall-openclaw/0.1.0" },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** Auto-recall: Engram's context block for `prompt`, within the item and character budgets,
   * wrapped and labelled as data; undefined for a short prompt, no memories, a failure or no
   * answer within `recall.timeoutMs`. */
  async recallFor(prompt: string, who: TurnIdentity): Promise<RecalledContext | undefined> {
    const { maxItems, maxChars, minPromptChars, timeoutMs } = this.config.recall;
    const query = prompt.trim();
    if (query.length < minPromptChars) return undefined;
    const answer = await this.guard.run("auto-recall", () =>
      withTimeout(
        this.engram.recall({
          query: query.slice(0, 4000),
          scopes: readScopes(this.config, who),
          limit: maxItems,
          context: true,
        }),
        timeoutMs,
      ),
    );
    if (!answer || answer.memories.length === 0 || !answer.context) return undefined;
    const text = budgeted(answer.context, maxChars);
    if (!text) return undefined;
    const shown = answer.memories.filter((m) => text.includes(JSON.stringify(m.content)));
    if (who.sessionId) this.pending.set(who.sessionId, shown);
    return { text: `${RECALL_OPEN}\n${text}\n${RECALL_CLOSE}`, memories: shown };
  }

  /** Auto-capture: the last exchange of `messages` retained in the configured mode, with the
   * OpenClaw session as `session_id`; then `used` feedback for the recalled memories the answer
   * used. */
  async captureTurn(messages: readonly unknown[], who: TurnIdentity): Promise<RetainResponse | undefined> {
    const exchange = lastExchange(messages);
    const recalled = who.sessionId ? this.pending.get(who.sessionId) : undefined;
    if (who.sessionId) this.pending.delete(who.sessionId);
    if (recalled && this.config.feedback) await this.feedbackUsed(exchange, recalled);
    const mode = this.config.capture;
    if (mode === "off" || !exchange.some((t) => t.role === "user")) return undefined;
    const scope = writeScope(this.config, who);
    const metadata: Record<string, string> = { openclaw_agent: who.agentId };
    if (who.channel) metadata.openclaw_channel = who.channel;
    const answer = await this.guard.run("auto-capture", () =>
      this.engram.retain({
        scope,
        messages: exchange.map((t) => ({ role: t.role, content: t.content.slice(0, 20_000) })),
        mode,
        ...(mode === "smart" ? {} : { async: false }),
        ...(who.sessionId ? { session_id: who.sessionId } : {}),
        metadata,
      }),
    );
    if (answer && "results" in answer) this.noticeQuarantine(answer);
    return answer && "results" in answer ? answer : undefined;
  }

  private async feedbackUsed(exchange: { role: string; content: string }[], recalled: Recalled[]): Promise<void> {
    const said = exchange.filter((t) => t.role === "assistant").map((t) => t.content).join("\n");
    if (!said) return;
    for (const memory of recalled) {
      if (!answerUses(said, memory.content)) continue;
      await this.guard.run("feedback", () => this.engram.feedback(memory.id, { signal: "used" }));
    }
  }

  private noticeQuarantine(answer: RetainResponse): void {
    const held = answer.results.filter((r) => r.memory?.status === "quarantined");
    if (held.length > 0) {
      this.guard.notice(
        "quarantine",
        `Engram held ${held.length} captured memor${held.length === 1 ? "y" : "ies"} for review (quarantined: not recalled until released)`,
      );
    }
  }

  // -- the tools ---------------------------------------------------------------------------

  search(query: string, who: TurnIdentity, limit: number): Promise<RecallResponse | undefined> {
    return this.guard.run("memory_search", () =>
      this.engram.recall({ query, scopes: readScopes(this.config, who), limit, context: true }),
    );
  }

  /** A memory by id, only when it is in one of the agent's scopes (another agent's is not found). */
  async get(id: string, who: TurnIdentity): Promise<Memory | null | undefined> {
    const scopes = readScopes(this.config, who);
    const found = await this.guard.run("memory_get", async () => {
      try {
        return await this.engram.getMemory(id);
      } catch (error) {
        if (error instanceof Error && error.name === "NotFoundError") return null;
        throw error;
      }
    });
    if (found === undefined) return undefined;
    return found && scopes.includes(found.scope) ? found : null;
  }

  store(text: string, who: TurnIdentity, tags: string[]): Promise<RetainResponse | undefined> {
    return this.guard.run("memory_store", () =>
      this.engram.retain({
        scope: writeScope(this.config, who),
        text,
        mode: "raw",
        tags,
        ...(who.sessionId ? { session_id: who.sessionId } : {}),
        metadata: { openclaw_agent: who.agentId, openclaw_tool: "memory_store" },
      }),
    );
  }

  /** Forget by id (only in the agent's scopes) or by query (in the agent's write scope). */
  async forget(target: { id?: string; query?: string }, who: TurnIdentity, dryRun: boolean) {
    if (target.id) {
      const found = await this.get(target.id, who);
      if (!found) return found;
      return this.guard.run("memory_forget", () => this.engram.forget({ ids: [target.id as string], dry_run: dryRun }));
    }
    return this.guard.run("memory_forget", () =>
      this.engram.forget({ query: target.query as string, scopes: [writeScope(this.config, who)], dry_run: dryRun }),
    );
  }

  health(): Promise<unknown> {
    return this.guard.run("health", () => this.engram.health());
  }
}

/** The context block cut to `maxChars` at a line: the header and as many whole memories as fit. */
export function budgeted(context: string, maxChars: number): string {
  const lines = context.split("\n");
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > maxChars) break;
    kept.push(line);
    used += line.length + 1;
  }
  return kept.length > 1 ? kept.join("\n") : "";
}

/** The prompt text of a before_prompt_build event (the current request, else the whole prompt). */
export function promptOf(event: { prompt?: unknown; currentUserMessage?: unknown }): string {
  const current = event.currentUserMessage;
  if (typeof current === "string" && current.trim()) return current;
  return typeof event.prompt === "string" ? event.prompt : textOf(event.prompt);
}
