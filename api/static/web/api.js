// Every call to the public API: same origin, the session cookie, CSRF on writes, the reader's
// language, problem details turned into errors that carry their `code`.
import { language } from "./i18n.js";

const BASE = "/api/v1";

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && problem.detail) || `HTTP ${status}`);
    this.status = status;
    this.code = (problem && problem.code) || "http_" + status;
    this.problem = problem || {};
  }
}

function cookie(name) {
  const found = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

export async function request(method, path, { body, key, text } = {}) {
  const headers = { Accept: text ? "text/plain, */*" : "application/json", "Accept-Language": language() };
  if (method !== "GET") {
    // Logging in rotates the token, so it is read from the cookie before every write.
    headers["X-CSRFToken"] = cookie("csrftoken");
    headers["Content-Type"] = "application/json";
  }
  if (key) headers["Idempotency-Key"] = key;
  const response = await fetch(path.startsWith("/") ? path : `${BASE}/${path}`, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  if (!response.ok) {
    let problem = null;
    try {
      problem = await response.json();
    } catch {
      problem = null;
    }
    throw new ApiError(response.status, problem);
  }
  return text ? response.text() : response.json();
}

export const get = (path, options) => request("GET", path, options);
export const post = (path, body, options) => request("POST", path, { ...options, body });
export const put = (path, body) => request("PUT", path, { body });
export const del = (path) => request("DELETE", path, { body: undefined });

export async function session() {
  return get("auth/session/");
}

export async function signIn(username, password) {
  await session(); // the csrftoken cookie, before the first write
  return post("auth/session/", { username, password });
}

export async function signUp(username, password, email) {
  await session();
  await post("auth/register/", { username, password, device: "web", ...(email ? { email } : {}) });
  return signIn(username, password);
}

export async function signOut() {
  return del("auth/session/");
}

// An action at a table: a fresh idempotency key per click (a retry of the same click would reuse
// it), the version of the view it was chosen from, and on 409 the table as it is now, so the
// caller shows what changed instead of acting on a stale view.
export async function act(tableId, action, expectedVersion) {
  const key = crypto.randomUUID();
  try {
    return await post(`tables/${tableId}/actions/`, { action, expected_version: expectedVersion }, { key });
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      error.table = await get(`tables/${tableId}/`);
    }
    throw error;
  }
}
