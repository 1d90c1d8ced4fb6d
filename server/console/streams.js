// Streams and TTL: a table's latest stream records (read through the Streams
// API, as a consumer would) and the items that expire next (a Scan of the TTL
// attribute: it consumes read units like any Scan, and says how many).
import { call } from "./api.js";
import { h, clear, select, errorBox, formatNumber } from "./dom.js";
import { preview } from "./values.js";

const RECORDS = 50;
const MAX_CALLS = 40;

export async function render(el, name, current) {
  const first = (n) => Promise.all([call("DescribeTable", { TableName: n }), call("DescribeTimeToLive", { TableName: n })]);
  const listing = call("ListTables", {});
  const named = name ? first(name) : null;
  named?.catch(() => {});  // awaited below
  const { TableNames = [] } = await listing;
  if (!name) name = TableNames[0];
  if (!name) {
    clear(el, h("h1", {}, "Streams & TTL"), h("p", { class: "muted" }, "No tables yet."));
    return;
  }
  const [{ Table: table }, ttl] = await (named || first(name));
  if (!current()) return;
  const streamPanel = h("div", { class: "panel", id: "stream" }, h("h2", {}, "Latest stream records"), h("p", { class: "muted" }, "Reading…"));
  const ttlPanel = h("div", { class: "panel", id: "ttl" }, h("h2", {}, "Expiring next"), h("p", { class: "muted" }, "Reading…"));
  clear(el,
    h("div", { class: "toolbar" }, h("h1", {}, "Streams & TTL"),
      select(TableNames, name, { "aria-label": "Table", onchange: (e) => (location.hash = "#/streams/" + encodeURIComponent(e.target.value)) })),
    h("div", { class: "split" }, streamPanel, ttlPanel));
  latestRecords(table).then((rows) => clear(streamPanel, h("h2", {}, "Latest stream records"), rows),
    (e) => streamPanel.append(errorBox(e)));
  expiringNext(table, ttl.TimeToLiveDescription).then((rows) => clear(ttlPanel, h("h2", {}, "Expiring next"), rows),
    (e) => ttlPanel.append(errorBox(e)));
}

async function latestRecords(table) {
  if (!table.LatestStreamArn) return h("p", { class: "muted" }, "This table has no stream. Turn one on when creating a table, or with UpdateTable.");
  const { StreamDescription: stream } = await call("DescribeStream", { StreamArn: table.LatestStreamArn }, { streams: true });
  const records = [];
  let calls = 0;
  // The newest shards hold the newest records; read each from its start.
  for (const shard of [...stream.Shards].reverse()) {
    let { ShardIterator: iterator } = await call("GetShardIterator",
      { StreamArn: stream.StreamArn, ShardId: shard.ShardId, ShardIteratorType: "TRIM_HORIZON" }, { streams: true });
    const shardRecords = [];
    while (iterator && calls++ < MAX_CALLS) {
      const answer = await call("GetRecords", { ShardIterator: iterator, Limit: 1000 }, { streams: true });
      shardRecords.push(...answer.Records);
      // An open shard answers an empty page once it is read to its end.
      if (answer.Records.length === 0) break;
      iterator = answer.NextShardIterator;
    }
    records.unshift(...shardRecords);
    if (records.length >= RECORDS) break;
  }
  const latest = records.slice(-RECORDS).reverse();
  if (latest.length === 0) return h("p", { class: "muted" }, `Stream ${stream.StreamLabel} (${stream.StreamViewType}) has no records yet.`);
  return [h("p", { class: "muted" }, `Stream ${stream.StreamLabel} (${stream.StreamViewType}), newest first.`),
    h("div", { class: "scroll" }, h("table", { class: "grid", id: "stream-records" },
      h("thead", {}, h("tr", {}, ["Time", "Event", "Keys", "New image", "Sequence"].map((c) => h("th", {}, c)))),
      h("tbody", {}, latest.map((r) => h("tr", {},
        h("td", {}, new Date(r.dynamodb.ApproximateCreationDateTime * 1000).toLocaleTimeString()),
        h("td", {}, r.eventName, r.userIdentity ? h("span", { class: "badge" }, "TTL") : ""),
        h("td", {}, Object.entries(r.dynamodb.Keys).map(([k, v]) => `${k}=${preview(v)}`).join(", ")),
        h("td", {}, r.dynamodb.NewImage ? JSON.stringify(r.dynamodb.NewImage).slice(0, 120) : ""),
        h("td", { class: "muted" }, r.dynamodb.SequenceNumber))))))];
}

async function expiringNext(table, ttl) {
  if (!ttl || ttl.TimeToLiveStatus !== "ENABLED") {
    return h("p", { class: "muted" }, "Time to live is off for this table (UpdateTimeToLive turns it on).");
  }
  const attr = ttl.AttributeName;
  const keys = table.KeySchema.map((k) => k.AttributeName);
  const names = Object.fromEntries([...keys, attr].map((n, i) => ["#a" + i, n]));
  const request = { TableName: table.TableName, ProjectionExpression: Object.keys(names).join(", "),
    FilterExpression: `attribute_type(#a${keys.length}, :n)`, ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ":n": { S: "N" } }, ReturnConsumedCapacity: "TOTAL" };
  const found = [];
  let units = 0, scanned = 0, token, pages = 0;
  do {
    const answer = await call("Scan", token ? { ...request, ExclusiveStartKey: token } : request);
    found.push(...answer.Items);
    units += answer.ConsumedCapacity?.CapacityUnits || 0;
    scanned += answer.ScannedCount;
    token = answer.LastEvaluatedKey;
  } while (token && ++pages < 20);
  const now = Date.now() / 1000;
  found.sort((a, b) => Number(a[attr].N) - Number(b[attr].N));
  const rows = found.slice(0, 25);
  return [h("p", { class: "muted" }, `${found.length} of ${formatNumber(scanned, 0)} items scanned have ${attr}` +
      `${token ? " (first 20 pages)" : ""}; the scan consumed ${formatNumber(units, 1)} read units. ` +
      "DynamoDB deletes expired items within days; dynamod's sweeper runs every --ttl-interval seconds."),
    rows.length === 0 ? null : h("table", { class: "grid", id: "ttl-items" },
      h("thead", {}, h("tr", {}, [...keys, attr, "Expires"].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.map((item) => {
        const at = Number(item[attr].N);
        return h("tr", {}, keys.map((k) => h("td", {}, preview(item[k]))), h("td", {}, item[attr].N),
          h("td", {}, at <= now ? "expired, awaiting the sweeper" : `in ${relative(at - now)} (${new Date(at * 1000).toLocaleString()})`));
      })))];
}

function relative(seconds) {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}
