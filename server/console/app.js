// The console's shell: the hash router (#/tables, #/tables/NAME, #/items/NAME,
// #/items/NAME?pattern=..., #/streams/NAME, #/cost), the region, dark mode,
// keyboard shortcuts, and the sign-in form shown when dynamod verifies
// signatures (--credentials).
import { session, isAuthError } from "./api.js";
import { secureContextAvailable } from "./sigv4.js";
import { h, clear, field, errorBox } from "./dom.js";
import * as tables from "./tables.js";
import * as items from "./items.js";
import * as streams from "./streams.js";
import * as cost from "./cost.js";

const pages = { tables, items, streams, cost };
const view = document.getElementById("view");

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem("dynamod.theme", theme);
}

// #/page/arg?query: the query carries what a link prefills (a pattern for the builder).
function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const cut = hash.indexOf("?");
  const [page = "tables", ...rest] = (cut < 0 ? hash : hash.slice(0, cut)).split("/");
  return { page: pages[page] ? page : "tables", arg: rest.map(decodeURIComponent).join("/"),
    params: new URLSearchParams(cut < 0 ? "" : hash.slice(cut + 1)) };
}

function signIn(error) {
  const key = h("input", { name: "accessKeyId", autocomplete: "username", required: true, spellcheck: "false" });
  const secret = h("input", { name: "secretAccessKey", type: "password", autocomplete: "current-password", required: true });
  const token = h("input", { name: "sessionToken", autocomplete: "off" });
  const form = h("form", { class: "panel", id: "signin", onsubmit: (e) => {
    e.preventDefault();
    session.credentials = { accessKeyId: key.value.trim(), secretAccessKey: secret.value,
      ...(token.value.trim() ? { sessionToken: token.value.trim() } : {}) };
    show();
  } },
    h("h1", {}, "Sign in"),
    h("p", { class: "muted" }, "This dynamod verifies every request's signature (--credentials). " +
      "The console signs its requests with these keys in your browser, as the AWS SDKs do; they stay in this tab."),
    error ? errorBox(error) : null,
    h("div", { class: "row" }, field("Access key ID", key), field("Secret access key", secret), field("Session token (optional)", token)),
    h("div", { class: "toolbar" }, h("button", { class: "primary", type: "submit" }, "Sign in")));
  clear(view, form);
  key.focus();
}

let rendering = 0;
async function show() {
  const { page, arg, params } = route();
  for (const a of document.querySelectorAll("header nav a")) a.classList.toggle("active", a.dataset.page === page);
  document.getElementById("signout").hidden = !session.signedIn;
  if (!secureContextAvailable()) {
    clear(view, errorBox({ type: "Not a secure context",
      message: "The browser gives Web Crypto (which signs requests) only to https:// and localhost pages. Open the console at http://localhost:<port>/dynamod/console." }));
    return;
  }
  const ticket = ++rendering;
  try {
    // A page renders into its own element, swapped in when it has content,
    // so a slow page never overwrites a newer one.
    const el = h("div", { "data-page": page });
    await pages[page].render(el, arg, () => ticket === rendering, params);
    if (ticket === rendering) clear(view, el);
  } catch (e) {
    if (ticket !== rendering) return;
    if (isAuthError(e)) signIn(session.signedIn ? e : null);
    else clear(view, errorBox(e));
  }
}

const regionInput = document.getElementById("region");
regionInput.value = session.region;
regionInput.addEventListener("change", () => {
  session.region = regionInput.value.trim() || "us-east-1";
  show();
});
document.getElementById("signout").addEventListener("click", () => {
  session.credentials = null;
  show();
});
document.getElementById("theme").addEventListener("click", () =>
  applyTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark"));
applyTheme(localStorage.getItem("dynamod.theme") || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));

// g then t/i/s/c moves between pages; t alone toggles the theme; / finds the first filter.
let pendingG = false;
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (pendingG) {
    pendingG = false;
    const to = { t: "tables", i: "items", s: "streams", c: "cost" }[e.key];
    if (to) location.hash = "#/" + to;
    return;
  }
  if (e.key === "g") pendingG = true;
  else if (e.key === "t") document.getElementById("theme").click();
  else if (e.key === "/") {
    const first = view.querySelector("input, textarea");
    if (first) { e.preventDefault(); first.focus(); }
  }
});

window.addEventListener("hashchange", show);
show();
