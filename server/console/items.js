// Items: browse a table or index page by page with the Query / Scan builder
// (builder.js; the page shows the request it sends and the ConsumedCapacity
// it got), and the item editor beside the results (editor.js).
import { call } from "./api.js";
import { h, clear, errorBox, formatNumber } from "./dom.js";
import { preview } from "./values.js";
import { PAGE, builderForm } from "./builder.js";
import { renderEditor } from "./editor.js";
import { patternFromParams } from "./patterns.js";

// `params` may carry an access pattern (patterns.js) that prefills the builder.
export async function render(el, name, current, params = new URLSearchParams()) {
  // The table list, its schema and its first page in one round trip (the
  // first table's once the list is known, when none is named).
  const first = (n) => Promise.all([
    call("DescribeTable", { TableName: n }),
    call("Scan", { TableName: n, Limit: PAGE, ReturnConsumedCapacity: "INDEXES" }),
  ]);
  const listing = call("ListTables", {});
  const named = name ? first(name) : null;
  named?.catch(() => {});  // awaited below
  const { TableNames = [] } = await listing;
  if (!name) {
    if (TableNames.length === 0) {
      clear(el, h("h1", {}, "Items"), h("p", { class: "muted" }, "No tables yet: ", h("a", { href: "#/tables" }, "create one"), "."));
      return;
    }
    name = TableNames[0];
  }
  const [{ Table: table }, page] = await (named || first(name));
  if (!current()) return;
  const pattern = patternFromParams(name, params);
  new ItemsPage(el, table, TableNames, pattern).show({ TableName: name, Limit: PAGE, ReturnConsumedCapacity: "INDEXES" }, "Scan", page);
}

class ItemsPage {
  constructor(el, table, tableNames, pattern) {
    this.el = el;
    this.table = table;
    this.pages = [];  // ExclusiveStartKeys of the pages before this one
    this.results = h("div", { id: "results" });
    this.editor = h("div", { class: "panel", id: "editor" });
    this.builder = builderForm({ table, tableNames, pattern,
      run: (operation, request) => { this.pages = []; this.run(operation, request); },
      fail: (message) => clear(this.results, errorBox({ type: "Not sent", message })),
      newItem: () => this.edit(null) });
    clear(el, h("h1", {}, "Items"), this.builder,
      h("div", { class: "split" }, h("div", { class: "panel" }, this.results), this.editor));
    this.edit(null);
  }

  async run(operation, request) {
    this.last = { operation, request };
    clear(this.results, h("p", { class: "muted" }, "Running…"));
    try {
      this.show(request, operation, await call(operation, request));
    } catch (e) {
      clear(this.results, h("pre", { class: "request", "data-test": "request" }, `${operation} ${JSON.stringify(request, null, 2)}`), errorBox(e));
    }
  }

  show(request, operation, answer) {
    this.last = { operation, request };
    const items = answer.Items || [];
    const keys = this.table.KeySchema.map((k) => k.AttributeName);
    const columns = [...keys];
    for (const item of items) for (const n of Object.keys(item)) if (!columns.includes(n)) columns.push(n);
    const next = answer.LastEvaluatedKey;
    const capacity = answer.ConsumedCapacity;
    clear(this.results,
      h("div", { class: "toolbar" },
        h("strong", { id: "result-count" }, `${answer.Count} items`),
        h("span", { class: "muted" }, `${formatNumber(answer.ScannedCount, 0)} scanned`),
        h("span", { id: "consumed", "data-units": capacity?.CapacityUnits ?? "" },
          capacity ? `${formatNumber(capacity.CapacityUnits, 2)} read units consumed` : ""),
        h("div", { class: "spacer" }),
        h("button", { type: "button", disabled: this.pages.length === 0, onclick: () => this.page(-1) }, "‹ Previous"),
        h("button", { type: "button", id: "next-page", disabled: !next, onclick: () => this.page(1, next) }, "Next ›")),
      h("div", { class: "scroll" }, h("table", { class: "grid", id: "items" },
        h("thead", {}, h("tr", {}, columns.map((c) => h("th", {}, c)))),
        h("tbody", {}, items.map((item) => h("tr", { class: "clickable", tabindex: 0,
          onclick: () => this.edit(item), onkeydown: (e) => e.key === "Enter" && this.edit(item) },
          columns.map((c) => h("td", {}, item[c] ? preview(item[c]) : ""))))))),
      h("details", { open: true }, h("summary", {}, "Request and ConsumedCapacity"),
        h("pre", { class: "request", "data-test": "request" }, `${operation} ${JSON.stringify(request, null, 2)}`),
        h("pre", { "data-test": "capacity" }, JSON.stringify({ Count: answer.Count, ScannedCount: answer.ScannedCount,
          ConsumedCapacity: capacity, LastEvaluatedKey: next }, null, 2))));
  }

  page(direction, next) {
    const { operation, request } = this.last;
    const r = { ...request };
    if (direction > 0) {
      this.pages.push(request.ExclusiveStartKey || null);
      r.ExclusiveStartKey = next;
    } else {
      const previous = this.pages.pop();
      if (previous) r.ExclusiveStartKey = previous; else delete r.ExclusiveStartKey;
    }
    const pages = this.pages;
    this.run(operation, r).then(() => (this.pages = pages));
  }

  refresh() {
    if (this.last) this.run(this.last.operation, this.last.request);
  }

  edit(item) {
    renderEditor(this.editor, this.table, item, () => this.refresh());
  }
}
