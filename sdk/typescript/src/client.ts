/** The Engram client: one method per tenant route, typed from the API's OpenAPI document. */

import { APIConnectionError, APITimeoutError, EngramError, errorFor } from "./errors.js";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
type Body<Op> = Op extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type Ok<Op, S extends number = 200> = Op extends { responses: infer Rs }
  ? S extends keyof Rs
    ? Json<Rs[S]>
    : never
  : never;

export type Memory = Schemas["MemoryView"];
export type RetainRequest = Body<paths["/v1/memories"]["post"]>;
export type RetainResponse = Ok<paths["/v1/memories"]["post"]>;
export type JobAccepted = Ok<paths["/v1/memories"]["post"], 202>;
export type RecallRequest = Body<paths["/v1/recall"]["post"]>;
export type RecallResponse = Ok<paths["/v1/recall"]["post"]>;
export type ForgetRequest = Body<paths["/v1/forget"]["post"]>;
export type ForgetResponse = Ok<paths["/v1/forget"]["post"]>;
export type FeedbackRequest = Body<paths["/v1/memories/{id}/feedback"]["post"]>;
export type FeedbackResponse = Ok<paths["/v1/memories/{id}/feedback"]["post"]>;
export type ListQuery = NonNullable<paths["/v1/memories"]["get"]["parameters"]["query"]>;
export type ListResponse = Ok<paths["/v1/memories"]["get"]>;
export type PatchRequest = Body<paths["/v1/memories/{id}"]["patch"]>;
export type RestoreRequest = Body<paths["/v1/memories/{id}/restore"]["post"]>;
export type StatsResponse = Ok<paths["/v1/stats"]["get"]>;
export type Job = Ok<paths["/v1/jobs/{id}"]["get"]>;
export type ImportResponse = Ok<paths["/v1/import"]["post"]>;
export type ExportLink = Ok<paths["/v1/export"]["post"], 303>;
export type Health = Ok<paths["/v1/health"]["get"]>;

export interface EngramOptions {
  /** Where the API is, e.g. `http://127.0.0.1:8080` (no trailing `/v1`). */
  baseUrl: string;
  /** A tenant API key, sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Milliseconds one attempt may take (default 30 000). */
  timeoutMs?: number;
  /** Attempts after the first on 429, 5xx or no answer (default 3; never on another 4xx). */
  maxRetries?: number;
  /** First backoff in ms (default 500): doubled each retry, capped at `maxBackoffMs`, with full jitter. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A `Retry-After` longer than this (ms, default 60 000) is not waited for: the error is thrown. */
  maxRetryAfterMs?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

interface Call {
  query?: Record<string, unknown>;
  body?: unknown;
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * A client of one tenant (the one its API key belongs to).
 *
 * @example
 * const engram = new Engram({ baseUrl: "http://127.0.0.1:8080", apiKey: process.env.ENGRAM_API_KEY! });
 * await engram.retain({ scope: "user:alice", text: "I prefer dark mode" });
 * const { memories } = await engram.recall({ query: "which theme?", scopes: ["user:alice"] });
 */
export class Engram {
  readonly baseUrl: string;
  private readonly options: Required<Omit<EngramOptions, "headers" | "fetch">> & {
    headers: Record<string, string>;
    fetch: typeof fetch;
  };

  constructor(options: EngramOptions) {
    if (!options.baseUrl) throw new EngramError("baseUrl is required");
    if (!options.apiKey) throw new EngramError("apiKey is required");
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.options = {
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 3,
      backoffMs: options.backoffMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 8_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      headers: options.headers ?? {},
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    };
  }

  /** `POST /v1/memories`, with an `Idempotency-Key` made for this call (kept across its retries).
   * A retain that runs as a job (`async: true`, or `mode: "smart"` unless `async: false`) answers
   * `JobAccepted`; any other answers `RetainResponse`. */
  retain(
    request: RetainRequest & { async?: false; mode?: "raw" | "auto" },
    options?: { idempotencyKey?: string },
  ): Promise<RetainResponse>;
  retain(request: RetainRequest, options?: { idempotencyKey?: string }): Promise<RetainResponse | JobAccepted>;
  retain(
    request: RetainRequest,
    options: { idempotencyKey?: string } = {},
  ): Promise<RetainResponse | JobAccepted> {
    const key = options.idempotencyKey ?? newIdempotencyKey();
    return this.request("POST", "/v1/memories", { body: request, headers: { "Idempotency-Key": key } });
  }

  /** `POST /v1/recall`: the memories that answer a query, ranked, with a prompt-ready context. */
  recall(request: RecallRequest): Promise<RecallResponse> {
    return this.request("POST", "/v1/recall", { body: request });
  }

  /** `POST /v1/forget` by ids, query or filter; `dry_run: true` says what would go. */
  forget(request: ForgetRequest): Promise<ForgetResponse> {
    return this.request("POST", "/v1/forget", { body: request });
  }

  /** `POST /v1/memories/{id}/feedback`: whether a recalled memory helped. */
  feedback(id: string, request: FeedbackRequest): Promise<FeedbackResponse> {
    return this.request("POST", `/v1/memories/${segment(id)}/feedback`, { body: request });
  }

  /** `GET /v1/memories`: one page; `next_cursor` asks for the next. */
  listMemories(query: ListQuery = {}): Promise<ListResponse> {
    return this.request("GET", "/v1/memories", { query });
  }

