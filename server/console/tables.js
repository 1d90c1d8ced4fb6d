// Tables: the region's tables (names at once, details as each DescribeTable
// answers), the create form, and one table's description with its updates.
import { call } from "./api.js";
import { h, clear, field, select, errorBox, formatBytes, formatNumber } from "./dom.js";

const KEY_TYPES = [["S", "String"], ["N", "Number"], ["B", "Binary"]];

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
        h("td", {}, (t.GlobalSecondaryIndexes || []).length + (t.LocalSecondaryIndexes || []).length),
        h("td", {}, billing(t)), h("td", { class: "num" }, formatNumber(t.ItemCount, 0)), h("td", { class: "num" }, formatBytes(t.TableSizeBytes)));
    }, (e) => row.replaceChildren(row.firstChild, h("td", { colspan: 7 }, errorBox(e))));
  }
}

function billing(t) {
  if (t.BillingModeSummary?.BillingMode === "PAY_PER_REQUEST") return "On demand";
  const p = t.ProvisionedThroughput || {};
  return `Provisioned ${p.ReadCapacityUnits} RCU / ${p.WriteCapacityUnits} WCU`;
}

function keyInputs(prefix, optional) {
  const name = h("input", { name: prefix + "-name", spellcheck: "false", required: !optional, placeholder: optional ? "(none)" : "" });
  const type = select(KEY_TYPES, "S", { name: prefix + "-type" });
  return { name, type, nodes: [field(optional ? "Sort key" : "Partition key", name), field("Type", type)] };
}

function indexRow(kind, list) {
  const name = h("input", { name: "index-name", spellcheck: "false", required: true });
  const pk = keyInputs("index-pk", kind === "local");
  const sk = keyInputs("index-sk", true);
  const projection = select(["ALL", "KEYS_ONLY", "INCLUDE"], "ALL", { name: "projection" });
  const nonKey = h("input", { name: "non-key", placeholder: "a, b", spellcheck: "false" });
  const row = h("div", { class: "row index-row", dataset: { kind } },
    field(kind === "global" ? "GSI name" : "LSI name", name),
    kind === "global" ? pk.nodes : [],
    field("Sort key", sk.name), field("Type", sk.type), field("Projection", projection), field("Non-key attributes", nonKey),
    h("button", { type: "button", class: "danger", onclick: () => { row.remove(); list.splice(list.indexOf(entry), 1); } }, "Remove"));
  const entry = { kind, row, name, pk, sk, projection, nonKey };
  list.push(entry);
  return row;
}

function projectionOf(entry) {
  const p = { ProjectionType: entry.projection.value };
  if (p.ProjectionType === "INCLUDE") p.NonKeyAttributes = entry.nonKey.value.split(",").map((s) => s.trim()).filter(Boolean);
  return p;
}

