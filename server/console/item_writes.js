// The request that saves the editor's item. An item read from the table is
// saved with an UpdateItem of what changed: SET of the top-level attributes
// added or changed, REMOVE of those removed, on condition that the item
// still exists (so one deleted meanwhile is not written again). A new item,
// or one whose key was changed, is a PutItem on condition that no item has
// its key (so it never overwrites one). Nothing changed: no request (null).
import { keyOf } from "./values.js";

export function saveRequest(table, keySchema, before, after) {
  const partition = keySchema.find((k) => k.KeyType === "HASH").AttributeName;
  const common = { TableName: table, ReturnConsumedCapacity: "INDEXES" };
  const keyNames = keySchema.map((k) => k.AttributeName);
  if (!before || keyNames.some((n) => !equal(before[n], after[n]))) {
    return { operation: "PutItem", request: { ...common, Item: after,
      ConditionExpression: "attribute_not_exists(#key)", ExpressionAttributeNames: { "#key": partition } } };
  }
  const names = {}, values = {}, set = [], remove = [];
  const placeholder = (name) => {
    const p = "#a" + Object.keys(names).length;
    names[p] = name;
    return p;
  };
  for (const [name, value] of Object.entries(after)) {
    if (keyNames.includes(name) || (name in before && equal(before[name], value))) continue;
    const v = ":v" + Object.keys(values).length;
    values[v] = value;
    set.push(`${placeholder(name)} = ${v}`);
  }
  for (const name of Object.keys(before)) if (!(name in after)) remove.push(placeholder(name));
  if (set.length === 0 && remove.length === 0) return null;
  names["#key"] = partition;
  const request = { ...common, Key: keyOf(after, keySchema),
    UpdateExpression: [set.length ? "SET " + set.join(", ") : "", remove.length ? "REMOVE " + remove.join(", ") : ""].filter(Boolean).join(" "),
    ConditionExpression: "attribute_exists(#key)", ExpressionAttributeNames: names, ReturnValues: "ALL_NEW" };
  if (set.length) request.ExpressionAttributeValues = values;
  return { operation: "UpdateItem", request };
}

// Two values in DynamoDB JSON are the same value: a map's members in any
// order, a set's elements in any order; numbers compare as their text.
export function equal(a, b) {
  if (a === undefined || b === undefined) return a === b;
  const [ta, va] = Object.entries(a)[0] ?? [];
  const [tb, vb] = Object.entries(b)[0] ?? [];
  if (ta !== tb) return false;
  switch (ta) {
    case "L": return va.length === vb.length && va.every((x, i) => equal(x, vb[i]));
    case "M": {
      const ka = Object.keys(va), kb = Object.keys(vb);
      return ka.length === kb.length && ka.every((k) => equal(va[k], vb[k]));
    }
    case "SS": case "NS": case "BS": {
      const sa = [...va].sort(), sb = [...vb].sort();
      return sa.length === sb.length && sa.every((x, i) => x === sb[i]);
    }
    default: return va === vb;
  }
}