  /** Every memory matching `query`, page after page. */
  async *iterMemories(query: Omit<ListQuery, "cursor"> = {}): AsyncGenerator<Memory, void, undefined> {
    let cursor: string | null | undefined;
    do {
      const page = await this.listMemories({ ...query, ...(cursor ? { cursor } : {}) });
      yield* page.memories;
      cursor = page.next_cursor;
    } while (cursor);
  }

  /** `GET /v1/memories/{id}` (with its history if asked). */
  getMemory(id: string, options: { history?: boolean } = {}): Promise<Memory> {
    return this.request("GET", `/v1/memories/${segment(id)}`, { query: options });
  }

  /** `PATCH /v1/memories/{id}`: content, tags, metadata, pin, tier or expiry. */
  updateMemory(id: string, request: PatchRequest): Promise<Memory> {
    return this.request("PATCH", `/v1/memories/${segment(id)}`, { body: request });
  }

  /** `DELETE /v1/memories/{id}`. */
  deleteMemory(id: string): Promise<ForgetResponse> {
    return this.request("DELETE", `/v1/memories/${segment(id)}`);
  }

  /** `POST /v1/memories/{id}/restore`: an archived memory back to a tier. */
  restoreMemory(id: string, request: RestoreRequest): Promise<Memory> {
    return this.request("POST", `/v1/memories/${segment(id)}/restore`, { body: request });
  }

  /** `POST /v1/memories/{id}/release`: a quarantined memory back to recall, after review. */
  releaseMemory(id: string): Promise<Memory> {
    return this.request("POST", `/v1/memories/${segment(id)}/release`);
  }

  /** `GET /v1/stats`. */
  stats(): Promise<StatsResponse> {
    return this.request("GET", "/v1/stats");
  }

  /** `GET /v1/jobs/{id}`: an asynchronous retain's job. */
  getJob(id: string): Promise<Job> {
    return this.request("GET", `/v1/jobs/${segment(id)}`);
  }

  /** `POST /v1/export`: the tenant as JSONL (a header line, then one memory a line). */
  exportMemories(): Promise<string> {
    return this.request("POST", "/v1/export");
  }

  /** `POST /v1/import` of an export's JSONL: the counts, or (202) the job a file too large for one call became. */
  importMemories(jsonl: string): Promise<ImportResponse | JobAccepted> {
    return this.request("POST", "/v1/import", { raw: jsonl, contentType: "application/x-ndjson" });
  }

  /** `GET /v1/health` (needs no key). */
  health(): Promise<Health> {
    return this.request("GET", "/v1/health");
  }

  /** One call with its retries: 429, 5xx and no answer are retried; any other 4xx is thrown at once. */
  async request<T>(method: string, path: string, call: Call = {}): Promise<T> {
    const url = this.url(path, call.query);
    const headers: Record<string, string> = {
      Accept: "application/json",
      ...this.options.headers,
      Authorization: `Bearer ${this.options.apiKey}`,
      ...call.headers,
    };
    let payload: string | undefined;
    if (call.raw !== undefined) {
      payload = call.raw;
      headers["Content-Type"] = call.contentType ?? "text/plain";
    } else if (call.body !== undefined) {
      payload = JSON.stringify(call.body);
      headers["Content-Type"] = "application/json";
    }
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= this.options.maxRetries;
      let response: Response;
      let body: unknown;
      try {
        // The timeout covers the whole attempt: the answer's body too.
        response = await this.options.fetch(url, {
          method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        body = await readBody(response);
      } catch (cause) {
        if (last) throw noAnswer(method, path, cause, this.options.timeoutMs);
        await sleep(this.backoff(attempt));
        continue;
      }
      if (response.ok) return body as T;
      const error = errorFor(response.status, body, response.headers);
      const retryable = response.status === 429 || response.status >= 500;
      const wait = retryable && !last ? this.wait(attempt, response.headers) : undefined;
      if (wait === undefined) throw error;
      await sleep(wait);
    }
  }

  private url(path: string, query: Record<string, unknown> | undefined): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) search.append(name, String(value));
    }
    const text = search.toString();
    return `${this.baseUrl}${path}${text ? `?${text}` : ""}`;
  }

  /** Full jitter: a random time up to min(cap, base · 2^attempt) (AWS Architecture Blog, 2015). */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** attempt);
    return Math.random() * ceiling;
  }

  /** How long to wait before the next attempt: the server's Retry-After if it gave one (undefined:
   * longer than `maxRetryAfterMs`, do not retry), else the backoff. */
  private wait(attempt: number, headers: Headers): number | undefined {
    const after = retryAfterMs(headers.get("retry-after"));
    if (after === undefined) return this.backoff(attempt);
    return after <= this.options.maxRetryAfterMs ? after : undefined;
  }
}

/** `Retry-After` in ms: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined if absent or unreadable. */
export function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

function segment(id: string): string {
  return encodeURIComponent(id);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("json")) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function noAnswer(method: string, path: string, cause: unknown, timeoutMs: number): EngramError {
  const timedOut = cause instanceof DOMException && cause.name === "TimeoutError";
  const error = timedOut
    ? new APITimeoutError(`${method} ${path}: no answer within ${timeoutMs} ms`)
    : new APIConnectionError(`${method} ${path}: ${cause instanceof Error ? cause.message : String(cause)}`);
  (error as { cause?: unknown }).cause = cause;
  return error;
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
