// The fields that declare an index, shared by the create form and a table's
// page: a global index's key (1 to 4 partition-key attributes, then 0 to 4
// sort-key attributes, each with its own type: docs/multi-attribute-keys.md),
// a local index's one sort key, and a vector index (docs/vector-search.md).
// Each reads into the request members an SDK sends plus the attribute
// definitions they need. Limits are left to the server (a fifth partition-key
// attribute can be added here), so its own message is what the user sees.
import { h, field, select } from "./dom.js";

export const KEY_TYPES = [["S", "String"], ["N", "Number"], ["B", "Binary"]];

// One key attribute: its name and type. `prefix` names the inputs (prefix-name, prefix-type).
export function keyAttribute(prefix, label, optional) {
  const name = h("input", { name: prefix + "-name", spellcheck: "false", required: !optional, placeholder: optional ? "(none)" : "" });
  const type = select(KEY_TYPES, "S", { name: prefix + "-type" });
  return { name, type, nodes: [field(label, name), field("Type", type)],
    read: () => (name.value.trim() ? { name: name.value.trim(), type: type.value } : null) };
}

// A list of typed attributes in order (a key role's, or a vector index's
// inline filters); a button adds another. Only the first of a partition key
// is required; blank ones are left out.
function attributeList(prefix, label, addLabel, firstRequired, data) {
  const attributes = [];
  const add = h("button", { type: "button", class: "small", dataset: { add: data } }, addLabel);
  const box = h("div", { class: "row key-attributes", dataset: { role: data } }, add);
  const more = () => {
    const n = attributes.length + 1;
    const a = keyAttribute(prefix, n === 1 ? label : `${label} ${n}`, !(firstRequired && n === 1));
    attributes.push(a);
    add.before(...a.nodes);
    return a;
  };
  add.addEventListener("click", () => more().name.focus());
  more();
  return { node: box, read: () => attributes.map((a) => a.read()).filter(Boolean) };
}

const keyAttributes = (prefix, role) => role === "HASH"
  ? attributeList(prefix, "Partition key", "+ Partition attribute", true, role)
  : attributeList(prefix, "Sort key", "+ Sort attribute", false, role);

export function projectionFields() {
  const type = select(["ALL", "KEYS_ONLY", "INCLUDE"], "ALL", { name: "projection" });
  const nonKey = h("input", { name: "non-key", placeholder: "a, b", spellcheck: "false" });
  return { nodes: [field("Projection", type), field("Non-key attributes", nonKey)],
    read: () => {
      const p = { ProjectionType: type.value };
      if (p.ProjectionType === "INCLUDE") p.NonKeyAttributes = nonKey.value.split(",").map((s) => s.trim()).filter(Boolean);
      return p;
    } };
}

// A global index: read() gives { index (IndexName, KeySchema, Projection), definitions ([name, type]) }.
export function globalIndexFields() {
  const name = h("input", { name: "index-name", spellcheck: "false", required: true });
  const partition = keyAttributes("index-pk", "HASH");
  const sort = keyAttributes("index-sk", "RANGE");
  const projection = projectionFields();
  return {
    nodes: [h("div", { class: "row" }, field("GSI name", name), projection.nodes), partition.node, sort.node],
    read() {
      const hash = partition.read(), range = sort.read();
      return {
        index: { IndexName: name.value.trim(),
          KeySchema: [...hash.map((a) => ({ AttributeName: a.name, KeyType: "HASH" })),
            ...range.map((a) => ({ AttributeName: a.name, KeyType: "RANGE" }))],
          Projection: projection.read() },
        definitions: [...hash, ...range].map((a) => [a.name, a.type]),
      };
    },
  };
}

// A vector index: its vector attribute (a list of numbers, so not in the
// attribute definitions), dimensions, distance function, its SearchSchema (an
// optional HASH attribute and any INLINE_FILTER ones, each defined) and its
// projection.
export function vectorIndexFields() {
  const name = h("input", { name: "vector-name", spellcheck: "false", required: true });
  const attribute = h("input", { name: "vector-attribute", spellcheck: "false", required: true });
  const dimensions = h("input", { name: "vector-dimensions", type: "number", min: 1, required: true, size: 6 });
  const distance = select(["COSINE", "EUCLIDEAN", "DOT_PRODUCT"], "COSINE", { name: "vector-distance" });
  const hash = keyAttribute("vector-hash", "Search HASH attribute", true);
  const filters = attributeList("vector-filter", "Inline filter", "+ Inline filter", false, "INLINE_FILTER");
  const projection = projectionFields();
  return {
    nodes: [h("div", { class: "row" }, field("Vector index name", name), field("Vector attribute", attribute),
      field("Dimensions", dimensions), field("Distance", distance), projection.nodes),
    h("div", { class: "row" }, hash.nodes), filters.node],
    read() {
      const index = { IndexName: name.value.trim(), VectorAttribute: { AttributeName: attribute.value.trim() } };
      if (dimensions.value !== "") index.Dimensions = Number(dimensions.value);
      index.DistanceFunction = distance.value;
      const schema = [...[hash.read()].filter(Boolean).map((a) => ({ ...a, role: "HASH" })),
        ...filters.read().map((a) => ({ ...a, role: "INLINE_FILTER" }))];
      if (schema.length) index.SearchSchema = schema.map((a) => ({ AttributeName: a.name, SearchSchemaElementType: a.role }));
      index.Projection = projection.read();
      return { index, definitions: schema.map((a) => [a.name, a.type]) };
    },
  };
}

// AttributeDefinitions from [name, type] pairs, each name once (the first type given).
export function attributeDefinitions(pairs) {
  const seen = new Map();
  for (const [name, type] of pairs) if (name && !seen.has(name)) seen.set(name, type);
  return [...seen].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
}
