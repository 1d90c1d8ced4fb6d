// AWS SDK for JavaScript v3 smoke test: the low-level client and the DocumentClient
// (lib-dynamodb) against the dynamod at $ENDPOINT.
import assert from "node:assert/strict";
import {
  CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient, GetItemCommand,
  ListTablesCommand, PutItemCommand, SearchVectorsCommand, waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";

const client = new DynamoDBClient({
  endpoint: process.env.ENDPOINT,
  region: "us-east-1",
  credentials: { accessKeyId: "smoke", secretAccessKey: "smoke" },
  maxAttempts: 1,
});
const doc = DynamoDBDocumentClient.from(client);
const TableName = "JsSmoke";

await client.send(new CreateTableCommand({
  TableName,
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }, { AttributeName: "sk", AttributeType: "N" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }],
  BillingMode: "PAY_PER_REQUEST",
}));
await waitUntilTableExists({ client, minDelay: 1, maxWaitTime: 20 }, { TableName });

const item = { pk: "user#1", sk: 7, name: "Ada", tags: new Set(["a", "b"]), nested: { list: [1, "two", null, true] } };
await doc.send(new PutCommand({ TableName, Item: item }));
const { Item } = await doc.send(new GetCommand({ TableName, Key: { pk: "user#1", sk: 7 }, ConsistentRead: true }));
assert.deepEqual(Item, item);

const raw = await client.send(new GetItemCommand({ TableName, Key: { pk: { S: "user#1" }, sk: { N: "7" } },
                                                   ReturnConsumedCapacity: "TOTAL" }));
assert.equal(raw.Item.name.S, "Ada");
assert.equal(raw.ConsumedCapacity.CapacityUnits, 0.5);

const { Table } = await client.send(new DescribeTableCommand({ TableName }));
assert.equal(Table.ItemCount, 1);
assert.ok((await client.send(new ListTablesCommand({}))).TableNames.includes(TableName));

const old = await doc.send(new DeleteCommand({ TableName, Key: { pk: "user#1", sk: 7 }, ReturnValues: "ALL_OLD" }));
assert.deepEqual(old.Attributes, item);

await assert.rejects(doc.send(new GetCommand({ TableName, Key: { pk: "user#1" } })),
                     (e) => e.name === "ValidationException" &&
                            e.message === "The provided key element does not match the schema");
await client.send(new DeleteTableCommand({ TableName }));

// Vector search: a table with a vector index, items with embeddings, SearchVectorsCommand.
const VectorTable = "JsSmokeVectors";
const vec = (...xs) => xs.map((x) => ({ N: String(x) }));
const created = await client.send(new CreateTableCommand({
  TableName: VectorTable,
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }, { AttributeName: "cat", AttributeType: "S" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
  BillingMode: "PAY_PER_REQUEST",
  VectorIndexes: [{
    IndexName: "ByEmbedding", VectorAttribute: { AttributeName: "emb" }, Dimensions: 3, DistanceFunction: "COSINE",
    SearchSchema: [{ AttributeName: "cat", SearchSchemaElementType: "HASH" }], Projection: { ProjectionType: "ALL" },
  }],
}));
assert.equal(created.TableDescription.VectorIndexes[0].Dimensions, 3);
await waitUntilTableExists({ client, minDelay: 1, maxWaitTime: 20 }, { TableName: VectorTable });
for (const [pk, emb] of [["a", [1, 0, 0]], ["b", [0, 1, 0]], ["c", [1, 1, 0]]]) {
  await client.send(new PutItemCommand({ TableName: VectorTable,
                                         Item: { pk: { S: pk }, cat: { S: "x" }, emb: { L: vec(...emb) } } }));
}
const found = await client.send(new SearchVectorsCommand({
  TableName: VectorTable, IndexName: "ByEmbedding", SearchVector: vec(1, 0.1, 0), TopK: 2,
  SearchConditionExpression: "cat = :c", ExpressionAttributeValues: { ":c": { S: "x" } },
  ReturnConsumedCapacity: "TOTAL",
}));
assert.deepEqual(found.SearchResults.map((r) => r.Item.pk.S), ["a", "c"]);
assert.ok(found.SearchResults[0].Score < found.SearchResults[1].Score);
assert.equal(found.SearchResults[0].Item.emb, undefined);
assert.ok(found.ConsumedCapacity.VectorSearchRequestBytes > 0);
await assert.rejects(client.send(new SearchVectorsCommand({
  TableName: VectorTable, IndexName: "ByEmbedding", SearchVector: vec(1, 0, 0), TopK: 101,
  SearchConditionExpression: "cat = :c", ExpressionAttributeValues: { ":c": { S: "x" } },
})), (e) => e.name === "ValidationException" &&
  e.message === "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive");
await client.send(new DeleteTableCommand({ TableName: VectorTable }));
console.log("js smoke test: passed");
