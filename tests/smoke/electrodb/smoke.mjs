// ElectroDB 3.x smoke test: an entity whose index (type "composite") is a multi-attribute GSI
// key of three partition and two sort attributes; items written and queried through ElectroDB's
// own query builder (equalities, a range on the sort attributes, ordering, paging).
import assert from "node:assert/strict";
import {
  CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient, waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import { Entity } from "electrodb";

const client = new DynamoDBClient({
  endpoint: process.env.ENDPOINT,
  region: "us-east-1",
  credentials: { accessKeyId: "smoke", secretAccessKey: "smoke" },
  maxAttempts: 1,
});
const table = "ElectroSmoke";

const HASH = (AttributeName) => ({ AttributeName, KeyType: "HASH" });
const RANGE = (AttributeName) => ({ AttributeName, KeyType: "RANGE" });
await client.send(new CreateTableCommand({
  TableName: table,
  BillingMode: "PAY_PER_REQUEST",
  KeySchema: [HASH("pk"), RANGE("sk")],
  AttributeDefinitions: [
    { AttributeName: "pk", AttributeType: "S" }, { AttributeName: "sk", AttributeType: "S" },
    { AttributeName: "tournamentId", AttributeType: "S" }, { AttributeName: "region", AttributeType: "S" },
    { AttributeName: "season", AttributeType: "N" }, { AttributeName: "round", AttributeType: "N" },
    { AttributeName: "matchId", AttributeType: "S" },
  ],
  GlobalSecondaryIndexes: [{
    IndexName: "byBracket",
    KeySchema: [HASH("tournamentId"), HASH("region"), HASH("season"), RANGE("round"), RANGE("matchId")],
    Projection: { ProjectionType: "ALL" },
  }],
}));
await waitUntilTableExists({ client, minDelay: 1, maxWaitTime: 20 }, { TableName: table });
const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
assert.deepEqual(Table.GlobalSecondaryIndexes[0].KeySchema.map((k) => `${k.AttributeName}:${k.KeyType}`),
                 ["tournamentId:HASH", "region:HASH", "season:HASH", "round:RANGE", "matchId:RANGE"]);

const Match = new Entity({
  model: { entity: "match", version: "1", service: "esports" },
  attributes: {
    matchId: { type: "string", required: true },
    tournamentId: { type: "string", required: true },
    region: { type: "string", required: true },
    season: { type: "number", required: true },
    round: { type: "number", required: true },
    winner: { type: "string" },
  },
  indexes: {
    match: { pk: { field: "pk", composite: ["matchId"] }, sk: { field: "sk", composite: [] } },
    bracket: {
      index: "byBracket",
      type: "composite",
      pk: { composite: ["tournamentId", "region", "season"] },
      sk: { composite: ["round", "matchId"] },
    },
  },
}, { client, table });

// Rounds 1..4, three matches each, in one bracket; one match in another region.
const bracket = { tournamentId: "winter", region: "na-east", season: 2025 };
const written = [];
for (let round = 4; round >= 1; round--) {
  for (const m of ["c", "a", "b"]) written.push({ ...bracket, round, matchId: `r${round}${m}`, winner: `team-${m}` });
}
for (const match of written) await Match.put(match).go();
await Match.put({ ...bracket, region: "eu-west", round: 1, matchId: "eu1" }).go();

const ids = (data) => data.map((m) => m.matchId);
const all = await Match.query.bracket(bracket).go({ pages: "all" });
assert.deepEqual(ids(all.data), ["r1a", "r1b", "r1c", "r2a", "r2b", "r2c", "r3a", "r3b", "r3c", "r4a", "r4b", "r4c"]);

const round2 = await Match.query.bracket({ ...bracket, round: 2 }).go();
assert.deepEqual(ids(round2.data), ["r2a", "r2b", "r2c"]);

const later = await Match.query.bracket(bracket).gte({ round: 3 }).go({ order: "desc" });
assert.deepEqual(ids(later.data), ["r4c", "r4b", "r4a", "r3c", "r3b", "r3a"]);

const between = await Match.query.bracket(bracket).between({ round: 2 }, { round: 3 }).go();
assert.deepEqual(ids(between.data), ["r2a", "r2b", "r2c", "r3a", "r3b", "r3c"]);

const one = await Match.query.bracket({ ...bracket, round: 3, matchId: "r3b" }).go();
assert.deepEqual(one.data, [written.find((m) => m.matchId === "r3b")]);

// Paging with ElectroDB's cursor, two items a page.
const seen = [];
let cursor = null;
do {
  const page = await Match.query.bracket(bracket).go({ limit: 2, cursor });
  seen.push(...ids(page.data));
  cursor = page.cursor;
} while (cursor);
assert.deepEqual(seen, ids(all.data));

const eu = await Match.query.bracket({ ...bracket, region: "eu-west" }).go();
assert.deepEqual(ids(eu.data), ["eu1"]);

// Moving a match to another round moves its index entry.
await Match.patch({ matchId: "r1a" }).set({ round: 5 }).go();
const moved = await Match.query.bracket(bracket).gt({ round: 4 }).go();
assert.deepEqual(ids(moved.data), ["r1a"]);

await client.send(new DeleteTableCommand({ TableName: table }));
console.log("electrodb smoke: ok");
