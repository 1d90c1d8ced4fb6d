// One table's page: its description (keys, capacity, counts, stream, TTL,
// backups, tags, secondary and vector indexes) and its updates (capacity,
// adding a global index with a multi-attribute key or a vector index,
// deleting either, deleting the table). Each UpdateTable is shown as sent.
import { call } from "./api.js";
import { h, clear, field, select, errorBox, formatBytes, formatNumber } from "./dom.js";
import { globalIndexFields, vectorIndexFields, attributeDefinitions } from "./index_forms.js";

export function billing(t) {
  if (t.BillingModeSummary?.BillingMode === "PAY_PER_REQUEST") return "On demand";
  const p = t.ProvisionedThroughput || {};
  return `Provisioned ${p.ReadCapacityUnits} RCU / ${p.WriteCapacityUnits} WCU`;
}

function kv(pairs) {
  return h("dl", { class: "kv" }, pairs.filter(([, v]) => v !== undefined && v !== null && v !== "").map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

const keyText = (schema) => schema.map((k) => `${k.AttributeName} (${k.KeyType === "HASH" ? "partition" : "sort"})`).join(", ");
const projectionText = (p) => p.ProjectionType + (p.NonKeyAttributes ? ` (${p.NonKeyAttributes.join(", ")})` : "");

// `sent` is the UpdateTable this page just sent: it stays shown over the page drawn anew.
export async function renderTable(el, name, current, sent) {
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
  const out = h("div", { id: "update-out" }, sent ? [h("p", { class: "ok" }, "Sent; the page shows the table as it is now."), requestText(sent)] : null);
  const update = async (changes, confirmText) => {
    if (confirmText && !confirm(confirmText)) return;
    const request = { TableName: name, ...changes };
    clear(out, requestText(request));
    try {
      await call("UpdateTable", request);
      await renderTable(el, name, current, request);
    } catch (e) {
      out.append(errorBox(e));
    }
  };
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
      h("div", { class: "panel" }, h("h2", {}, "Update"), updateForms(t, out, update), out)),
    indexesPanel(t, update),
    vectorIndexesPanel(t, update),
    h("details", { class: "panel" }, h("summary", {}, "DescribeTable answer"), h("pre", {}, JSON.stringify(t, null, 2))));
}

function indexesPanel(t, update) {
  const rows = [...(t.GlobalSecondaryIndexes || []).map((i) => ["GSI", i]), ...(t.LocalSecondaryIndexes || []).map((i) => ["LSI", i])];
  return h("div", { class: "panel" }, h("h2", {}, "Indexes"), rows.length === 0 ? h("p", { class: "muted" }, "None") :
    h("table", { class: "grid", id: "index-list" },
      h("thead", {}, h("tr", {}, ["Kind", "Name", "Keys", "Projection", "Status", "Items", "Size", ""].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.map(([kind, i]) => h("tr", { dataset: { index: i.IndexName } },
        h("td", {}, kind), h("td", {}, i.IndexName), h("td", {}, keyText(i.KeySchema)),
        h("td", {}, projectionText(i.Projection)),
        h("td", {}, i.IndexStatus || "ACTIVE"), h("td", { class: "num" }, formatNumber(i.ItemCount, 0)),
        h("td", { class: "num" }, formatBytes(i.IndexSizeBytes)),
        h("td", {}, kind === "GSI" ? h("button", { class: "danger", onclick: () => update(
          { GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: i.IndexName } }] }, `Delete index ${i.IndexName}?`) }, "Delete") : ""))))));
}

function vectorIndexesPanel(t, update) {
  const indexes = t.VectorIndexes || [];
  const schema = (i) => (i.SearchSchema || []).map((e) => `${e.AttributeName} (${e.SearchSchemaElementType})`).join(", ") || "none";
  return h("div", { class: "panel" }, h("h2", {}, "Vector indexes"), indexes.length === 0 ? h("p", { class: "muted" }, "None") :
    h("table", { class: "grid", id: "vector-index-list" },
      h("thead", {}, h("tr", {}, ["Name", "Vector attribute", "Dimensions", "Distance", "Search schema", "Projection", "Status", "Items", "Size", ""]
        .map((c) => h("th", {}, c)))),
      h("tbody", {}, indexes.map((i) => h("tr", { dataset: { index: i.IndexName } },
        h("td", {}, i.IndexName), h("td", {}, i.VectorAttribute?.AttributeName), h("td", { class: "num" }, i.Dimensions),
        h("td", {}, i.DistanceFunction), h("td", {}, schema(i)), h("td", {}, projectionText(i.Projection)),
        h("td", {}, i.IndexStatus + (i.Backfilling ? " (backfilling)" : "")), h("td", { class: "num" }, formatNumber(i.ItemCount, 0)),
        h("td", { class: "num" }, formatBytes(i.IndexSizeBytes)),
        h("td", {}, h("button", { class: "danger", onclick: () => update(
          { VectorIndexUpdates: [{ Delete: { IndexName: i.IndexName } }] }, `Delete vector index ${i.IndexName}?`) }, "Delete")))))));
}

function requestText(request) {
  return h("pre", { class: "request", "data-test": "request" }, "UpdateTable " + JSON.stringify(request, null, 2));
}

function updateForms(t, out, update) {
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
    update(changes);
  } }, h("div", { class: "row" }, field("Capacity mode", mode), field("RCU", rcu), field("WCU", wcu),
    h("button", { type: "submit" }, "Save capacity")));
  const gsi = globalIndexFields();
  const addIndex = h("form", { id: "add-index", onsubmit: (e) => {
    e.preventDefault();
    const { index, definitions } = gsi.read();
    if (!onDemand) index.ProvisionedThroughput = { ReadCapacityUnits: Number(rcu.value), WriteCapacityUnits: Number(wcu.value) };
    update({ AttributeDefinitions: attributeDefinitions(definitions), GlobalSecondaryIndexUpdates: [{ Create: index }] });
  } }, h("h3", {}, "Add a global secondary index"), gsi.nodes, h("button", { type: "submit" }, "Add index"));
  const vector = vectorIndexFields();
  const addVector = h("form", { id: "add-vector-index", onsubmit: (e) => {
    e.preventDefault();
    const { index, definitions } = vector.read();
    const changes = { VectorIndexUpdates: [{ Create: index }] };
    if (definitions.length) changes.AttributeDefinitions = attributeDefinitions(definitions);
    update(changes);
  } }, h("h3", {}, "Add a vector index"), vector.nodes, h("button", { type: "submit" }, "Add vector index"));
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
  return [throughput, h("hr"), addIndex, h("hr"), addVector, h("hr"), remove];
}
