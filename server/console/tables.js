// Tables: the region's tables (names at once, details as each DescribeTable
// answers) and the create form; one table's page is table.js.
import { call } from "./api.js";
import { h, clear, field, select, errorBox, formatBytes, formatNumber } from "./dom.js";
import { billing, renderTable } from "./table.js";
import { keyAttribute, projectionFields, globalIndexFields, vectorIndexFields, attributeDefinitions } from "./index_forms.js";

export async function render(el, name, current) {
  if (name) return renderTable(el, name, current);
  const { TableNames = [] } = await call("ListTables", {});
  const body = h("tbody");
  const create = h("div");
  clear(el,
    h("div", { class: "toolbar" }, h("h1", {}, "Tables"), h("div", { class: "spacer" }),
      h("button", { class: "primary", id: "create-table", onclick: () => showCreate(create) }, "Create table")),
    create,
    h("div", { class: "panel" }, TableNames.length === 0 ? h("p", { class: "muted" }, "No tables in this region yet.") :
      h("table", { class: "grid", id: "table-list" },
        h("thead", {}, h("tr", {}, ["Name", "Status", "Partition key", "Sort key", "Indexes", "Billing", "Items", "Size"].map((c) => h("th", {}, c)))),
        body)));
  for (const n of TableNames) {
    const row = h("tr", { class: "clickable", tabindex: 0, dataset: { table: n },
      onclick: () => (location.hash = "#/tables/" + encodeURIComponent(n)),
      onkeydown: (e) => e.key === "Enter" && (location.hash = "#/tables/" + encodeURIComponent(n)) },
      h("td", {}, h("a", { href: "#/tables/" + encodeURIComponent(n) }, n)), h("td", { colspan: 7, class: "muted" }, "…"));
    body.append(row);
    call("DescribeTable", { TableName: n }).then(({ Table: t }) => {
      if (!current()) return;
      const key = (type) => t.KeySchema.find((k) => k.KeyType === type);
      const typeOf = (k) => k ? `${k.AttributeName} (${t.AttributeDefinitions.find((a) => a.AttributeName === k.AttributeName).AttributeType})` : "";
      row.replaceChildren(row.firstChild,
        h("td", {}, t.TableStatus), h("td", {}, typeOf(key("HASH"))), h("td", {}, typeOf(key("RANGE"))),
        h("td", {}, (t.GlobalSecondaryIndexes || []).length + (t.LocalSecondaryIndexes || []).length + (t.VectorIndexes || []).length),
        h("td", {}, billing(t)), h("td", { class: "num" }, formatNumber(t.ItemCount, 0)), h("td", { class: "num" }, formatBytes(t.TableSizeBytes)));
    }, (e) => row.replaceChildren(row.firstChild, h("td", { colspan: 7 }, errorBox(e))));
  }
}

// One index of the create form, with its Remove button: a global index
// (multi-attribute keys allowed), a local one (one sort key; the table's
// partition key is added when the form is sent) or a vector index.
function indexRow(kind, list) {
  let fields;
  if (kind === "global") {
    fields = globalIndexFields();
  } else if (kind === "vector") {
    fields = vectorIndexFields();
  } else {
    const name = h("input", { name: "index-name", spellcheck: "false", required: true });
    const sort = keyAttribute("index-sk", "Sort key", false);
    const projection = projectionFields();
    fields = { nodes: [field("LSI name", name), sort.nodes, projection.nodes],
      read: () => {
        const s = sort.read();
        return { index: { IndexName: name.value.trim(), KeySchema: s ? [{ AttributeName: s.name, KeyType: "RANGE" }] : [],
          Projection: projection.read() }, definitions: s ? [[s.name, s.type]] : [] };
      } };
  }
  const entry = { kind, read: fields.read };
  const row = h("div", { class: "index-row", dataset: { kind } }, h("div", { class: "row" }, fields.nodes,
    h("button", { type: "button", class: "danger", onclick: () => { row.remove(); list.splice(list.indexOf(entry), 1); } }, "Remove")));
  list.push(entry);
  return row;
}