function showCreate(container) {
  if (container.firstChild) { container.replaceChildren(); return; }
  const tableName = h("input", { name: "table-name", required: true, spellcheck: "false", autofocus: true });
  const pk = keyInputs("pk", false);
  const sk = keyInputs("sk", true);
  const mode = select([["PAY_PER_REQUEST", "On demand"], ["PROVISIONED", "Provisioned"]], "PAY_PER_REQUEST", { name: "billing" });
  const rcu = h("input", { name: "rcu", type: "number", min: 1, value: 5 });
  const wcu = h("input", { name: "wcu", type: "number", min: 1, value: 5 });
  const stream = select([["", "Off"], "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"], "", { name: "stream" });
  const ttl = h("input", { name: "ttl", placeholder: "(off)", spellcheck: "false" });
  const indexes = [];
  const gsis = h("div"), lsis = h("div");
  const out = h("div");
  const form = h("form", { class: "panel", id: "create-form", onsubmit: async (e) => {
    e.preventDefault();
    const attrs = new Map();
    const def = (n, t) => { if (n) attrs.set(n, t); };
    const keySchema = (p, s) => [{ AttributeName: p.name.value.trim(), KeyType: "HASH" },
      ...(s.name.value.trim() ? [{ AttributeName: s.name.value.trim(), KeyType: "RANGE" }] : [])];
    def(pk.name.value.trim(), pk.type.value);
    def(sk.name.value.trim(), sk.type.value);
    const request = { TableName: tableName.value.trim(), KeySchema: keySchema(pk, sk), BillingMode: mode.value };
    const throughput = { ReadCapacityUnits: Number(rcu.value), WriteCapacityUnits: Number(wcu.value) };
    if (mode.value === "PROVISIONED") request.ProvisionedThroughput = throughput;
    const global = [], local = [];
    for (const i of indexes) {
      const partition = i.kind === "global" ? i.pk : pk;
      def(partition.name.value.trim(), partition.type.value);
      def(i.sk.name.value.trim(), i.sk.type.value);
      const index = { IndexName: i.name.value.trim(), KeySchema: keySchema(partition, i.sk), Projection: projectionOf(i) };
      if (i.kind === "global" && mode.value === "PROVISIONED") index.ProvisionedThroughput = throughput;
      (i.kind === "global" ? global : local).push(index);
    }
    request.AttributeDefinitions = [...attrs].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
    if (global.length) request.GlobalSecondaryIndexes = global;
    if (local.length) request.LocalSecondaryIndexes = local;
    if (stream.value) request.StreamSpecification = { StreamEnabled: true, StreamViewType: stream.value };
    clear(out, h("pre", { class: "request" }, "CreateTable " + JSON.stringify(request, null, 2)));
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
    h("fieldset", {}, h("legend", {}, "Global secondary indexes"), gsis,
      h("button", { type: "button", id: "add-gsi", onclick: () => gsis.append(indexRow("global", indexes)) }, "Add GSI")),
    h("fieldset", {}, h("legend", {}, "Local secondary indexes"), lsis,
      h("button", { type: "button", id: "add-lsi", onclick: () => lsis.append(indexRow("local", indexes)) }, "Add LSI")),
    h("div", { class: "toolbar" }, h("button", { class: "primary", type: "submit" }, "Create")),
    out);
  container.append(form);
  tableName.focus();
}

function kv(pairs) {
  return h("dl", { class: "kv" }, pairs.filter(([, v]) => v !== undefined && v !== null && v !== "").map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

async function renderTable(el, name, current) {
  const arnless = { TableName: name };
  const [{ Table: t }, ttl, backups] = await Promise.all([
    call("DescribeTable", arnless),
    call("DescribeTimeToLive", arnless).catch(() => null),
    call("DescribeContinuousBackups", arnless).catch(() => null),
  ]);
  if (!current()) return;
  // Tags need the table's ARN: they fill in after the first content.
  const tagsCell = h("span", { class: "muted" }, "…");
  call("ListTagsOfResource", { ResourceArn: t.TableArn }).then(
    (tags) => tagsCell.replaceWith((tags.Tags || []).map((x) => `${x.Key}=${x.Value}`).join(", ") || "None"),
    (e) => tagsCell.replaceWith(errorBox(e)));
  const keyText = (schema) => schema.map((k) => `${k.AttributeName} (${k.KeyType === "HASH" ? "partition" : "sort"})`).join(", ");
  const indexRows = [...(t.GlobalSecondaryIndexes || []).map((i) => ["GSI", i]), ...(t.LocalSecondaryIndexes || []).map((i) => ["LSI", i])];
  const out = h("div");
  const ttlDesc = ttl?.TimeToLiveDescription;
  const pitr = backups?.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus;
  clear(el,
    h("div", { class: "toolbar" }, h("h1", {}, t.TableName),
      h("a", { href: "#/items/" + encodeURIComponent(name) }, "Explore items"), "·",
      h("a", { href: "#/streams/" + encodeURIComponent(name) }, "Stream & TTL"), "·",
      h("a", { href: "#/cost" }, "Cost")),
    h("div", { class: "split" },
      h("div", { class: "panel", id: "table-overview" }, h("h2", {}, "Overview"), kv([
        ["Status", t.TableStatus], ["Keys", keyText(t.KeySchema)], ["Capacity", billing(t)],
        ["Items", formatNumber(t.ItemCount, 0)], ["Size", formatBytes(t.TableSizeBytes)],
        ["Table class", t.TableClassSummary?.TableClass || "STANDARD"],
        ["Stream", t.StreamSpecification?.StreamEnabled ? `${t.StreamSpecification.StreamViewType} (${t.LatestStreamLabel})` : "Off"],
        ["Time to live", ttlDesc ? `${ttlDesc.TimeToLiveStatus}${ttlDesc.AttributeName ? " on " + ttlDesc.AttributeName : ""}` : ""],
        ["Point-in-time recovery", pitr || ""], ["Deletion protection", t.DeletionProtectionEnabled ? "On" : "Off"],
        ["Tags", tagsCell],
        ["ARN", t.TableArn], ["Created", t.CreationDateTime ? new Date(t.CreationDateTime * 1000).toLocaleString() : ""],
      ])),
      h("div", { class: "panel" }, h("h2", {}, "Update"), updateForms(t, out), out)),
    h("div", { class: "panel" }, h("h2", {}, "Indexes"), indexRows.length === 0 ? h("p", { class: "muted" }, "None") :
      h("table", { class: "grid", id: "index-list" },
        h("thead", {}, h("tr", {}, ["Kind", "Name", "Keys", "Projection", "Status", "Items", "Size", ""].map((c) => h("th", {}, c)))),
        h("tbody", {}, indexRows.map(([kind, i]) => h("tr", { dataset: { index: i.IndexName } },
          h("td", {}, kind), h("td", {}, i.IndexName), h("td", {}, keyText(i.KeySchema)),
          h("td", {}, i.Projection.ProjectionType + (i.Projection.NonKeyAttributes ? ` (${i.Projection.NonKeyAttributes.join(", ")})` : "")),
          h("td", {}, i.IndexStatus || "ACTIVE"), h("td", { class: "num" }, formatNumber(i.ItemCount, 0)),
          h("td", { class: "num" }, formatBytes(i.IndexSizeBytes)),
          h("td", {}, kind === "GSI" ? h("button", { class: "danger", onclick: () => update(out, name,
            { GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: i.IndexName } }] }, `Delete index ${i.IndexName}?`) }, "Delete") : "")))))),
    h("details", { class: "panel" }, h("summary", {}, "DescribeTable answer"), h("pre", {}, JSON.stringify(t, null, 2))));
}

async function update(out, name, changes, confirmText) {
  if (confirmText && !confirm(confirmText)) return;
  const request = { TableName: name, ...changes };
  clear(out, h("pre", { class: "request" }, "UpdateTable " + JSON.stringify(request, null, 2)));
  try {
    await call("UpdateTable", request);
    dispatchEvent(new HashChangeEvent("hashchange"));
  } catch (e) {
    out.append(errorBox(e));
  }
}

function updateForms(t, out) {
  const name = t.TableName;
  const onDemand = t.BillingModeSummary?.BillingMode === "PAY_PER_REQUEST";
  const mode = select([["PAY_PER_REQUEST", "On demand"], ["PROVISIONED", "Provisioned"]], onDemand ? "PAY_PER_REQUEST" : "PROVISIONED", { name: "billing" });
  const rcu = h("input", { name: "rcu", type: "number", min: 1, value: t.ProvisionedThroughput?.ReadCapacityUnits || 5 });
  const wcu = h("input", { name: "wcu", type: "number", min: 1, value: t.ProvisionedThroughput?.WriteCapacityUnits || 5 });
  const throughput = h("form", { id: "update-throughput", onsubmit: (e) => {
    e.preventDefault();
    const changes = { BillingMode: mode.value };
    if (mode.value === "PROVISIONED") {
      changes.ProvisionedThroughput = { ReadCapacityUnits: Number(rcu.value), WriteCapacityUnits: Number(wcu.value) };
    }
    update(out, name, changes);
  } }, h("div", { class: "row" }, field("Capacity mode", mode), field("RCU", rcu), field("WCU", wcu),
    h("button", { type: "submit" }, "Save capacity")));
  const gsiName = h("input", { name: "gsi-name", required: true, spellcheck: "false" });
  const gsiPk = h("input", { name: "gsi-pk", required: true, spellcheck: "false" });
  const gsiPkType = select(KEY_TYPES, "S");
  const gsiSk = h("input", { name: "gsi-sk", spellcheck: "false", placeholder: "(none)" });
  const gsiSkType = select(KEY_TYPES, "S");
  const gsiProjection = select(["ALL", "KEYS_ONLY"], "ALL");
  const addIndex = h("form", { id: "add-index", onsubmit: (e) => {
    e.preventDefault();
    const keys = [{ AttributeName: gsiPk.value.trim(), KeyType: "HASH" }];
    const defs = [{ AttributeName: gsiPk.value.trim(), AttributeType: gsiPkType.value }];
    if (gsiSk.value.trim()) {
      keys.push({ AttributeName: gsiSk.value.trim(), KeyType: "RANGE" });
      defs.push({ AttributeName: gsiSk.value.trim(), AttributeType: gsiSkType.value });
    }
    const create = { IndexName: gsiName.value.trim(), KeySchema: keys, Projection: { ProjectionType: gsiProjection.value } };
    if (!onDemand) create.ProvisionedThroughput = { ReadCapacityUnits: Number(rcu.value), WriteCapacityUnits: Number(wcu.value) };
    update(out, name, { AttributeDefinitions: defs, GlobalSecondaryIndexUpdates: [{ Create: create }] });
  } }, h("div", { class: "row" }, field("New GSI", gsiName), field("Partition key", gsiPk), field("Type", gsiPkType),
    field("Sort key", gsiSk), field("Type", gsiSkType), field("Projection", gsiProjection), h("button", { type: "submit" }, "Add index")));
  const confirmName = h("input", { name: "confirm", spellcheck: "false", placeholder: name, "aria-label": "Type the table's name to delete it" });
  const remove = h("form", { id: "delete-table", onsubmit: async (e) => {
    e.preventDefault();
    if (confirmName.value !== name) {
      clear(out, errorBox({ type: "Not deleted", message: `type ${name} to confirm` }));
      return;
    }
    try {
      await call("DeleteTable", { TableName: name });
      location.hash = "#/tables";
    } catch (err) {
      clear(out, errorBox(err));
    }
  } }, h("div", { class: "row" }, field("Delete table: type its name", confirmName), h("button", { class: "danger", type: "submit" }, "Delete table")));
  return [throughput, h("hr"), addIndex, h("hr"), remove];
}
