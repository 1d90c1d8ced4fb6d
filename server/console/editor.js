// The item editor: an item in DynamoDB JSON or plain JSON, saved with the
// smallest write that makes it so (item_writes.js: UpdateItem of what
// changed, PutItem of a new item), deleted, or copied as a snippet. Each save
// shows the request sent and its ConsumedCapacity, as the builder does.
import { call, session } from "./api.js";
import { h, clear, select, errorBox, formatNumber, copyText } from "./dom.js";
import { itemToPlain, itemFromPlain, keyOf, cliSnippet, sdkSnippet } from "./values.js";
import { saveRequest } from "./item_writes.js";

// `item` is the item as read (null: a new one); `saved` what the last save sent and got, and the format shown.
// `changed()` is called after a write, so the page can read its results again.
export function renderEditor(container, table, item, changed, saved) {
  const t = table.TableName;
  const attributeType = (n) => table.AttributeDefinitions.find((a) => a.AttributeName === n)?.AttributeType || "S";
  let format = saved?.format || "dynamodb";
  const text = h("textarea", { id: "item-json", spellcheck: "false", "aria-label": "Item" });
  const out = h("div", { id: "editor-out" });
  const template = () => Object.fromEntries(table.KeySchema.map((k) => [k.AttributeName, { [attributeType(k.AttributeName)]: "" }]));
  const current = () => (format === "plain" ? itemFromPlain(JSON.parse(text.value)) : JSON.parse(text.value));
  const write = (value) => {
    try {
      text.value = JSON.stringify(format === "plain" ? itemToPlain(value) : value, null, 2);
    } catch (e) {
      format = "dynamodb";
      formatSelect.value = "dynamodb";
      text.value = JSON.stringify(value, null, 2);
      clear(out, errorBox({ type: "Shown as DynamoDB JSON", message: e.message }));
    }
  };
  const formatSelect = select([["dynamodb", "DynamoDB JSON"], ["plain", "Plain JSON (types inferred)"]], format, {
    id: "item-format", onchange: () => {
      try {
        const value = current();
        format = formatSelect.value;
        write(value);
      } catch (e) {
        formatSelect.value = format;
        clear(out, errorBox({ type: "Not valid JSON", message: e.message }));
      }
    } });
  const attempt = async (fn) => {
    clear(out);
    try { await fn(); } catch (e) { out.append(errorBox(e)); }
  };
  const save = () => attempt(async () => {
    const plan = saveRequest(t, table.KeySchema, item, current());
    if (!plan) {
      out.append(h("p", { class: "muted", id: "unchanged" }, "Nothing changed: no request sent."));
      return;
    }
    out.append(sent(plan));
    let answer;
    try {
      answer = await call(plan.operation, plan.request);
    } catch (e) {
      if (e.type === "ConditionalCheckFailedException") {
        e.message += plan.operation === "UpdateItem" ? " (the item no longer exists: it was deleted since it was read, and is not written again)"
          : " (an item with this key exists: open it to edit it)";
      }
      throw e;
    }
    renderEditor(container, table, plan.operation === "UpdateItem" ? answer.Attributes : plan.request.Item, changed,
      { plan, answer, format });
    changed();
  });
  const remove = () => attempt(async () => {
    const key = keyOf(current(), table.KeySchema);
    if (!confirm("Delete this item?\n" + JSON.stringify(key))) return;
    await call("DeleteItem", { TableName: t, Key: key });
    renderEditor(container, table, null, changed);
    changed();
  });
  const snippet = (kind) => attempt(async () => {
    const value = current();
    const code = kind === "cli" ? cliSnippet(t, value, session.region) : sdkSnippet(t, value);
    copyText(code);
    out.append(h("pre", { "data-test": "snippet" }, code));
  });
  clear(container,
    h("div", { class: "toolbar" }, h("h2", {}, item ? "Item" : "New item"), h("div", { class: "spacer" }), formatSelect),
    text,
    h("div", { class: "toolbar" },
      h("button", { class: "primary", id: "save-item", onclick: save }, item ? "Save" : "Create"),
      item ? h("button", { class: "danger", id: "delete-item", onclick: remove }, "Delete") : null,
      h("button", { onclick: () => snippet("cli") }, "Copy as CLI"),
      h("button", { onclick: () => snippet("sdk") }, "Copy as SDK")),
    h("p", { class: "muted" }, item
      ? "Save sends an UpdateItem of the attributes changed, added and removed, if the item still exists; a changed key writes a new item."
      : "Create sends a PutItem that writes only if no item has this key."),
    out);
  if (saved) {
    const capacity = saved.answer.ConsumedCapacity;
    out.append(h("p", { class: "ok", id: "saved" }, `Saved (${formatNumber(capacity?.CapacityUnits, 2)} write units).`),
      sent(saved.plan), h("pre", { "data-test": "capacity" }, JSON.stringify({ ConsumedCapacity: capacity }, null, 2)));
  }
  text.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") { e.preventDefault(); save(); }
  });
  write(item || template());
}

function sent(plan) {
  return h("pre", { class: "request", "data-test": "request" }, `${plan.operation} ${JSON.stringify(plan.request, null, 2)}`);
}
