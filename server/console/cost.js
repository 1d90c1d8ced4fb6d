// Cost and capacity: units per second over time per table and index (with
// throttled requests), the cost report (on demand against provisioned, the
// break-even), the access patterns with their flags, the hottest partition
// keys and the largest item collections against their limit. Every report
// is asked for at once: one round trip to the whole page.
import { report, session } from "./api.js";
import { h, clear, select, formatBytes, formatNumber, money } from "./dom.js";
import { timeChart, limitBars } from "./chart.js";
import { preview } from "./values.js";
import { builderPattern, patternLink } from "./patterns.js";

const resolutionKey = "dynamod.resolution";

export async function render(el, _arg, current) {
  const resolution = localStorage.getItem(resolutionKey) || "second";
  const [cost, patterns, series, hot, collections] = await Promise.all([
    report("cost"), report("patterns"), report("series", "resolution=" + resolution), report("hot-keys"), report("collections"),
  ]);
  if (!current()) return;
  // Tables of this region (or of every region with --shared-db, whose namespace is empty).
  const here = (x) => x.region === session.region || x.region === "";
  const tables = cost.tables.filter(here);
  const resolutionSelect = select([["second", "Last hour, by the second"], ["minute", "Last day, by the minute"]], resolution, {
    id: "resolution", "aria-label": "Resolution",
    onchange: (e) => { localStorage.setItem(resolutionKey, e.target.value); dispatchEvent(new HashChangeEvent("hashchange")); } });
  clear(el,
    h("div", { class: "toolbar" }, h("h1", {}, "Cost & capacity"), h("div", { class: "spacer" }), resolutionSelect),
    h("p", { class: "muted" }, `Since ${new Date(cost.since).toLocaleString()} at ${cost.prices} prices. ` +
      `On demand ${money(cost.total.on_demand_monthly_usd)}/month, provisioned ${money(cost.total.provisioned_monthly_usd)}/month, ` +
      `storage ${money(cost.total.storage_monthly_usd)}/month (every region), at the observed rate.`),
    tables.length === 0 ? h("p", { class: "muted" }, "No tables in this region.") : null,
    h("div", { class: "cards", id: "charts" }, tables.map((t) => tableCard(t, series))),
    costTable(tables),
    patternsTable(patterns.patterns.filter(here)),
    hotKeys(hot.tables.filter(here)),
    collectionsPanel(collections, collections.tables.filter(here)));
}

function seriesPoints(series, table, index) {
  const line = series.series.find((l) => here(l) && l.table === table && (l.index || "") === (index || ""));
  const per = series.interval_seconds;
  return (line ? line.points : []).map(([t, read, write, requests, throttled]) =>
    ({ t, read: read / per, write: write / per, requests, throttled }));
  function here(l) { return l.region === session.region || l.region === ""; }
}

function chartFor(series, table, index) {
  const points = seriesPoints(series, table, index);
  const to = series.now_ms;
  const window = series.window_seconds * 1000;
  // Drawn from the first point (at least the last 5 minutes, or hour) to now, within the window.
  const span = series.interval_seconds === 1 ? 5 * 60000 : 3600000;
  const from = Math.max(to - window, Math.min(to - span, points.length ? points[0].t : to));
  const throttled = points.reduce((n, p) => n + p.throttled, 0);
  return h("div", { class: "chart-block", dataset: { table, index: index || "" } },
    h("div", { class: "legend" }, h("strong", {}, index ? `Index ${index}` : "Table"),
      h("span", {}, h("span", { class: "swatch read" }), "read units/s"),
      h("span", {}, h("span", { class: "swatch write" }), "write units/s"),
      h("span", {}, h("span", { class: "swatch throttle" }), `throttled (${throttled})`)),
    timeChart({ points, from, to, intervalMs: series.interval_seconds * 1000,
      label: `${table}${index ? " " + index : ""}: units per second` }));
}

function tableCard(t, series) {
  const globals = t.lines.filter((l) => l.kind === "global");
  return h("div", { class: "panel", dataset: { table: t.table } },
    h("h2", {}, h("a", { href: "#/tables/" + encodeURIComponent(t.table) }, t.table),
      h("span", { class: "muted" }, ` · ${t.billing_mode === "PAY_PER_REQUEST" ? "on demand" : "provisioned"}`)),
    chartFor(series, t.table, ""), globals.map((g) => chartFor(series, t.table, g.index)));
}

