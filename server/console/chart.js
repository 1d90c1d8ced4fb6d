// Plain SVG charts: a time chart of read and write units per second with
// throttled requests as bars, and horizontal bars against a limit. No
// library: the console needs two shapes, and SVG draws them exactly.

const NS = "http://www.w3.org/2000/svg";
const W = 520, H = 170, LEFT = 48, RIGHT = 10, TOP = 10, BOTTOM = 22;

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function niceMax(v) {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((m) => m >= v);
}

function clock(ms, withSeconds) {
  const d = new Date(ms);
  const hh = String(d.getHours()).padStart(2, "0"), mm = String(d.getMinutes()).padStart(2, "0");
  return withSeconds ? `${hh}:${mm}:${String(d.getSeconds()).padStart(2, "0")}` : `${hh}:${mm}`;
}

// points: [{t, read, write, throttled}] (units per second); from/to: ms.
export function timeChart({ points, from, to, intervalMs, label }) {
  const plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
  const maxUnits = niceMax(Math.max(0, ...points.map((p) => Math.max(p.read, p.write))));
  const maxThrottled = Math.max(0, ...points.map((p) => p.throttled));
  const x = (t) => LEFT + ((t - from) / Math.max(1, to - from)) * plotW;
  const y = (v) => TOP + plotH - (v / maxUnits) * plotH;
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label,
    "data-points": points.length });
  for (let i = 0; i <= 4; i++) {
    const v = (maxUnits * i) / 4;
    svg.append(s("line", { class: "grid", x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v) }),
      s("text", { x: LEFT - 4, y: y(v) + 3, "text-anchor": "end" }, +v.toPrecision(3)));
  }
  const ticks = 6;
  for (let i = 0; i <= ticks; i++) {
    const t = from + ((to - from) * i) / ticks;
    svg.append(s("text", { x: x(t), y: H - 6, "text-anchor": i === 0 ? "start" : i === ticks ? "end" : "middle" },
      clock(t, to - from < 10 * 60000)));
  }
  // Throttled requests: bars from the bottom, on their own scale (a quarter of the height).
  const barW = Math.max(1, (intervalMs / Math.max(1, to - from)) * plotW);
  for (const p of points) {
    if (!p.throttled) continue;
    const bh = (p.throttled / maxThrottled) * plotH * 0.25;
    svg.append(s("rect", { class: "throttle", x: x(p.t), y: TOP + plotH - bh, width: barW, height: bh },
      s("title", {}, `${p.throttled} throttled at ${clock(p.t, true)}`)));
  }
  // Lines drop to zero across intervals with no requests.
  for (const kind of ["read", "write"]) {
    let d = "", previous = null;
    for (const p of points) {
      if (previous === null || p.t - previous > intervalMs) {
        if (previous !== null) d += `L${x(previous + intervalMs)},${y(0)}`;
        d += `M${x(p.t)},${y(0)}`;
      }
      d += `L${x(p.t)},${y(p[kind])}`;
      previous = p.t;
    }
    if (previous !== null) d += `L${x(previous + intervalMs)},${y(0)}`;
    svg.append(s("path", { class: kind, d }));
  }
  return svg;
}

// rows: [{label, value}] against `limit`, longest first.
export function limitBars({ rows, limit, format }) {
  const rowH = 20, labelW = 160;
  const height = rows.length * rowH + 24;
  const svg = s("svg", { class: "chart bars", viewBox: `0 0 ${W} ${height}`, role: "img", "data-points": rows.length });
  const max = Math.max(limit, ...rows.map((r) => r.value));
  const x = (v) => labelW + (v / max) * (W - labelW - RIGHT - 70);
  rows.forEach((r, i) => {
    const top = i * rowH + 4;
    svg.append(s("text", { x: labelW - 6, y: top + 12, "text-anchor": "end" }, r.label.length > 32 ? r.label.slice(0, 31) + "…" : r.label),
      s("rect", { class: "bar", x: labelW, y: top, width: Math.max(1, x(r.value) - labelW), height: rowH - 6 },
        s("title", {}, `${r.label}: ${format(r.value)}`)),
      s("text", { x: x(r.value) + 4, y: top + 12 }, format(r.value)));
  });
  svg.append(s("line", { class: "limit", x1: x(limit), x2: x(limit), y1: 0, y2: height - 18 }),
    s("text", { x: x(limit), y: height - 6, "text-anchor": "middle" }, `limit ${format(limit)}`));
  return svg;
}
