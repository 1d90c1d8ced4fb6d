// Items: browse a table or index page by page, the Query / Scan builder (it
// shows the request it sends and the ConsumedCapacity it got), and the item
// editor (DynamoDB JSON or plain JSON, PutItem / DeleteItem, snippets).
import { call, session } from "./api.js";
import { h, clear, field, select, errorBox, formatNumber, copyText } from "./dom.js";
import { preview, itemToPlain, itemFromPlain, keyOf, cliSnippet, sdkSnippet } from "./values.js";

const PAGE = 25;

export async function render(el, name, current) {
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
  new ItemsPage(el, table, TableNames).show({ TableName: name, Limit: PAGE, ReturnConsumedCapacity: "INDEXES" }, "Scan", page);
}

class ItemsPage {
  constructor(el, table, tableNames) {
    this.el = el;
    this.table = table;
    this.pages = [];  // ExclusiveStartKeys of the pages before this one
    this.results = h("div", { id: "results" });
    this.editor = h("div", { class: "panel", id: "editor" });
    this.builder = this.buildForm(tableNames);
    clear(el, h("h1", {}, "Items"), this.builder,
      h("div", { class: "split" }, h("div", { class: "panel" }, this.results), this.editor));
    this.edit(null);
  }

  attributeType(name) {
    return this.table.AttributeDefinitions.find((a) => a.AttributeName === name)?.AttributeType || "S";
  }

  keySchemaOf(indexName) {
    if (!indexName) return this.table.KeySchema;
    const all = [...(this.table.GlobalSecondaryIndexes || []), ...(this.table.LocalSecondaryIndexes || [])];
    return all.find((i) => i.IndexName === indexName).KeySchema;
  }

  buildForm(tableNames) {
    const t = this.table;
    const tableSelect = select(tableNames, t.TableName, { name: "table", onchange: (e) => (location.hash = "#/items/" + encodeURIComponent(e.target.value)) });
    const indexes = [["", "Table: " + t.TableName], ...[...(t.GlobalSecondaryIndexes || []), ...(t.LocalSecondaryIndexes || [])].map((i) => [i.IndexName, "Index: " + i.IndexName])];
    const index = select(indexes, "", { name: "index" });
    const mode = select(["Scan", "Query"], "Scan", { name: "mode" });
    const pkValue = h("input", { name: "pk", spellcheck: "false" });
    const skOp = select([], "", { name: "sk-op" });
    const skValue = h("input", { name: "sk", spellcheck: "false" });
    const skValue2 = h("input", { name: "sk2", spellcheck: "false", placeholder: "and", hidden: true });
    const filter = h("input", { name: "filter", spellcheck: "false", size: 30, placeholder: "#total > :min (#name: an attribute)" });
    const values = h("input", { name: "values", spellcheck: "false", size: 24, placeholder: '{":min": 10}' });
    const projection = h("input", { name: "projection", spellcheck: "false", placeholder: "all attributes" });
    const order = select([["true", "Ascending"], ["false", "Descending"]], "true", { name: "order" });
    const limit = h("input", { name: "limit", type: "number", min: 1, value: PAGE, size: 5 });
    const pkLabel = h("label"), skLabel = h("label");
    const keyRow = h("div", { class: "row", hidden: true },
      h("div", { class: "field" }, pkLabel, pkValue), h("div", { class: "field" }, skLabel, skOp),
      h("div", { class: "field" }, h("label", {}, "Value"), skValue), h("div", { class: "field" }, h("label", {}, "\u00a0"), skValue2));
    const refreshKeys = () => {
      const schema = this.keySchemaOf(index.value);
      const pk = schema.find((k) => k.KeyType === "HASH").AttributeName;
      const sk = schema.find((k) => k.KeyType === "RANGE")?.AttributeName;
      pkLabel.textContent = `${pk} (partition key) =`;
      pkValue.id = "pk-value";
      skLabel.textContent = sk ? `${sk} (sort key)` : "No sort key";
      const ops = sk ? [["", "any"], "=", "<", "<=", ">", ">=", "BETWEEN", ...(this.attributeType(sk) === "N" ? [] : ["begins_with"])] : [["", "—"]];
      skOp.replaceChildren(...ops.map((o) => { const [v, text] = Array.isArray(o) ? o : [o, o]; return h("option", { value: v }, text); }));
      skOp.disabled = skValue.disabled = !sk;
      keyRow.hidden = mode.value !== "Query";
      order.disabled = mode.value !== "Query";
    };
    skOp.addEventListener("change", () => (skValue2.hidden = skOp.value !== "BETWEEN"));
    index.addEventListener("change", refreshKeys);
    mode.addEventListener("change", refreshKeys);
    refreshKeys();
    const form = h("form", { class: "panel", id: "builder", onsubmit: (e) => {
      e.preventDefault();
      try {
        const request = this.request({ index: index.value, mode: mode.value, pk: pkValue.value, skOp: skOp.value,
          sk: skValue.value, sk2: skValue2.value, filter: filter.value.trim(), values: values.value.trim(),
          projection: projection.value.trim(), forward: order.value === "true", limit: Number(limit.value) || undefined });
        this.pages = [];
        this.run(mode.value, request);
      } catch (err) {
        clear(this.results, errorBox({ type: "Not sent", message: err.message }));
      }
    } },
      h("div", { class: "row" }, field("Table", tableSelect), field("Table or index", index), field("Operation", mode),
        field("Filter", filter), field("Values (JSON)", values), field("Projection", projection), field("Order", order),
        field("Limit", limit), h("button", { class: "primary", type: "submit", id: "run" }, "Run"),
        h("button", { type: "button", id: "new-item", onclick: () => this.edit(null) }, "Create item")),
      keyRow);
    return form;
  }

