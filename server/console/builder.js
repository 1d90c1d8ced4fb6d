// The Query / Scan builder: table or index, the operation, a key condition
// with one field per key attribute (a multi-attribute GSI key has up to four
// partition-key attributes, all tested with =, and up to four sort-key ones,
// each with the operators its type allows: docs/multi-attribute-keys.md),
// filter, projection, order and limit. It builds the request an SDK would
// send, with every name and value as a placeholder; the server judges it.
// A pattern from the cost page prefills it (patterns.js).
import { h, clear, field, select } from "./dom.js";
import { itemFromPlain } from "./values.js";

export const PAGE = 25;

// The placeholders of the i-th (0-based) attribute of a role: #pk :pk, #pk_2 :pk_2, ...
const slot = (role, i) => (i === 0 ? role : `${role}_${i + 1}`);

export function keySchemaOf(table, indexName) {
  if (!indexName) return table.KeySchema;
  const all = [...(table.GlobalSecondaryIndexes || []), ...(table.LocalSecondaryIndexes || [])];
  return all.find((i) => i.IndexName === indexName)?.KeySchema || table.KeySchema;
}

function attributeType(table, name) {
  return table.AttributeDefinitions.find((a) => a.AttributeName === name)?.AttributeType || "S";
}

// The builder's form. `run(operation, request)` sends what it built; `fail(message)` shows why it could not.
export function builderForm({ table, tableNames, pattern, run, fail, newItem }) {
  const tableSelect = select(tableNames, table.TableName, { name: "table", onchange: (e) => (location.hash = "#/items/" + encodeURIComponent(e.target.value)) });
  const indexNames = [...(table.GlobalSecondaryIndexes || []), ...(table.LocalSecondaryIndexes || [])].map((i) => i.IndexName);
  const index = select([["", "Table: " + table.TableName], ...indexNames.map((n) => [n, "Index: " + n])], "", { name: "index" });
  const mode = select(["Scan", "Query"], "Scan", { name: "mode" });
  const filter = h("input", { name: "filter", spellcheck: "false", size: 30, placeholder: "#total > :min (#name: an attribute)" });
  const values = h("input", { name: "values", spellcheck: "false", size: 24, placeholder: '{":min": 10}' });
  const projection = h("input", { name: "projection", spellcheck: "false", placeholder: "all attributes" });
  const order = select([["true", "Ascending"], ["false", "Descending"]], "true", { name: "order" });
  const limit = h("input", { name: "limit", type: "number", min: 1, value: PAGE, size: 5 });
  const keyRow = h("div", { class: "row", id: "key-condition", hidden: true });
  const note = h("div");
  let keys = { partition: [], sort: [] };  // the key fields of the chosen table or index

  const refreshKeys = () => {
    const schema = keySchemaOf(table, index.value);
    keys = {
      partition: schema.filter((k) => k.KeyType === "HASH").map((k, i) => {
        const value = h("input", { name: i === 0 ? "pk" : `pk-${i + 1}`, spellcheck: "false" });
        return { name: k.AttributeName, value, node: field(`${k.AttributeName} (partition key) =`, value) };
      }),
      sort: schema.filter((k) => k.KeyType === "RANGE").map((k, i) => sortField(table, k.AttributeName, i)),
    };
    clear(keyRow, keys.partition.map((k) => k.node), keys.sort.map((k) => k.nodes),
      keys.sort.length ? null : h("span", { class: "muted" }, "No sort key"));
    showKeys();
  };
  // A Scan has no key condition and no order.
  const showKeys = () => { keyRow.hidden = order.disabled = mode.value !== "Query"; };
  index.addEventListener("change", refreshKeys);
  mode.addEventListener("change", showKeys);
  refreshKeys();

  if (pattern) {
    // The pattern's table is this page's; its index, operation and key condition fill the fields.
    if (indexNames.includes(pattern.index)) index.value = pattern.index;
    mode.value = pattern.operation;
    refreshKeys();
    for (const c of pattern.conditions) {
      const p = keys.partition.find((k) => k.name === c.name);
      const s = keys.sort.find((k) => k.name === c.name);
      if (p) p.value.value = c.value;
      if (s && [...s.op.options].some((o) => o.value === c.op)) {
        s.op.value = c.op;
        s.op.dispatchEvent(new Event("change"));
        s.value.value = c.value;
      }
    }
    note.append(h("p", { class: "muted", id: "pattern-note" }, "Prefilled from the access pattern ", h("code", {}, pattern.shape),
      ": each value is the prefix the report kept; complete the values",
      pattern.filtered ? ". The pattern used a filter, whose text the report does not keep: write it below" : "", ", then Run."));
    if (pattern.filtered) filter.dataset.patternFiltered = "true";
  }

  const form = h("form", { class: "panel", id: "builder", onsubmit: (e) => {
    e.preventDefault();
    try {
      run(mode.value, request(table, keys, { index: index.value, mode: mode.value, filter: filter.value.trim(),
        values: values.value.trim(), projection: projection.value.trim(), forward: order.value === "true",
        limit: Number(limit.value) || undefined }));
    } catch (err) {
      fail(err.message);
    }
  } },
    note,
    h("div", { class: "row" }, field("Table", tableSelect), field("Table or index", index), field("Operation", mode),
      field("Filter", filter), field("Values (JSON)", values), field("Projection", projection), field("Order", order),
      field("Limit", limit), h("button", { class: "primary", type: "submit", id: "run" }, "Run"),
      h("button", { type: "button", id: "new-item", onclick: newItem }, "Create item")),
    keyRow);
  return form;
}

