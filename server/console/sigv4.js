// AWS Signature Version 4 in the browser (Web Crypto), as an SDK signs: the
// console holds no privilege of its own, so every request it makes carries the
// signature of the keys the user typed (or throwaway ones when dynamod accepts
// any credentials, where the signature's region still picks the tables).

const encoder = new TextEncoder();

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(text) {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

async function hmac(key, text) {
  const raw = typeof key === "string" ? encoder.encode(key) : key;
  const k = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, encoder.encode(text)));
}

// RFC 3986 encoding, as SigV4 wants for each path segment and query part.
function uriEncode(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

function canonicalQuery(query) {
  if (!query) return "";
  return query
    .split("&")
    .filter((p) => p.length > 0)
    .map((p) => {
      const eq = p.indexOf("=");
      const name = decodeURIComponent(eq < 0 ? p : p.slice(0, eq));
      const value = eq < 0 ? "" : decodeURIComponent(p.slice(eq + 1));
      return [uriEncode(name), uriEncode(value)];
    })
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1))
    .map(([n, v]) => `${n}=${v}`)
    .join("&");
}

export function secureContextAvailable() {
  return typeof crypto !== "undefined" && crypto.subtle !== undefined;
}

// The headers to add to a request: X-Amz-Date, Authorization (and the
// security token for temporary credentials). `headers` are the request's own
// headers to sign beside host (lower-case names).
export async function signedHeaders({ method, path, query, headers, body, credentials, region, host, now }) {
  const date = (now || new Date()).toISOString().replace(/[:-]|\.\d{3}/g, "");
  const day = date.slice(0, 8);
  const all = { ...headers, host, "x-amz-date": date };
  if (credentials.sessionToken) all["x-amz-security-token"] = credentials.sessionToken;
  const names = Object.keys(all).map((n) => n.toLowerCase()).sort();
  const lower = Object.fromEntries(Object.entries(all).map(([n, v]) => [n.toLowerCase(), String(v).trim()]));
  const canonicalHeaders = names.map((n) => `${n}:${lower[n]}\n`).join("");
  const signed = names.join(";");
  const canonicalPath = path.split("/").map((s) => uriEncode(decodeURIComponent(s))).join("/");
  const request = [method, canonicalPath, canonicalQuery(query), canonicalHeaders, signed, await sha256(body || "")].join("\n");
  const scope = `${day}/${region}/dynamodb/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", date, scope, await sha256(request)].join("\n");
  let key = await hmac("AWS4" + credentials.secretAccessKey, day);
  key = await hmac(key, region);
  key = await hmac(key, "dynamodb");
  key = await hmac(key, "aws4_request");
  const signature = hex(await hmac(key, toSign));
  const out = {
    "X-Amz-Date": date,
    Authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signed}, Signature=${signature}`,
  };
  if (credentials.sessionToken) out["X-Amz-Security-Token"] = credentials.sessionToken;
  return out;
}
