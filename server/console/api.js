// The console's only way to dynamod: the DynamoDB JSON API (X-Amz-Target) and
// the /dynamod/* reports, each request signed (sigv4.js).
import { signedHeaders } from "./sigv4.js";

const ANONYMOUS = { accessKeyId: "console", secretAccessKey: "console" };

export class ApiError extends Error {
  constructor(type, message, status) {
    super(message || type);
    this.type = type;
    this.status = status;
  }
}

export const session = {
  get region() {
    return localStorage.getItem("dynamod.region") || "us-east-1";
  },
  set region(r) {
    localStorage.setItem("dynamod.region", r);
  },
  // Typed keys live for the tab only (sessionStorage), never in localStorage.
  get credentials() {
    const saved = sessionStorage.getItem("dynamod.credentials");
    return saved ? JSON.parse(saved) : ANONYMOUS;
  },
  set credentials(c) {
    if (c) sessionStorage.setItem("dynamod.credentials", JSON.stringify(c));
    else sessionStorage.removeItem("dynamod.credentials");
  },
  get signedIn() {
    return sessionStorage.getItem("dynamod.credentials") !== null;
  },
};

// A signature error means dynamod verifies signatures (--credentials) and the
// console has none it accepts.
export function isAuthError(e) {
  return e instanceof ApiError && /UnrecognizedClient|InvalidSignature|MissingAuthentication|IncompleteSignature|AccessDenied/.test(e.type);
}

async function send(method, path, query, headers, body) {
  const auth = await signedHeaders({
    method, path, query, headers, body,
    credentials: session.credentials, region: session.region, host: location.host,
  });
  const url = path + (query ? "?" + query : "");
  return fetch(url, { method, headers: { ...headers, ...auth }, body: method === "GET" ? undefined : body });
}

// One DynamoDB operation; resolves to the answer's JSON, rejects with ApiError.
export async function call(operation, request, { streams = false } = {}) {
  const body = JSON.stringify(request || {});
  const target = (streams ? "DynamoDBStreams_20120810." : "DynamoDB_20120810.") + operation;
  const response = await send("POST", "/", "", { "content-type": "application/x-amz-json-1.0", "x-amz-target": target }, body);
  const text = await response.text();
  let json = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError("InvalidResponse", text.slice(0, 200), response.status);
  }
  if (!response.ok) {
    const type = String(json.__type || "Error").split("#").pop();
    throw new ApiError(type, json.message || json.Message || "", response.status);
  }
  return json;
}

// GET /dynamod/<name>: a report's JSON.
export async function report(name, query = "") {
  const response = await send("GET", "/dynamod/" + name, query, {}, "");
  const text = await response.text();
  if (!response.ok) {
    let type = "ReportError", message = text;
    try {
      const json = JSON.parse(text);
      type = String(json.__type || type).split("#").pop();
      message = json.message || text;
    } catch {}
    throw new ApiError(type, message, response.status);
  }
  return JSON.parse(text);
}

// Every page of a paged operation, up to `limit` pages.
export async function allPages(operation, request, tokenIn, tokenOut, listKey, limit = 20) {
  const out = [];
  let token;
  for (let i = 0; i < limit; i++) {
    const answer = await call(operation, token ? { ...request, [tokenIn]: token } : request);
    out.push(...(answer[listKey] || []));
    token = answer[tokenOut];
    if (!token) break;
  }
  return out;
}
