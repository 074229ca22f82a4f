/** Errors the client throws: every answer that is not 2xx carries the API's envelope
 * `{"error": {"code", "message", "details"?}}`, kept here as `code`, `message` and `details`. */

export interface ErrorDetail {
  [key: string]: unknown;
}

/** Base of everything this client throws on purpose. */
export class EngramError extends Error {
  override name = "EngramError";
}

/** The server answered with an error status. */
export class APIError extends EngramError {
  override name = "APIError";
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  readonly headers: Headers;
  /** The parsed body, or its text when it was not JSON. */
  readonly body: unknown;

  constructor(status: number, body: unknown, headers: Headers) {
    const envelope = errorEnvelope(body);
    super(envelope?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = envelope?.code ?? `http_${status}`;
    this.details = envelope?.details ?? [];
    this.headers = headers;
    this.body = body;
  }
}

export class BadRequestError extends APIError {
  override name = "BadRequestError";
}
export class AuthenticationError extends APIError {
  override name = "AuthenticationError";
}
export class PermissionDeniedError extends APIError {
  override name = "PermissionDeniedError";
}
export class NotFoundError extends APIError {
  override name = "NotFoundError";
}
export class ConflictError extends APIError {
  override name = "ConflictError";
}
export class PayloadTooLargeError extends APIError {
  override name = "PayloadTooLargeError";
}
export class UnprocessableEntityError extends APIError {
  override name = "UnprocessableEntityError";
}
export class RateLimitError extends APIError {
  override name = "RateLimitError";
}
export class InternalServerError extends APIError {
  override name = "InternalServerError";
}

/** No answer: the connection failed (after the retries). */
export class APIConnectionError extends EngramError {
  override name = "APIConnectionError";
}

/** No answer within the timeout (after the retries). */
export class APITimeoutError extends APIConnectionError {
  override name = "APITimeoutError";
}

const BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The error class of a status: the table above, InternalServerError for 5xx, else APIError. */
export function errorFor(status: number, body: unknown, headers: Headers): APIError {
  const Kind = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new Kind(status, body, headers);
}

function errorEnvelope(body: unknown): { code?: string; message?: string; details?: ErrorDetail[] } | undefined {
  if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message, details } = error as Record<string, unknown>;
  return {
    code: typeof code === "string" ? code : undefined,
    message: typeof message === "string" ? message : undefined,
    details: Array.isArray(details) ? (details as ErrorDetail[]) : undefined,
  };
}
