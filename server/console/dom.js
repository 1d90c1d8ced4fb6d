// Small DOM helpers: h() builds elements, so no page ever assembles HTML from
// strings (item values are shown as text, never parsed as markup).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// A labelled form field; `control` is an input, select or textarea.
export function field(label, control, hint) {
  const id = control.id || "f-" + Math.random().toString(36).slice(2, 9);
  control.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, label), control, hint ? h("small", {}, hint) : null);
}

export function select(options, value, attrs = {}) {
  return h("select", attrs, options.map((o) => {
    const [v, text] = Array.isArray(o) ? o : [o, o];
    return h("option", { value: v, selected: v === value }, text);
  }));
}

// An error from the server, as it came: its type and message.
export function errorBox(e) {
  return h("div", { class: "error", role: "alert", "data-test": "error" },
    h("strong", {}, e.type || e.name || "Error"), e.message ? ": " + e.message : "");
}

export function formatBytes(n) {
  if (!n) return "0 B";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

export function formatNumber(n, digits = 2) {
  if (n === undefined || n === null) return "";
  return Number(n).toLocaleString(undefined, { maximumFractionDigits: digits });
}

export function money(usd) {
  return "$" + (usd > 0 && usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2));
}

export function copyText(text) {
  if (navigator.clipboard) return navigator.clipboard.writeText(text).catch(() => {});
}
