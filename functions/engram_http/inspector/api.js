// The public API, found relative to this page: /ui/index.html calls /v1/..., and under an API
// Gateway stage (/prod/ui/index.html) it calls /prod/v1/... The credential lives in this tab's
// sessionStorage only: never in a URL, a cookie or localStorage.

const ROOT = new URL("../", document.baseURI);
const STORE = "engram.inspector.credential";

export function credential() {
  const raw = sessionStorage.getItem(STORE);
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

export function saveCredential(secret, role) {
  sessionStorage.setItem(STORE, JSON.stringify({ secret, role }));
}

export function clearCredential() {
  sessionStorage.removeItem(STORE);
}

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** One call: JSON in, JSON out; an answer in the error envelope becomes an ApiError. */
export async function api(method, path, { body, query, secret } = {}) {
  const url = new URL(path.replace(/^\//, ""), ROOT);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
  }
  const headers = { Accept: "application/json" };
  const key = secret ?? credential()?.secret;
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
    referrerPolicy: "no-referrer",
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || "error", error.message || response.statusText, error.details);
  }
  return data;
}

export const part = encodeURIComponent;
