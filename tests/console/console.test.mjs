// The console end to end in headless Chromium: create a table with a GSI and
// an LSI, and one with a 2+2 multi-attribute GSI and a vector index (a fifth
// partition-key attribute refused with the server's message); add a
// multi-attribute GSI and add and delete a vector index on a table's page;
// create / edit / delete items (plain JSON and DynamoDB JSON; an edit is a
// minimal conditional UpdateItem, checked as sent and as stored; server
// validation errors shown), a Query from the builder with its results and
// ConsumedCapacity (on a multi-attribute GSI too), the stream and TTL page,
// the cost page after a load (its charts must hold points for the tables
// used, throttles included), a pattern's link prefilling the builder, the
// sign-in and browser SigV4 against --credentials, and --console off.
import assert from "node:assert/strict";
import path from "node:path";
import { chromium } from "playwright-core";

const { ENDPOINT, STRICT_ENDPOINT, OFF_ENDPOINT, OUTPUT_DIR, CHROMIUM } = process.env;
const console_ = (endpoint) => `${endpoint}/dynamod/console`;
let step = "start";

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run"],
});
const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: "light" });
const page = await context.newPage();
const problems = [];
page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
page.on("console", (m) => m.type() === "error" && !/status of 4\d\d/.test(m.text()) && problems.push(`console: ${m.text()}`));
// The console asks before deleting: say yes.
page.on("dialog", (d) => d.accept());
const shot = (name) => page.screenshot({ path: path.join(OUTPUT_DIR, name + ".png"), fullPage: true });

async function run(name, fn) {
  step = name;
  const started = Date.now();
  await fn();
  console.log(`ok   ${name} (${Date.now() - started} ms)`);
}

// Items through the page's own signed API module, as the console sends them.
function api(operation, request) {
  return page.evaluate(async ([op, req]) => (await import("/dynamod/console/api.js")).call(op, req), [operation, request]);
}

async function describe(table) {
  return (await api("DescribeTable", { TableName: table })).Table;
}

// Fills fields by name in order: a string is typed, { select } picks an option;
// "name@1" is the second field of that name (a key's second attribute).
async function fill(scope, fields) {
  for (const [key, value] of Object.entries(fields)) {
    const [name, nth = "0"] = key.split("@");
    const field = scope.locator(`[name=${name}]`).nth(Number(nth));
    if (typeof value === "object") await field.selectOption(value.select);
    else await field.fill(value);
  }
}

