/** Failure stays local: every call to Engram goes through here. A failure (no answer, a timeout,
 * 401/403, 429, 5xx) never escapes into the OpenClaw turn: the caller gets `undefined`, OpenClaw's
 * log gets one warning line naming the cause (no stack trace, never the key), and further calls
 * are skipped for `cooldownMs` so a down server does not cost every turn a timeout. The same
 * cause is warned about once until a call succeeds again. */

import { APIConnectionError, APIError, APITimeoutError } from "engram-recall";

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export function describeFailure(error: unknown): { kind: string; message: string } {
  if (error instanceof APITimeoutError) return { kind: "timeout", message: "Engram did not answer in time" };
  if (error instanceof APIConnectionError) return { kind: "unreachable", message: "Engram is unreachable" };
  if (error instanceof APIError) {
    if (error.status === 401 || error.status === 403) {
      return { kind: "auth", message: `Engram refused the API key (${error.status} ${error.code})` };
    }
    if (error.status === 429) return { kind: "rate", message: "Engram is rate limiting this key (429)" };
    if (error.status >= 500) return { kind: "server", message: `Engram failed (${error.status} ${error.code})` };
    return { kind: `http_${error.status}`, message: `Engram rejected the request (${error.status} ${error.code}: ${error.message})` };
  }
  if (error instanceof Error && error.name === "TimeoutError") {
    return { kind: "timeout", message: "Engram did not answer in time" };
  }
  return { kind: "other", message: `Engram call failed (${error instanceof Error ? error.message : String(error)})` };
}

export class Guard {
  /** Causes of failure warned about since the last call that worked. */
  private failing = new Set<string>();
  /** Notices said already (each once). */
  private noticed = new Set<string>();
  private pausedUntil = 0;

  constructor(
    private readonly logger: Logger,
    private readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether calls are paused after a failure (the turn goes on without Engram). */
  get paused(): boolean {
    return this.now() < this.pausedUntil;
  }

  /** `call()`'s answer, or undefined when it failed (warned once) or Engram is paused. */
  async run<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
    if (this.paused) return undefined;
    try {
      const answer = await call();
      if (this.failing.size > 0) {
        this.failing.clear();
        this.logger.info("engram: Engram answers again; memory is back");
      }
      return answer;
    } catch (error) {
      this.fail(what, error);
      return undefined;
    }
  }

  /** Record a failure: one warning per cause, and a pause when Engram itself is the problem. */
  fail(what: string, error: unknown): string {
    const { kind, message } = describeFailure(error);
    if (["timeout", "unreachable", "auth", "rate", "server"].includes(kind)) {
      this.pausedUntil = this.now() + this.cooldownMs;
    }
    if (!this.failing.has(kind)) {
      this.failing.add(kind);
      const pause = this.paused ? `; memory is skipped for ${Math.round(this.cooldownMs / 1000)} s` : "";
      this.logger.warn(`engram: ${what}: ${message}; the turn goes on without it${pause}`);
    }
    return message;
  }

  /** A warning said once (not a failure of a call: e.g. a captured memory held for review). */
  notice(kind: string, message: string): void {
    if (this.noticed.has(kind)) return;
    this.noticed.add(kind);
    this.logger.warn(`engram: ${message}`);
  }
}

/** `promise`'s answer, or a TimeoutError after `ms` (the promise is left to settle on its own). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${ms} ms`);
      error.name = "TimeoutError";
      reject(error);
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