function showCreate(container) {
  if (container.firstChild) { container.replaceChildren(); return; }
  const tableName = h("input", { name: "table-name", required: true, spellcheck: "false", autofocus: true });
  const pk = keyAttribute("pk", "Partition key", false);
  const sk = keyAttribute("sk", "Sort key", true);
  const mode = select([["PAY_PER_REQUEST", "On demand"], ["PROVISIONED", "Provisioned"]], "PAY_PER_REQUEST", { name: "billing" });
  const rcu = h("input", { name: "rcu", type: "number", min: 1, value: 5 });
  const wcu = h("input", { name: "wcu", type: "number", min: 1, value: 5 });
  const stream = select([["", "Off"], "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"], "", { name: "stream" });
  const ttl = h("input", { name: "ttl", placeholder: "(off)", spellcheck: "false" });
  const indexes = [];
  const gsis = h("div"), lsis = h("div"), vectors = h("div");
  const out = h("div");
  const form = h("form", { class: "panel", id: "create-form", onsubmit: async (e) => {
    e.preventDefault();
    const partition = pk.read(), sort = sk.read();
    const tableKey = [{ AttributeName: partition?.name ?? "", KeyType: "HASH" },
      ...(sort ? [{ AttributeName: sort.name, KeyType: "RANGE" }] : [])];
    const definitions = [[partition?.name, partition?.type], ...(sort ? [[sort.name, sort.type]] : [])];
    const request = { TableName: tableName.value.trim(), KeySchema: tableKey, BillingMode: mode.value };
    const throughput = { ReadCapacityUnits: Number(rcu.value), WriteCapacityUnits: Number(wcu.value) };
    if (mode.value === "PROVISIONED") request.ProvisionedThroughput = throughput;
    const declared = { global: [], local: [], vector: [] };
    for (const i of indexes) {
      const { index, definitions: more } = i.read();
      if (i.kind === "local") index.KeySchema.unshift(tableKey[0]);  // the table's partition key
      if (i.kind === "global" && mode.value === "PROVISIONED") index.ProvisionedThroughput = throughput;
      definitions.push(...more);
      declared[i.kind].push(index);
    }
    request.AttributeDefinitions = attributeDefinitions(definitions);
    if (declared.global.length) request.GlobalSecondaryIndexes = declared.global;
    if (declared.local.length) request.LocalSecondaryIndexes = declared.local;
    if (declared.vector.length) request.VectorIndexes = declared.vector;
    if (stream.value) request.StreamSpecification = { StreamEnabled: true, StreamViewType: stream.value };
    clear(out, h("pre", { class: "request", "data-test": "request" }, "CreateTable " + JSON.stringify(request, null, 2)));
    try {
      await call("CreateTable", request);
      if (ttl.value.trim()) {
        await call("UpdateTimeToLive", { TableName: request.TableName,
          TimeToLiveSpecification: { Enabled: true, AttributeName: ttl.value.trim() } });
      }
      location.hash = "#/tables/" + encodeURIComponent(request.TableName);
    } catch (err) {
      out.append(errorBox(err));
    }
  } },
    h("h2", {}, "Create table"),
    h("div", { class: "row" }, field("Table name", tableName), pk.nodes, sk.nodes),
    h("div", { class: "row" }, field("Capacity mode", mode), field("Read capacity units", rcu), field("Write capacity units", wcu),
      field("Stream", stream), field("TTL attribute", ttl)),
    h("fieldset", {}, h("legend", {}, "Global secondary indexes (1-4 partition-key and 0-4 sort-key attributes)"), gsis,
      h("button", { type: "button", id: "add-gsi", onclick: () => gsis.append(indexRow("global", indexes)) }, "Add GSI")),
    h("fieldset", {}, h("legend", {}, "Local secondary indexes"), lsis,
      h("button", { type: "button", id: "add-lsi", onclick: () => lsis.append(indexRow("local", indexes)) }, "Add LSI")),
    h("fieldset", {}, h("legend", {}, "Vector indexes (on demand tables)"), vectors,
      h("button", { type: "button", id: "add-vector", onclick: () => vectors.append(indexRow("vector", indexes)) }, "Add vector index")),
    h("div", { class: "toolbar" }, h("button", { class: "primary", type: "submit" }, "Create")),
    out);
  container.append(form);
  tableName.focus();
}
