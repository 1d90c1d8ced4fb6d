// An access pattern of the report (GET /dynamod/patterns) read back into what
// the Query / Scan builder needs. The report gives the table, the index, the
// operation and the shape (metering/access_pattern.h):
//   Query byStatus: status = * AND total >= …
//   Query GSI1: GSI1PK = STATUS#* AND begins_with(GSI1SK, …) (filter)
//   GetItem Orders: pk = USER#* AND sk = ORDER#*
//   Scan Orders (filter)
// A value is reduced to its prefix up to a separator ("USER#*") or to "*", and
// a filter only to "(filter)": the builder gets the prefix and knows that a
// filter was used, never the filter's text (the report does not keep it).

const ITEM_OPERATIONS = ["GetItem", "PutItem", "UpdateItem", "DeleteItem"];
const ELIDED = "…";

// { operation ("Query" | "Scan"), index, conditions: [{ name, op, value }], filtered, shape }
// for the builder, or null when the pattern is none of its (SearchVectors).
export function builderPattern(p) {
  const target = p.index || p.table;
  const head = `${p.operation} ${target}`;
  if (!p.pattern.startsWith(head)) return null;
  let rest = p.pattern.slice(head.length);
  const filtered = rest.endsWith(" (filter)");
  if (filtered) rest = rest.slice(0, -" (filter)".length);
  let operation;
  if (p.operation === "Query" || ITEM_OPERATIONS.includes(p.operation)) operation = "Query";
  else if (p.operation === "Scan") operation = "Scan";
  else return null;
  const conditions = rest.startsWith(": ") ? parseConditions(rest.slice(2)) : [];
  return { operation, index: p.index || "", conditions, filtered, shape: p.pattern };
}

// "a = X#* AND b BETWEEN … AND … AND begins_with(c, …)" as [{ name, op, value }];
// a value is the prefix the report kept ("" when it kept none).
function parseConditions(text) {
  const terms = text.split(" AND ");
  const out = [];
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i];
    const begins = /^begins_with\((.+), …\)$/.exec(term);
    const between = new RegExp(`^(.+) BETWEEN ${ELIDED}$`).exec(term);
    const compare = /^(.+) (<=|>=|<|>|=) (.+)$/.exec(term);
    if (begins) {
      out.push({ name: begins[1], op: "begins_with", value: "" });
    } else if (between && terms[i + 1] === ELIDED) {
      out.push({ name: between[1], op: "BETWEEN", value: "" });
      i++;
    } else if (compare) {
      const value = compare[3] === ELIDED || compare[3] === "*" ? "" : compare[3].replace(/\*$/, "");
      out.push({ name: compare[1], op: compare[2], value });
    }
  }
  return out;
}

// The builder's link for a pattern: the table's items page with the pattern in the query.
export function patternLink(p) {
  const params = new URLSearchParams({ operation: p.operation, pattern: p.pattern });
  if (p.index) params.set("index", p.index);
  return "#/items/" + encodeURIComponent(p.table) + "?" + params;
}

export function patternFromParams(table, params) {
  if (!params.get("pattern")) return null;
  return builderPattern({ table, index: params.get("index") || "", operation: params.get("operation") || "",
    pattern: params.get("pattern") });
}