  // The request the builder's fields describe, with names and values as placeholders.
  request(f) {
    const r = { TableName: this.table.TableName, ReturnConsumedCapacity: "INDEXES" };
    if (f.index) r.IndexName = f.index;
    if (f.limit) r.Limit = f.limit;
    const names = {}, vals = {};
    if (f.values) {
      const parsed = JSON.parse(f.values);
      for (const [k, v] of Object.entries(itemFromPlain(parsed))) vals[k] = v;
    }
    if (f.mode === "Query") {
      const schema = this.keySchemaOf(f.index);
      const pk = schema.find((k) => k.KeyType === "HASH").AttributeName;
      const sk = schema.find((k) => k.KeyType === "RANGE")?.AttributeName;
      if (f.pk === "") throw new Error(`a Query needs a value for ${pk}`);
      names["#pk"] = pk;
      vals[":pk"] = { [this.attributeType(pk)]: f.pk };
      let condition = "#pk = :pk";
      if (sk && f.skOp) {
        names["#sk"] = sk;
        const type = this.attributeType(sk);
        vals[":sk"] = { [type]: f.sk };
        if (f.skOp === "BETWEEN") {
          vals[":sk2"] = { [type]: f.sk2 };
          condition += " AND #sk BETWEEN :sk AND :sk2";
        } else if (f.skOp === "begins_with") {
          condition += " AND begins_with(#sk, :sk)";
        } else {
          condition += ` AND #sk ${f.skOp} :sk`;
        }
      }
      r.KeyConditionExpression = condition;
      if (!f.forward) r.ScanIndexForward = false;
    }
    if (f.filter) {
      r.FilterExpression = f.filter;
      // #name in a filter stands for the attribute `name` (for reserved words: #status, #total).
      for (const [, n] of f.filter.matchAll(/#([A-Za-z0-9_]+)/g)) if (!names["#" + n]) names["#" + n] = n;
    }
    if (f.projection) {
      r.ProjectionExpression = f.projection.split(",").map((p, i) => {
        names["#p" + i] = p.trim();
        return "#p" + i;
      }).join(", ");
    }
    if (Object.keys(names).length) r.ExpressionAttributeNames = names;
    if (Object.keys(vals).length) r.ExpressionAttributeValues = vals;
    return r;
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
    const t = this.table.TableName;
    let format = "dynamodb";
    const text = h("textarea", { id: "item-json", spellcheck: "false", "aria-label": "Item" });
    const out = h("div", { id: "editor-out" });
    const template = () => Object.fromEntries(this.table.KeySchema.map((k) => [k.AttributeName, { [this.attributeType(k.AttributeName)]: "" }]));
    const current = () => (format === "plain" ? itemFromPlain(JSON.parse(text.value)) : JSON.parse(text.value));
    const write = (value) => {
      try {
        text.value = JSON.stringify(format === "plain" ? itemToPlain(value) : value, null, 2);
      } catch (e) {
        format = "dynamodb";
        formatSelect.value = "dynamodb";
        text.value = JSON.stringify(value, null, 2);
        clear(out, errorBox({ type: "Shown as DynamoDB JSON", message: e.message }));
      }
    };
    const formatSelect = select([["dynamodb", "DynamoDB JSON"], ["plain", "Plain JSON (types inferred)"]], format, {
      id: "item-format", onchange: () => {
        try {
          const value = current();
          format = formatSelect.value;
          write(value);
        } catch (e) {
          formatSelect.value = format;
          clear(out, errorBox({ type: "Not valid JSON", message: e.message }));
        }
      } });
    const attempt = async (fn) => {
      clear(out);
      try { await fn(); } catch (e) { out.append(errorBox(e)); }
    };
    const save = () => attempt(async () => {
      const value = current();
      const request = { TableName: t, Item: value, ReturnConsumedCapacity: "INDEXES" };
      const answer = await call("PutItem", request);
      out.append(h("p", { class: "ok", id: "saved" }, `Saved (${formatNumber(answer.ConsumedCapacity?.CapacityUnits, 2)} write units).`));
      this.refresh();
    });
    const remove = () => attempt(async () => {
      const key = keyOf(current(), this.table.KeySchema);
      if (!confirm("Delete this item?\n" + JSON.stringify(key))) return;
      await call("DeleteItem", { TableName: t, Key: key });
      this.edit(null);
      this.refresh();
    });
    const snippet = (kind) => attempt(async () => {
      const value = current();
      const code = kind === "cli" ? cliSnippet(t, value, session.region) : sdkSnippet(t, value);
      copyText(code);
      out.append(h("pre", { "data-test": "snippet" }, code));
    });
    clear(this.editor,
      h("div", { class: "toolbar" }, h("h2", {}, item ? "Item" : "New item"), h("div", { class: "spacer" }), formatSelect),
      text,
      h("div", { class: "toolbar" },
        h("button", { class: "primary", id: "save-item", onclick: save }, item ? "Save" : "Create"),
        item ? h("button", { class: "danger", id: "delete-item", onclick: remove }, "Delete") : null,
        h("button", { onclick: () => snippet("cli") }, "Copy as CLI"),
        h("button", { onclick: () => snippet("sdk") }, "Copy as SDK")),
      h("p", { class: "muted" }, "Save writes the whole item (PutItem); a changed key writes a new item."),
      out);
    text.addEventListener("keydown", (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key === "Enter") { e.preventDefault(); save(); }
    });
    write(item || template());
  }
}