// The i-th sort-key attribute: an operator (those its type allows) and one value, two for BETWEEN.
function sortField(table, name, i) {
  const suffix = i === 0 ? "" : `-${i + 1}`;
  const ops = [["", "any"], "=", "<", "<=", ">", ">=", "BETWEEN", ...(attributeType(table, name) === "N" ? [] : ["begins_with"])];
  const op = select(ops, "", { name: "sk-op" + suffix, "aria-label": `${name} (sort key) condition` });
  const value = h("input", { name: "sk" + suffix, spellcheck: "false", "aria-label": `${name} value` });
  const upper = h("input", { name: "sk2" + suffix, spellcheck: "false", placeholder: "and", hidden: true, "aria-label": `${name} upper value` });
  op.addEventListener("change", () => (upper.hidden = op.value !== "BETWEEN"));
  return { name, op, value, upper,
    nodes: [h("div", { class: "field" }, h("label", {}, `${name} (sort key)`), op), field("Value", value),
      h("div", { class: "field" }, h("label", {}, "\u00a0"), upper)] };
}

// The request the builder's fields describe, with names and values as placeholders.
function request(table, keys, f) {
  const r = { TableName: table.TableName, ReturnConsumedCapacity: "INDEXES" };
  if (f.index) r.IndexName = f.index;
  if (f.limit) r.Limit = f.limit;
  const names = {}, vals = {};
  if (f.values) {
    for (const [k, v] of Object.entries(itemFromPlain(JSON.parse(f.values)))) vals[k] = v;
  }
  if (f.mode === "Query") {
    const terms = [];
    keys.partition.forEach((k, i) => {
      if (k.value.value === "") throw new Error(`a Query needs a value for ${k.name}`);
      const p = slot("pk", i);
      names["#" + p] = k.name;
      vals[":" + p] = { [attributeType(table, k.name)]: k.value.value };
      terms.push(`#${p} = :${p}`);
    });
    keys.sort.forEach((k, i) => {
      if (!k.op.value) return;
      const s = slot("sk", i);
      const type = attributeType(table, k.name);
      names["#" + s] = k.name;
      vals[":" + s] = { [type]: k.value.value };
      if (k.op.value === "BETWEEN") {
        vals[`:${s}_and`] = { [type]: k.upper.value };
        terms.push(`#${s} BETWEEN :${s} AND :${s}_and`);
      } else if (k.op.value === "begins_with") {
        terms.push(`begins_with(#${s}, :${s})`);
      } else {
        terms.push(`#${s} ${k.op.value} :${s}`);
      }
    });
    r.KeyConditionExpression = terms.join(" AND ");
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
