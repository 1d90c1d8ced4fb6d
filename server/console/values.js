// DynamoDB JSON <-> plain JSON. Plain JSON infers types (number -> N, string
// -> S, boolean -> BOOL, null -> NULL, array -> L, object -> M); sets and
// binary have no plain form, so an item holding them is edited as DynamoDB JSON.

export function toPlain(value) {
  const [type, v] = Object.entries(value)[0];
  switch (type) {
    case "S": return v;
    case "N": {
      const n = Number(v);
      // Numbers JavaScript cannot hold exactly stay as their text.
      return String(n) === v || (Number.isSafeInteger(n) && BigInt(v.replace(/\.0*$/, "")) === BigInt(n)) ? n : v;
    }
    case "BOOL": return v;
    case "NULL": return null;
    case "L": return v.map(toPlain);
    case "M": return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toPlain(x)]));
    default: throw new Error(`a ${type} value has no plain JSON form; edit this item as DynamoDB JSON`);
  }
}

export function itemToPlain(item) {
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, toPlain(v)]));
}

export function fromPlain(v) {
  if (v === null) return { NULL: true };
  if (typeof v === "string") return { S: v };
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`${v} is not a number DynamoDB can store`);
    return { N: String(v) };
  }
  if (typeof v === "boolean") return { BOOL: v };
  if (Array.isArray(v)) return { L: v.map(fromPlain) };
  if (typeof v === "object") return { M: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromPlain(x)])) };
  throw new Error(`cannot store ${typeof v}`);
}

export function itemFromPlain(obj) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) throw new Error("an item is a JSON object");
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fromPlain(v)]));
}

// A value as one short line for a table cell.
export function preview(value) {
  const [type, v] = Object.entries(value)[0];
  switch (type) {
    case "S": case "N": return String(v);
    case "BOOL": return String(v);
    case "NULL": return "null";
    case "B": return `<binary ${v.length}>`;
    case "SS": case "NS": return `{${v.join(", ")}}`;
    case "BS": return `{${v.length} binary}`;
    default: return JSON.stringify(toPlainLoose(value));
  }
}

function toPlainLoose(value) {
  try { return toPlain(value); } catch { return value; }
}

// A typed value from what a user typed into a key field.
export function typed(type, text) {
  return { [type]: String(text) };
}

export function keyOf(item, keySchema) {
  return Object.fromEntries(keySchema.map((k) => [k.AttributeName, item[k.AttributeName]]));
}

// Copy-paste snippets for one item.
export function cliSnippet(table, item, region) {
  return `aws dynamodb put-item --endpoint-url ${location.origin} --region ${region} \\\n` +
    `  --table-name ${shellQuote(table)} \\\n  --item ${shellQuote(JSON.stringify(item))}`;
}

export function sdkSnippet(table, item) {
  return `import { DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";\n\n` +
    `const client = new DynamoDBClient({ endpoint: "${location.origin}" });\n` +
    `await client.send(new PutItemCommand({\n  TableName: ${JSON.stringify(table)},\n` +
    `  Item: ${JSON.stringify(item, null, 2).replace(/\n/g, "\n  ")},\n}));\n`;
}

function shellQuote(s) {
  return "'" + s.replace(/'/g, "'\\''") + "'";
}