async function until(condition, what = "a condition") {
  for (let i = 0; i < 100; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out waiting for " + what);
}

try {
  await run("the console is served from the binary", async () => {
    const response = await page.goto(console_(ENDPOINT));
    assert.equal(response.status(), 200);
    assert.match(response.headers()["content-type"], /text\/html/);
    assert.ok(response.headers()["etag"]);
    await page.getByRole("heading", { name: "Tables" }).waitFor();
    await page.getByText("No tables in this region yet.").waitFor();
    const again = await page.request.get(console_(ENDPOINT) + "/app.js", { headers: { "If-None-Match": (await page.request.get(console_(ENDPOINT) + "/app.js")).headers()["etag"] } });
    assert.equal(again.status(), 304);
    assert.equal((await page.request.get(console_(ENDPOINT) + "/missing.js")).status(), 404);
  });

  await run("the pattern reader and the save planner, case by case", async () => {
    const got = await page.evaluate(async () => {
      const { builderPattern } = await import("/dynamod/console/patterns.js");
      const { saveRequest, equal } = await import("/dynamod/console/item_writes.js");
      const schema = [{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }];
      const item = { pk: { S: "a" }, sk: { N: "1" }, m: { M: { x: { N: "1" }, y: { S: "b" } } }, s: { SS: ["p", "q"] } };
      return {
        between: builderPattern({ table: "T", index: "G", operation: "Query", pattern: "Query G: g = USER#* AND n BETWEEN … AND … (filter)" }),
        getItem: builderPattern({ table: "T", operation: "GetItem", pattern: "GetItem T: pk = A:* AND sk = *" }),
        vector: builderPattern({ table: "T", index: "V", operation: "SearchVectors", pattern: "SearchVectors V: c = *" }),
        scan: builderPattern({ table: "T", operation: "Scan", pattern: "Scan T" }),
        reordered: equal({ M: { y: { S: "b" }, x: { N: "1" } } }, item.m) && equal({ SS: ["q", "p"] }, item.s),
        differs: equal({ L: [{ S: "a" }] }, { L: [{ S: "a" }, { S: "b" }] }) || equal({ S: "1" }, { N: "1" }),
        unchanged: saveRequest("T", schema, item, { ...item, m: { M: { y: { S: "b" }, x: { N: "1" } } }, s: { SS: ["q", "p"] } }),
        newKey: saveRequest("T", schema, item, { ...item, sk: { N: "2" } }).operation,
      };
    });
    assert.deepEqual(got.between, { operation: "Query", index: "G", filtered: true,
      shape: "Query G: g = USER#* AND n BETWEEN … AND … (filter)",
      conditions: [{ name: "g", op: "=", value: "USER#" }, { name: "n", op: "BETWEEN", value: "" }] });
    assert.deepEqual(got.getItem.conditions, [{ name: "pk", op: "=", value: "A:" }, { name: "sk", op: "=", value: "" }]);
    assert.equal(got.getItem.operation, "Query");
    assert.equal(got.vector, null);
    assert.deepEqual(got.scan, { operation: "Scan", index: "", conditions: [], filtered: false, shape: "Scan T" });
    assert.equal(got.reordered, true);
    assert.equal(got.differs, false);
    assert.equal(got.unchanged, null);
    assert.equal(got.newKey, "PutItem");  // a changed key is a new item, the old one stays
  });

  await run("create a table with a GSI, an LSI, a stream and TTL", async () => {
    await page.click("#create-table");
    const form = page.locator("#create-form");
    await form.locator("[name=table-name]").fill("Orders");
    await form.locator("[name=pk-name]").fill("customer");
    await form.locator("[name=sk-name]").fill("order");
    await form.locator("#add-gsi").click();
    const gsi = form.locator(".index-row[data-kind=global]");
    await gsi.locator("[name=index-name]").fill("byStatus");
    await gsi.locator("[name=index-pk-name]").fill("status");
    await gsi.locator("[name=index-sk-name]").fill("total");
    await gsi.locator("[name=index-sk-type]").selectOption("N");
    await form.locator("#add-lsi").click();
    const lsi = form.locator(".index-row[data-kind=local]");
    await lsi.locator("[name=index-name]").fill("byDate");
    await lsi.locator("[name=index-sk-name]").fill("date");
    await form.locator("[name=stream]").selectOption("NEW_AND_OLD_IMAGES");
    await form.locator("[name=ttl]").fill("expires");
    await shot("01-create-table");
    await form.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/#\/tables\/Orders$/);
    await page.locator("#index-list tr[data-index=byStatus]").waitFor();
    await page.locator("#index-list tr[data-index=byDate]").waitFor();
    const overview = await page.locator("#table-overview").innerText();
    assert.match(overview, /NEW_AND_OLD_IMAGES/);
    assert.match(overview, /ENABLED on expires/);
    await shot("02-table");
  });

  await run("a create error is the server's own message", async () => {
    await page.goto(console_(ENDPOINT) + "#/tables");
    await page.click("#create-table");
    await page.locator("#create-form [name=table-name]").fill("x");  // too short a name
    await page.locator("#create-form [name=pk-name]").fill("id");
    await page.locator("#create-form").getByRole("button", { name: "Create" }).click();
    const error = await page.locator("#create-form [data-test=error]").innerText();
    assert.match(error, /ValidationException/);
    assert.match(error, /Member must have length greater than or equal to 3/);
  });

  await run("create a table with a 2+2 multi-attribute GSI and a vector index", async () => {
    await page.goto(console_(ENDPOINT) + "#/tables");
    await page.reload();  // the same hash: the page is drawn anew, its create form closed
    await page.click("#create-table");
    const form = page.locator("#create-form");
    await fill(form, { "table-name": "Matches", "pk-name": "pk" });
    await form.locator("#add-gsi").click();
    const gsi = form.locator(".index-row[data-kind=global]");
    await gsi.locator("[data-add=HASH]").click();
    await gsi.locator("[data-add=RANGE]").click();
    await fill(gsi, { "index-name": "byBracket", "index-pk-name": "tournamentId", "index-pk-name@1": "region",
      "index-sk-name": "round", "index-sk-type": { select: "N" }, "index-sk-name@1": "matchId" });
    await form.locator("#add-vector").click();
    await fill(form.locator(".index-row[data-kind=vector]"), { "vector-name": "ByEmbedding", "vector-attribute": "Embedding",
      "vector-dimensions": "3", "vector-distance": { select: "EUCLIDEAN" }, "vector-hash-name": "region",
      "vector-filter-name": "round", "vector-filter-type": { select: "N" }, projection: { select: "KEYS_ONLY" } });
    await shot("02a-create-multi-attribute-and-vector");
    await form.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/#\/tables\/Matches$/);
    const t = await describe("Matches");
    assert.deepEqual(t.GlobalSecondaryIndexes[0].KeySchema, [
      { AttributeName: "tournamentId", KeyType: "HASH" }, { AttributeName: "region", KeyType: "HASH" },
      { AttributeName: "round", KeyType: "RANGE" }, { AttributeName: "matchId", KeyType: "RANGE" }]);
    const types = Object.fromEntries(t.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));
    assert.deepEqual(types, { pk: "S", tournamentId: "S", region: "S", round: "N", matchId: "S" });
    const v = t.VectorIndexes[0];
    assert.equal(v.IndexName, "ByEmbedding");
    assert.deepEqual(v.VectorAttribute, { AttributeName: "Embedding" });
    assert.equal(v.Dimensions, 3);
    assert.equal(v.DistanceFunction, "EUCLIDEAN");
    assert.deepEqual(v.SearchSchema, [{ AttributeName: "region", SearchSchemaElementType: "HASH" },
      { AttributeName: "round", SearchSchemaElementType: "INLINE_FILTER" }]);
    assert.deepEqual(v.Projection, { ProjectionType: "KEYS_ONLY" });
    assert.match(await page.locator("#index-list tr[data-index=byBracket]").innerText(),
      /tournamentId \(partition\), region \(partition\), round \(sort\), matchId \(sort\)/);
    const row = await page.locator("#vector-index-list tr[data-index=ByEmbedding]").innerText();
    assert.match(row, /Embedding\t3\tEUCLIDEAN\tregion \(HASH\), round \(INLINE_FILTER\)\tKEYS_ONLY\tACTIVE/);
  });

  await run("five partition-key attributes: the server's refusal is shown", async () => {
    await page.goto(console_(ENDPOINT) + "#/tables");
    await page.locator("#table-list tr[data-table=Matches]").waitFor();
    await page.click("#create-table");
    const form = page.locator("#create-form");
    await form.locator("[name=table-name]").fill("TooMany");
    await form.locator("[name=pk-name]").fill("id");
    await form.locator("#add-gsi").click();
    const gsi = form.locator(".index-row[data-kind=global]");
    await gsi.locator("[name=index-name]").fill("wide");
    for (let i = 0; i < 5; i++) {
      if (i > 0) await gsi.locator("[data-add=HASH]").click();
      await gsi.locator("[name=index-pk-name]").nth(i).fill("p" + i);
    }
    await form.getByRole("button", { name: "Create" }).click();
    const error = await form.locator("[data-test=error]").innerText();
    assert.match(error, /ValidationException: Too many partition keys\. GSI can have at most 4 partition keys/);
    const sent = await form.locator("[data-test=request]").innerText();
    assert.equal(JSON.parse(sent.replace(/^CreateTable /, "")).GlobalSecondaryIndexes[0].KeySchema.length, 5);
    assert.deepEqual((await api("ListTables", {})).TableNames, ["Matches", "Orders"]);
  });

  await run("a table's page adds a multi-attribute GSI and adds and deletes a vector index", async () => {
    await page.goto(console_(ENDPOINT) + "#/tables/Matches");
    const add = page.locator("#add-index");
    await add.locator("[data-add=RANGE]").click();
    await fill(add, { "index-name": "byRegion", "index-pk-name": "region", "index-sk-name": "round",
      "index-sk-type": { select: "N" }, "index-sk-name@1": "matchId", projection: { select: "KEYS_ONLY" } });
    await add.getByRole("button", { name: "Add index" }).click();
    await page.locator("#index-list tr[data-index=byRegion]").waitFor();
    const sent = JSON.parse((await page.locator("#update-out [data-test=request]").innerText()).replace(/^UpdateTable /, ""));
    assert.deepEqual(sent.GlobalSecondaryIndexUpdates[0].Create.KeySchema.map((k) => k.KeyType), ["HASH", "RANGE", "RANGE"]);
    assert.deepEqual(sent.AttributeDefinitions, [{ AttributeName: "region", AttributeType: "S" },
      { AttributeName: "round", AttributeType: "N" }, { AttributeName: "matchId", AttributeType: "S" }]);
    await until(async () => (await describe("Matches")).GlobalSecondaryIndexes.every((i) => i.IndexStatus === "ACTIVE"), "byRegion ACTIVE");
    await page.reload();
    const vector = page.locator("#add-vector-index");
    await fill(vector, { "vector-name": "Thumbnails", "vector-attribute": "Thumb", "vector-dimensions": "2" });
    await vector.getByRole("button", { name: "Add vector index" }).click();
    await page.locator("#vector-index-list tr[data-index=Thumbnails]").waitFor();
    const created = JSON.parse((await page.locator("#update-out [data-test=request]").innerText()).replace(/^UpdateTable /, ""));
    assert.deepEqual(created, { TableName: "Matches", VectorIndexUpdates: [{ Create: { IndexName: "Thumbnails",
      VectorAttribute: { AttributeName: "Thumb" }, Dimensions: 2, DistanceFunction: "COSINE", Projection: { ProjectionType: "ALL" } } }] });
    await until(async () => (await describe("Matches")).VectorIndexes.every((i) => i.IndexStatus === "ACTIVE"), "Thumbnails ACTIVE");
    await page.reload();
    await shot("02b-table-with-vector-indexes");
    await page.locator("#vector-index-list tr[data-index=Thumbnails]").getByRole("button", { name: "Delete" }).click();
    await until(async () => (await describe("Matches")).VectorIndexes.length === 1, "Thumbnails gone");
    assert.equal((await describe("Matches")).VectorIndexes[0].IndexName, "ByEmbedding");
  });

  await run("create items in plain JSON and DynamoDB JSON", async () => {
    await page.goto(console_(ENDPOINT) + "#/items/Orders");
    await page.locator("#items").waitFor();
    const soon = Math.floor(Date.now() / 1000) + 3600;
    await page.selectOption("#item-format", "plain");
    for (const [i, status, total] of [[1, "OPEN", 10], [2, "OPEN", 25], [3, "SHIPPED", 40], [4, "OPEN", 3]]) {
      await page.click("#new-item");
      await page.selectOption("#item-format", "plain");
      await page.fill("#item-json", JSON.stringify({ customer: "c1", order: `o${i}`, status, total, date: `2026-01-0${i}`,
        expires: soon + i, tags: ["a", "b"], address: { city: "Paris" } }));
      await page.click("#save-item");
      await page.locator("#saved").waitFor();
    }
    await page.click("#new-item");
    await page.fill("#item-json", JSON.stringify({ customer: { S: "c2" }, order: { S: "o9" }, status: { S: "OPEN" },
      total: { N: "99.5" }, date: { S: "2026-02-01" }, colours: { SS: ["red", "blue"] } }));
    await page.click("#save-item");
    await page.locator("#saved").waitFor();
    const put = JSON.parse((await page.locator("#editor-out [data-test=request]").innerText()).replace(/^PutItem /, ""));
    assert.equal(put.ConditionExpression, "attribute_not_exists(#key)");
    assert.deepEqual(put.ExpressionAttributeNames, { "#key": "customer" });
    await page.waitForFunction(() => document.querySelectorAll("#items tbody tr").length === 5);
    const item = await api("GetItem", { TableName: "Orders", Key: { customer: { S: "c1" }, order: { S: "o2" } } });
    assert.deepEqual(item.Item.total, { N: "25" });
    assert.deepEqual(item.Item.tags, { L: [{ S: "a" }, { S: "b" }] });
    assert.deepEqual(item.Item.address, { M: { city: { S: "Paris" } } });
    await shot("03-items");
  });

  await run("edit an item, and see a validation error", async () => {
    await page.locator("#items tbody tr", { hasText: "o2" }).click();
    const text = JSON.parse(await page.inputValue("#item-json"));
    assert.deepEqual(text.total, { N: "25" });
    text.total = { N: "26" };
    await page.fill("#item-json", JSON.stringify(text));
    await page.click("#save-item");
    await page.locator("#saved").waitFor();
    const sent = async (operation) =>
      JSON.parse((await page.locator("#editor-out [data-test=request]").innerText()).replace(new RegExp(`^${operation} `), ""));
    assert.deepEqual(await sent("UpdateItem"), { TableName: "Orders", ReturnConsumedCapacity: "INDEXES",
      Key: { customer: { S: "c1" }, order: { S: "o2" } }, UpdateExpression: "SET #a0 = :v0",
      ConditionExpression: "attribute_exists(#key)", ExpressionAttributeNames: { "#a0": "total", "#key": "customer" },
      ReturnValues: "ALL_NEW", ExpressionAttributeValues: { ":v0": { N: "26" } } });
    const capacity = JSON.parse(await page.locator("#editor-out [data-test=capacity]").innerText());
    // The item's write, the GSI's old entry out and new one in (total is its sort key), the LSI's entry.
    assert.deepEqual(capacity.ConsumedCapacity, { TableName: "Orders", CapacityUnits: 4, Table: { CapacityUnits: 1 },
      GlobalSecondaryIndexes: { byStatus: { CapacityUnits: 2 } }, LocalSecondaryIndexes: { byDate: { CapacityUnits: 1 } } });
    const edited = await api("GetItem", { TableName: "Orders", Key: { customer: { S: "c1" }, order: { S: "o2" } } });
    assert.deepEqual(edited.Item.total, { N: "26" });
    await page.waitForFunction(() => [...document.querySelectorAll("#items tbody tr")].some((r) => r.innerText.includes("\t26\t")));
    // An attribute removed and one added: SET and REMOVE, and nothing else changes.
    const again = JSON.parse(await page.inputValue("#item-json"));
    delete again.tags;
    again.note = { S: "gift" };
    await page.fill("#item-json", JSON.stringify(again));
    await page.click("#save-item");
    await page.locator("#saved").waitFor();
    const both = await sent("UpdateItem");
    assert.equal(both.UpdateExpression, "SET #a0 = :v0 REMOVE #a1");
    assert.deepEqual(both.ExpressionAttributeNames, { "#a0": "note", "#a1": "tags", "#key": "customer" });
    const stored = (await api("GetItem", { TableName: "Orders", Key: { customer: { S: "c1" }, order: { S: "o2" } } })).Item;
    assert.equal(stored.tags, undefined);
    assert.deepEqual(stored.note, { S: "gift" });
    const without = (item, ...names) => Object.fromEntries(Object.entries(item).filter(([n]) => !names.includes(n)));
    assert.deepEqual(without(stored, "note"), without(edited.Item, "tags"));
    await shot("04a-update-item");
    // Saving again without a change sends nothing.
    await page.click("#save-item");
    await page.locator("#unchanged").waitFor();
    // An item deleted since it was opened is not written again.
    await page.click("#new-item");
    await page.fill("#item-json", JSON.stringify({ customer: { S: "c3" }, order: { S: "gone" }, total: { N: "1" } }));
    await page.click("#save-item");
    await page.locator("#saved").waitFor();
    await api("DeleteItem", { TableName: "Orders", Key: { customer: { S: "c3" }, order: { S: "gone" } } });
    await page.fill("#item-json", JSON.stringify({ customer: { S: "c3" }, order: { S: "gone" }, total: { N: "2" } }));
    await page.click("#save-item");
    assert.match(await page.locator("#editor-out [data-test=error]").innerText(),
      /ConditionalCheckFailedException: The conditional request failed \(the item no longer exists/);
    assert.equal((await api("GetItem", { TableName: "Orders", Key: { customer: { S: "c3" }, order: { S: "gone" } } })).Item, undefined);
    // A new item with the key of one that exists does not overwrite it.
    await page.click("#new-item");
    await page.fill("#item-json", JSON.stringify({ customer: { S: "c1" }, order: { S: "o2" } }));
    await page.click("#save-item");
    assert.match(await page.locator("#editor-out [data-test=error]").innerText(), /ConditionalCheckFailedException.*an item with this key exists/);
    assert.deepEqual((await api("GetItem", { TableName: "Orders", Key: { customer: { S: "c1" }, order: { S: "o2" } } })).Item.note, { S: "gift" });
    // A set has no plain JSON: the editor stays with DynamoDB JSON and says why.
    await page.locator("#items tbody tr", { hasText: "o9" }).click();
    await page.selectOption("#item-format", "plain");
    assert.match(await page.locator("#editor-out").innerText(), /SS value has no plain JSON form/);
    assert.equal(await page.inputValue("#item-format"), "dynamodb");
    // The server's own error for a key of the wrong type.
    await page.click("#new-item");
    await page.fill("#item-json", JSON.stringify({ customer: { N: "1" }, order: { S: "x" } }));
    await page.click("#save-item");
    const error = await page.locator("#editor-out [data-test=error]").innerText();
    assert.match(error, /ValidationException/);
    assert.match(error, /Type mismatch for key/);
    await shot("04-edit-error");
  });

  await run("delete an item", async () => {
    await page.locator("#items tbody tr", { hasText: "o4" }).click();
    await page.click("#delete-item");
    await page.waitForFunction(() => ![...document.querySelectorAll("#items tbody tr")].some((r) => r.innerText.includes("o4")));
    const gone = await api("GetItem", { TableName: "Orders", Key: { customer: { S: "c1" }, order: { S: "o4" } } });
    assert.equal(gone.Item, undefined);
  });

  await run("copy an item as a CLI snippet", async () => {
    await page.locator("#items tbody tr", { hasText: "o1" }).click();
    await page.getByRole("button", { name: "Copy as CLI" }).click();
    const snippet = await page.locator("[data-test=snippet]").innerText();
    assert.match(snippet, /aws dynamodb put-item --endpoint-url http:\/\/127\.0\.0\.1:\d+ --region us-east-1/);
    assert.match(snippet, /"customer":\{"S":"c1"\}/);
  });

  await run("a Query from the builder: results and ConsumedCapacity", async () => {
    const builder = page.locator("#builder");
    await builder.locator("[name=index]").selectOption("byStatus");
    await builder.locator("[name=mode]").selectOption("Query");
    await builder.locator("[name=pk]").fill("OPEN");
    await builder.locator("[name=sk-op]").selectOption(">=");
    await builder.locator("[name=sk]").fill("20");
    await builder.locator("[name=order]").selectOption("false");
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#result-count")?.textContent === "2 items");
    const rows = await page.locator("#items tbody tr").allInnerTexts();
    assert.equal(rows.length, 2);
    assert.match(rows[0], /99\.5/);  // descending by total
    assert.match(rows[1], /26/);
    const request = await page.locator("#results [data-test=request]").innerText();
    assert.match(request, /^Query /);
    assert.match(request, /"IndexName": "byStatus"/);
    assert.match(request, /"KeyConditionExpression": "#pk = :pk AND #sk >= :sk"/);
    assert.match(request, /"ScanIndexForward": false/);
    const units = Number(await page.locator("#consumed").getAttribute("data-units"));
    assert.equal(units, 0.5);  // two small items from a GSI: one eventually consistent read unit, halved
    const capacity = JSON.parse(await page.locator("#results [data-test=capacity]").innerText());
    assert.equal(capacity.ConsumedCapacity.GlobalSecondaryIndexes.byStatus.CapacityUnits, 0.5);
    await shot("05-query");
    // The first screen of a laptop, as the README shows it (docs/console-query.png).
    await page.setViewportSize({ width: 1280, height: 1100 });
    await page.screenshot({ path: path.join(OUTPUT_DIR, "05-query-first-screen.png") });
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  await run("a Query on a multi-attribute GSI from the builder", async () => {
    for (const [id, round, match] of [["a", 1, "m1"], ["b", 2, "m2"], ["c", 2, "x3"], ["d", 3, "m4"]]) {
      await api("PutItem", { TableName: "Matches", Item: { pk: { S: id }, tournamentId: { S: "winter#2026" },
        region: { S: "na-east" }, round: { N: String(round) }, matchId: { S: match }, Embedding: { L: [{ N: "1" }, { N: "0" }, { N: String(round) }] } } });
    }
    await page.goto(console_(ENDPOINT) + "#/items/Matches");
    const builder = page.locator("#builder");
    await fill(builder, { index: { select: "byBracket" }, mode: { select: "Query" }, pk: "winter#2026", "pk-2": "na-east",
      "sk-op": { select: "=" }, sk: "2", "sk-op-2": { select: "begins_with" }, "sk-2": "m" });
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#result-count")?.textContent === "1 items");
    assert.match((await page.locator("#items tbody tr").allInnerTexts())[0], /^b\t/);
    const request = JSON.parse((await page.locator("#results [data-test=request]").innerText()).replace(/^Query /, ""));
    assert.equal(request.KeyConditionExpression, "#pk = :pk AND #pk_2 = :pk_2 AND #sk = :sk AND begins_with(#sk_2, :sk_2)");
    assert.deepEqual(request.ExpressionAttributeNames, { "#pk": "tournamentId", "#pk_2": "region", "#sk": "round", "#sk_2": "matchId" });
    assert.deepEqual(request.ExpressionAttributeValues[":sk"], { N: "2" });
    // An item read through a KEYS_ONLY index, edited: its other attributes are kept.
    await builder.locator("[name=index]").selectOption("byRegion");
    await builder.locator("[name=pk]").fill("na-east");
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#result-count")?.textContent === "4 items");
    await page.locator("#items tbody tr", { hasText: "m2" }).click();
    const partial = JSON.parse(await page.inputValue("#item-json"));
    assert.deepEqual(Object.keys(partial).sort(), ["matchId", "pk", "region", "round"]);
    await page.fill("#item-json", JSON.stringify({ ...partial, note: { S: "final" } }));
    await page.click("#save-item");
    await page.locator("#saved").waitFor();
    const whole = (await api("GetItem", { TableName: "Matches", Key: { pk: { S: "b" } } })).Item;
    assert.deepEqual(Object.keys(whole).sort(), ["Embedding", "matchId", "note", "pk", "region", "round", "tournamentId"]);
    // The server's rule for a range condition after a sort attribute with none.
    await fill(builder, { index: { select: "byBracket" }, pk: "winter#2026", "pk-2": "na-east",
      "sk-op-2": { select: "begins_with" }, "sk-2": "m" });
    await page.click("#run");
    assert.match(await page.locator("#results [data-test=error]").innerText(),
      /ValidationException: RANGE key attributes round must have equality conditions specified in the query/);
  });

  await run("paging through a Scan", async () => {
    const builder = page.locator("#builder");
    await builder.locator("[name=index]").selectOption("");
    await builder.locator("[name=mode]").selectOption("Scan");
    await builder.locator("[name=limit]").fill("2");
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#result-count")?.textContent === "2 items");
    await page.click("#next-page");
    await page.waitForFunction(() => document.querySelector("[data-test=request]")?.textContent.includes("ExclusiveStartKey"));
    await page.waitForFunction(() => document.querySelector("#result-count")?.textContent === "2 items");
  });

  await run("a load, with a throttled provisioned table", async () => {
    await api("CreateTable", { TableName: "Tiny", BillingMode: "PROVISIONED",
      ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
      AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }], KeySchema: [{ AttributeName: "id", KeyType: "HASH" }] });
    const result = await page.evaluate(async () => {
      const { call } = await import("/dynamod/console/api.js");
      let throttled = 0;
      for (let i = 0; i < 60; i++) {
        await call("PutItem", { TableName: "Orders", Item: { customer: { S: "c" + (i % 3) }, order: { S: "load" + i },
          status: { S: i % 2 ? "OPEN" : "CLOSED" }, total: { N: String(i) }, date: { S: "2026-03-01" } } });
        await call("Query", { TableName: "Orders", KeyConditionExpression: "customer = :c", ExpressionAttributeValues: { ":c": { S: "c1" } } });
        await call("Scan", { TableName: "Orders", FilterExpression: "#t > :t", ExpressionAttributeNames: { "#t": "total" },
          ExpressionAttributeValues: { ":t": { N: "1000" } } });
      }
      // 1 WCU with 300 seconds of burst: 400 writes of 1 KB-plus run past it.
      const big = "x".repeat(2000);
      for (let i = 0; i < 400; i++) {
        try {
          await call("PutItem", { TableName: "Tiny", Item: { id: { S: "k" + (i % 5) }, v: { S: big } } });
        } catch (e) {
          if (e.type === "ProvisionedThroughputExceededException") throttled++;
          else throw e;
        }
      }
      return { throttled };
    });
    assert.ok(result.throttled > 0, "the provisioned table throttled nothing");
  });

  await run("the cost page draws the tables used", async () => {
    await page.goto(console_(ENDPOINT) + "#/cost");
    await page.locator("#charts").waitFor();
    const points = async (table, index) =>
      Number(await page.locator(`#charts .chart-block[data-table="${table}"][data-index="${index}"] svg`).getAttribute("data-points"));
    assert.ok((await points("Orders", "")) > 0, "no points for Orders");
    assert.ok((await points("Orders", "byStatus")) > 0, "no points for the GSI");
    assert.ok((await points("Tiny", "")) > 0, "no points for Tiny");
    const throttledLegend = await page.locator('#charts .chart-block[data-table="Tiny"][data-index=""] .legend').innerText();
    assert.match(throttledLegend, /throttled \([1-9]\d*\)/);
    assert.ok((await page.locator('#charts .chart-block[data-table="Tiny"] rect.throttle').count()) > 0);
    assert.ok((await page.locator('#charts .chart-block[data-table="Orders"][data-index=""] path.write').getAttribute("d")).length > 20);
    const patterns = await page.locator("#patterns tbody").innerText();
    assert.match(patterns, /full-table-scan/);
    assert.match(patterns, /filter-waste/);
    const cost = await page.locator("#cost-table").innerText();
    assert.match(cost, /Orders/);
    assert.match(cost, /byStatus \(global\)/);
    assert.match(cost, /ByEmbedding \(vector\)\s+vector units: [\d.]+ \w?B searched, [\d.]+ \w?B written/);
    const hot = await page.locator("#hot-keys").innerText();
    assert.match(hot, /Tiny\s+k[0-4]/);
    assert.ok((await page.locator("#collections svg").getAttribute("data-points")) > 0);
    assert.match(await page.locator("#collections").innerText(), /c1/);
    await shot("06-cost");
    // The first screen alone, as docs/console-cost.png shows it.
    await page.screenshot({ path: path.join(OUTPUT_DIR, "06-cost-first-screen.png") });
    await page.selectOption("#resolution", "minute");
    await page.waitForFunction(() => document.querySelector("#resolution")?.value === "minute" &&
      Number(document.querySelector('#charts .chart-block[data-table="Orders"] svg')?.dataset.points) > 0);
  });

  await run("a pattern's link prefills the builder", async () => {
    const link = (text) => page.locator("#patterns a", { hasText: text });
    await link("Query byBracket: tournamentId = winter#* AND region = * AND round = * AND begins_with(matchId, …)").click();
    await page.waitForURL(/#\/items\/Matches\?/);
    const builder = page.locator("#builder");
    await page.locator("#pattern-note").waitFor();
    assert.equal(await builder.locator("[name=index]").inputValue(), "byBracket");
    assert.equal(await builder.locator("[name=mode]").inputValue(), "Query");
    assert.equal(await builder.locator("[name=pk]").inputValue(), "winter#");
    assert.equal(await builder.locator("[name=pk-2]").inputValue(), "");
    assert.equal(await builder.locator("[name=sk-op]").inputValue(), "=");
    assert.equal(await builder.locator("[name=sk-op-2]").inputValue(), "begins_with");
    await shot("06b-pattern-in-builder");
    await fill(builder, { pk: "winter#2026", "pk-2": "na-east", sk: "3", "sk-2": "m" });
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#result-count")?.textContent === "1 items");
    // A filtered Scan: the builder says the filter's text is not in the report.
    await page.goto(console_(ENDPOINT) + "#/cost");
    await link("Scan Orders (filter)").click();
    await page.waitForURL(/#\/items\/Orders\?/);
    await page.locator("#pattern-note").waitFor();
    assert.equal(await builder.locator("[name=index]").inputValue(), "");
    assert.equal(await builder.locator("[name=mode]").inputValue(), "Scan");
    assert.match(await page.locator("#pattern-note").innerText(), /used a filter/);
    assert.equal(await builder.locator("[name=filter]").getAttribute("data-pattern-filtered"), "true");
    // A GSI Query with a range condition: its operator comes back.
    await page.goto(console_(ENDPOINT) + "#/cost");
    await link("Query byStatus: status = * AND total >= …").click();
    await page.locator("#pattern-note").waitFor();
    assert.equal(await builder.locator("[name=index]").inputValue(), "byStatus");
    assert.equal(await builder.locator("[name=sk-op]").inputValue(), ">=");
  });

  await run("streams and TTL", async () => {
    await api("DeleteItem", { TableName: "Orders", Key: { customer: { S: "c2" }, order: { S: "load59" } } });
    await page.goto(console_(ENDPOINT) + "#/streams/Orders");
    await page.locator("#stream-records").waitFor();
    const rows = await page.locator("#stream-records tbody tr").allInnerTexts();
    assert.equal(rows.length, 50);  // the latest 50 of 68, newest first
    assert.match(rows[0], /REMOVE\tcustomer=c2, order=load59/);
    assert.match(rows[1], /INSERT\tcustomer=c2, order=load59/);
    await page.locator("#ttl-items").waitFor();
    const ttl = await page.locator("#ttl-items tbody tr").allInnerTexts();
    assert.equal(ttl.length, 3);  // o1..o3 have `expires`; o4 was deleted
    assert.match(ttl[0], /o1/);
    await shot("07-streams");
  });

  await run("dark mode and the keyboard", async () => {
    await page.goto(console_(ENDPOINT) + "#/tables");
    await page.locator("#table-list").waitFor();
    await page.keyboard.press("t");
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    await page.keyboard.press("g");
    await page.keyboard.press("c");
    await page.waitForURL(/#\/cost$/);
    await page.locator("#charts").waitFor();
    await shot("08-cost-dark");
    await page.goto(console_(ENDPOINT) + "#/tables");
    await page.locator("#table-list tr[data-table=Orders]").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/#\/tables\/Orders$/);
  });

  await run("update throughput, add and delete an index, delete a table", async () => {
    await page.goto(console_(ENDPOINT) + "#/tables/Tiny");
    const update = page.locator("#update-throughput");
    await update.locator("[name=rcu]").fill("7");
    await update.getByRole("button", { name: "Save capacity" }).click();
    await page.waitForFunction(() => document.querySelector("#table-overview")?.innerText.includes("7 RCU"));
    const add = page.locator("#add-index");
    await add.locator("[name=index-name]").fill("byV");
    await add.locator("[name=index-pk-name]").fill("v");
    await add.getByRole("button", { name: "Add index" }).click();
    await page.locator("#index-list tr[data-index=byV]").waitFor();
    // The backfill runs in the background; the index is deleted once it is ACTIVE.
    await until(async () => (await describe("Tiny")).GlobalSecondaryIndexes?.[0]?.IndexStatus === "ACTIVE");
    await page.reload();
    await page.locator("#index-list tr[data-index=byV]").getByRole("button", { name: "Delete" }).click();
    await until(async () => !(await describe("Tiny")).GlobalSecondaryIndexes);
    await until(async () => (await describe("Tiny")).TableStatus === "ACTIVE");
    // A vector index on a provisioned table: the server's refusal.
    const vector = page.locator("#add-vector-index");
    await fill(vector, { "vector-name": "vix", "vector-attribute": "emb", "vector-dimensions": "4" });
    await vector.getByRole("button", { name: "Add vector index" }).click();
    assert.match(await page.locator("#update-out [data-test=error]").innerText(),
      /ValidationException: One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables/);
    await page.locator("#delete-table [name=confirm]").fill("wrong");
    await page.locator("#delete-table").getByRole("button", { name: "Delete table" }).click();
    assert.match(await page.locator("[data-test=error]").innerText(), /type Tiny to confirm/);
    await page.locator("#delete-table [name=confirm]").fill("Tiny");
    await page.locator("#delete-table").getByRole("button", { name: "Delete table" }).click();
    await page.waitForURL(/#\/tables$/);
    const tables = await api("ListTables", {});
    assert.deepEqual(tables.TableNames, ["Matches", "Orders"]);
  });

  await run("--credentials: sign in, then every request is signed in the browser", async () => {
    const strict = await context.newPage();
    strict.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await strict.goto(console_(STRICT_ENDPOINT));
    await strict.locator("#signin").waitFor();
    // The reports with key values refuse unsigned requests.
    const unsigned = await strict.request.get(STRICT_ENDPOINT + "/dynamod/hot-keys");
    assert.equal(unsigned.status(), 400);
    await strict.fill("[name=accessKeyId]", "CONSOLEKEY");
    await strict.fill("[name=secretAccessKey]", "wrong-secret");
    await strict.click("#signin button[type=submit]");
    await strict.locator("#signin [data-test=error]").waitFor();
    assert.match(await strict.locator("#signin [data-test=error]").innerText(), /InvalidSignatureException|UnrecognizedClient/);
    await strict.fill("[name=accessKeyId]", "CONSOLEKEY");
    await strict.fill("[name=secretAccessKey]", "console-secret");
    await strict.click("#signin button[type=submit]");
    await strict.getByText("No tables in this region yet.").waitFor();
    await strict.evaluate(async () => (await import("/dynamod/console/api.js")).call("CreateTable", {
      TableName: "Signed", BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }], KeySchema: [{ AttributeName: "id", KeyType: "HASH" }] }));
    await strict.goto(console_(STRICT_ENDPOINT) + "#/cost");
    await strict.locator('#charts .panel[data-table="Signed"]').waitFor();
    await strict.screenshot({ path: path.join(OUTPUT_DIR, "09-signed-cost.png"), fullPage: true });
    await strict.close();
  });

  await run("--console off removes it", async () => {
    const response = await page.request.get(console_(OFF_ENDPOINT));
    assert.equal(response.status(), 404);
  });

  assert.deepEqual(problems, [], "errors in the page");
  console.log("console test: all passed; screenshots in " + OUTPUT_DIR);
} catch (e) {
  console.error(`FAIL ${step}: ${e.stack || e}`);
  await shot("failure").catch(() => {});
  process.exitCode = 1;
} finally {
  await browser.close();
}
