// The test-suite companion as the JavaScript SDK v3 sees it (docs/testing-companion.md):
// injected errors with the SDK's standard retries counted, a transaction conflict's
// CancellationReasons, a partial batch, and a snapshot restored between two "tests".
import assert from "node:assert/strict";
import {
  BatchWriteItemCommand, CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand,
  ScanCommand, TransactWriteItemsCommand, TransactionCanceledException,
} from "@aws-sdk/client-dynamodb";

const endpoint = process.env.ENDPOINT;
const credentials = { accessKeyId: "js", secretAccessKey: "js" };
const retrying = new DynamoDBClient({ endpoint, region: "us-east-1", credentials, maxAttempts: 3 });
const once = new DynamoDBClient({ endpoint, region: "us-east-1", credentials, maxAttempts: 1 });

async function control(method, path, body) {
  const response = await fetch(`${endpoint}/dynamod/${path}`, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.equal(response.status, 200, `${method} /dynamod/${path}: ${text}`);
  return JSON.parse(text);
}

const TableName = "JsCompanion";
await once.send(new CreateTableCommand({
  TableName, BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
}));
await once.send(new PutItemCommand({ TableName, Item: { pk: { S: "a" } } }));

// Two throttles: the standard retry strategy's three attempts get through.
const { id } = await control("POST", "faults", { operations: ["GetItem"], tables: [TableName],
                                                 error: "ThrottlingException", times: 2 });
const got = await retrying.send(new GetItemCommand({ TableName, Key: { pk: { S: "a" } } }));
assert.equal(got.Item.pk.S, "a");
assert.equal(got.$metadata.attempts, 3);
assert.equal((await control("GET", "faults")).rules.find((r) => r.id === id).fired, 2);

// 500 and 503 are retried too; the error reaches the caller once the attempts run out.
await control("POST", "faults", { operations: ["PutItem"], error: "ServiceUnavailable", times: 3 });
await assert.rejects(retrying.send(new PutItemCommand({ TableName, Item: { pk: { S: "b" } } })),
                     (e) => e.name === "ServiceUnavailable" && e.$metadata.httpStatusCode === 503 &&
                            e.$metadata.attempts === 3);
await control("DELETE", "faults");

// A transaction conflict, as the service reports it.
await control("POST", "faults", { operations: ["TransactWriteItems"], error: "TransactionCanceledException",
                                  conflict_item: 1, times: 1 });
await assert.rejects(
  once.send(new TransactWriteItemsCommand({ TransactItems: [
    { Put: { TableName, Item: { pk: { S: "t0" } } } }, { Put: { TableName, Item: { pk: { S: "t1" } } } }] })),
  (e) => e instanceof TransactionCanceledException &&
         JSON.stringify(e.CancellationReasons) ===
           JSON.stringify([{ Code: "None" }, { Code: "TransactionConflict", Message: "Transaction is ongoing for the item" }]));

// A partial batch.
await control("POST", "faults", { operations: ["BatchWriteItem"], unprocessed: 1, times: 1 });
const requests = ["c", "d"].map((pk) => ({ PutRequest: { Item: { pk: { S: pk } } } }));
const batch = await once.send(new BatchWriteItemCommand({ RequestItems: { [TableName]: requests } }));
assert.deepEqual(batch.UnprocessedItems, { [TableName]: [requests[1]] });

// Seed, snapshot, restore before each "test".
await control("POST", `snapshots/seeded`);
const keys = async () => (await once.send(new ScanCommand({ TableName, ConsistentRead: true }))).Items
  .map((i) => i.pk.S).sort();
const seeded = await keys();
await once.send(new PutItemCommand({ TableName, Item: { pk: { S: "dirty" } } }));
await control("POST", "snapshots/seeded/restore");
assert.deepEqual(await keys(), seeded);
await control("POST", "reset");
console.log("js companion test: passed");