function costTable(tables) {
  const rows = tables.flatMap((t) => t.lines.map((l) => ({ ...l, billing: t.billing_mode })));
  return h("div", { class: "panel" }, h("h2", {}, "Cost per month at the observed rate"),
    h("div", { class: "scroll" }, h("table", { class: "grid", id: "cost-table" },
      h("thead", {}, h("tr", {}, ["Table", "Index", "Read units", "Write units", "Avg RU/s", "Avg WU/s", "Peak RU/s", "Peak WU/s",
        "On demand", "Provisioned (RCU/WCU)", "Break-even", "Cheaper", "Items", "Storage", "Storage $"].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.map((l) => h("tr", {},
        h("td", {}, l.table), h("td", {}, l.index ? `${l.index} (${l.kind})` : ""),
        l.kind === "local" ? h("td", { colspan: 10, class: "muted" }, "uses the table's capacity") :
        l.kind === "vector" ? h("td", { colspan: 10, class: "muted" },
          `vector units: ${formatBytes(l.vector_search_bytes)} searched, ${formatBytes(l.vector_write_bytes)} written (not priced: AWS publishes no price)`) : [
          h("td", { class: "num" }, formatNumber(l.read_units, 1)), h("td", { class: "num" }, formatNumber(l.write_units, 1)),
          h("td", { class: "num" }, formatNumber(l.read_units_per_second, 3)), h("td", { class: "num" }, formatNumber(l.write_units_per_second, 3)),
          h("td", { class: "num" }, formatNumber(l.peak_read_units_per_second, 1)), h("td", { class: "num" }, formatNumber(l.peak_write_units_per_second, 1)),
          h("td", { class: "num" }, money(l.on_demand_monthly_usd)),
          h("td", { class: "num" }, `${money(l.provisioned.monthly_usd)} (${l.provisioned.read_capacity_units}/${l.provisioned.write_capacity_units})`),
          h("td", { class: "num" }, formatNumber(l.break_even_utilisation * 100, 0) + "%"),
          h("td", {}, h("span", { class: "badge" }, l.cheaper))],
        h("td", { class: "num" }, formatNumber(l.items, 0)), h("td", { class: "num" }, formatBytes(l.storage_bytes)),
        h("td", { class: "num" }, money(l.storage_standard_monthly_usd))))))));
}

function patternsTable(patterns) {
  return h("div", { class: "panel" }, h("h2", {}, "Access patterns, costliest first"),
    patterns.length === 0 ? h("p", { class: "muted" }, "No requests recorded yet.") :
    h("div", { class: "scroll" }, h("table", { class: "grid", id: "patterns" },
      h("thead", {}, h("tr", {}, ["Table", "Pattern", "Requests", "Read units", "Write units", "Items read", "Returned", "Flags"].map((c) => h("th", {}, c)))),
      h("tbody", {}, patterns.map((p) => h("tr", {},
        h("td", {}, p.table), h("td", {}, patternCell(p)),
        h("td", { class: "num" }, formatNumber(p.count, 0)), h("td", { class: "num" }, formatNumber(p.read_units, 1)),
        h("td", { class: "num" }, formatNumber(p.write_units, 1)),
        h("td", { class: "num" }, p.items_read ?? ""), h("td", { class: "num" }, p.items_returned ?? ""),
        h("td", {}, p.flags.map((f) => h("span", { class: "badge flag" }, f)))))))));
}

// A Query, Scan or item pattern opens the builder prefilled with it; a vector
// search (which the builder does not send) opens the table's page.
function patternCell(p) {
  const code = h("code", {}, p.pattern);
  if (!builderPattern(p)) return h("a", { href: "#/tables/" + encodeURIComponent(p.table), title: "Open the table" }, code);
  return h("a", { href: patternLink(p), title: "Open the Query / Scan builder with this pattern" }, code);
}

function hotKeys(tables) {
  const rows = tables.flatMap((t) => t.keys.slice(0, 5).map((k) => ({ table: t.table, ...k })));
  return h("div", { class: "panel" }, h("h2", {}, "Hottest partition keys"),
    h("p", { class: "muted" }, "By units consumed since the ledger started (at most 16 counters a table; a count overstates by at most its error). " +
      "DynamoDB allows 3,000 read and 1,000 write units per second on one partition key value."),
    rows.length === 0 ? h("p", { class: "muted" }, "No keyed requests yet.") :
    h("table", { class: "grid", id: "hot-keys" },
      h("thead", {}, h("tr", {}, ["Table", "Partition key", "Units", "± error", "Requests"].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, r.table), h("td", {}, h("code", {}, preview(r.key))),
        h("td", { class: "num" }, formatNumber(r.units, 1)), h("td", { class: "num" }, formatNumber(r.error, 1)),
        h("td", { class: "num" }, formatNumber(r.requests, 0)))))));
}

function collectionsPanel(report, tables) {
  return h("div", { class: "panel", id: "collections" }, h("h2", {}, "Largest item collections"),
    h("p", { class: "muted" }, `Tables with local secondary indexes: items sharing a partition key may not pass ${formatBytes(report.limit_bytes)} (--item-collection-limit).`),
    tables.length === 0 ? h("p", { class: "muted" }, "No table in this region has a local secondary index.") :
    tables.map((t) => [h("h3", {}, t.table),
      t.collections.length === 0 ? h("p", { class: "muted" }, "No items yet.") :
      limitBars({ rows: t.collections.map((c) => ({ label: preview(c.key), value: c.bytes })), limit: report.limit_bytes,
        format: (v) => `${formatBytes(v)} (${formatNumber((v / report.limit_bytes) * 100, 4)}%)` })]));
}
