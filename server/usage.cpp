#include "server/usage.h"

#include "metering/access_pattern.h"
#include "protocol/responses.h"
#include "server/throttler.h"

namespace dynamod {
namespace {

std::string arn_of(const OperationContext& ctx, const Table& table) {
  return table_arn(ArnContext{ctx.scope.region, ctx.scope.account_id}, table.schema.name);
}

std::int64_t now_ms(const OperationContext& ctx) { return static_cast<std::int64_t>(ctx.clock() * 1000); }

}  // namespace

const AttributeValue* read_partition(const ReadSpec& spec, std::optional<AttributeValue>& combined) {
  if (!spec.key_condition) return nullptr;
  const expr::KeyCondition& kc = *spec.key_condition;
  if (kc.more_partition.empty()) return &kc.partition;
  // Each value typed and length-prefixed, so that no two combinations meet.
  std::string identity;
  auto add = [&identity](const AttributeValue& v) {
    const std::string number = v.type() == AttributeType::N ? v.as_number().to_string() : std::string();
    const std::string_view bytes = v.type() == AttributeType::S   ? std::string_view(v.as_string())
                                   : v.type() == AttributeType::B ? std::string_view(v.as_binary())
                                                                  : std::string_view(number);
    identity.push_back(static_cast<char>(v.type()));
    const auto size = static_cast<std::uint32_t>(bytes.size());
    identity.append(reinterpret_cast<const char*>(&size), sizeof size);
    identity.append(bytes);
  };
  add(kc.partition);
  for (const expr::KeyEquality& e : kc.more_partition) add(e.value);
  combined = AttributeValue::binary(std::move(identity));
  return &*combined;
}

std::optional<ApiError> admit_read(OperationContext& ctx, const Table& table, const std::string& index,
                                   const AttributeValue* partition) {
  if (!ctx.throttler.enabled()) return std::nullopt;
  std::optional<ApiError> refused = ctx.throttler.admit_read(table, index, partition, arn_of(ctx, table));
  // A local index reads the table's capacity: its throttles are the table's.
  const IndexSchema* read_index = index.empty() ? nullptr : table.schema.find_index(index);
  const bool global = read_index != nullptr && table.schema.is_global(*read_index);
  if (refused)
    ctx.ledger.record_throttled(ctx.scope.ns(), table.schema.name, global ? index : std::string(), now_ms(ctx));
  return refused;
}

std::optional<ApiError> admit_write(OperationContext& ctx, const Table& table, const AttributeValue* partition) {
  if (!ctx.throttler.enabled()) return std::nullopt;
  std::optional<ApiError> refused = ctx.throttler.admit_write(table, partition, arn_of(ctx, table));
  if (refused) ctx.ledger.record_throttled(ctx.scope.ns(), table.schema.name, {}, now_ms(ctx));
  return refused;
}

namespace {

// Per action: its table (null if unknown), the partition and whether it reads.
template <class Admit>
std::optional<ApiError> admit_actions(std::size_t count, Admit admit) {
  std::vector<ops::CancellationReason> reasons(count);
  bool throttled = false;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::optional<ApiError> e = admit(i)) {
      reasons[i] = {std::string(Throttler::cancellation_code(*e)), e->message(), {}};
      throttled = true;
    }
  }
  if (!throttled) return std::nullopt;
  return ops::transaction_cancelled(reasons);
}

}  // namespace

std::optional<ApiError> admit_transaction(OperationContext& ctx, const ops::PreparedTransaction& transaction) {
  if (!ctx.throttler.enabled()) return std::nullopt;
  return admit_actions(transaction.actions.size(), [&](std::size_t i) -> std::optional<ApiError> {
    const auto& action = transaction.actions[i];
    if (!action.prepared()) return std::nullopt;  // cancelled for a validation error later
    const ops::ItemLocation& at = action.write().location;
    return admit_write(ctx, *at.table, &at.key.partition);
  });
}

std::optional<ApiError> admit_transaction(OperationContext& ctx, const TransactGetItemsRequest& request) {
  if (!ctx.throttler.enabled()) return std::nullopt;
  return admit_actions(request.actions.size(), [&](std::size_t i) -> std::optional<ApiError> {
    const TransactGetAction& action = request.actions[i];
    TablePtr table = action.table_name ? find_table(ctx, *action.table_name) : nullptr;
    if (!table || !action.key) return std::nullopt;
    return admit_read(ctx, *table, {}, action.key->find(table->schema.key.partition.name));
  });
}

void account(OperationContext& ctx, std::string_view operation, const Table* table, const ConsumedCapacity& consumed,
             const AttributeValue* partition, bool index_key) {
  ctx.ledger.record(ctx.scope.ns(), operation, consumed, now_ms(ctx), index_key ? nullptr : partition);
  if (table != nullptr) ctx.throttler.charge(*table, consumed, partition);
}

namespace {

void account_key(OperationContext& ctx, std::string_view operation, const Table& table, const AttributeValue* partition,
                 const AttributeValue* sort, const ConsumedCapacity& consumed) {
  account(ctx, operation, &table, consumed, partition);
  if (!ctx.ledger.recording() || partition == nullptr) return;
  const KeyDef& key = table.schema.key;
  PatternUse use;
  use.operation = operation;
  use.table = table.schema.name;
  use.shape = metering::item_shape(operation, table.schema.name, key.partition.name, *partition,
                                   key.sort ? std::string_view(key.sort->name) : std::string_view(), sort);
  ctx.ledger.record_pattern(ctx.scope.ns(), std::move(use), consumed);
}

}  // namespace

void account_item(OperationContext& ctx, std::string_view operation, const Table& table, const Item& key_or_item,
                  const ConsumedCapacity& consumed) {
  const KeyDef& key = table.schema.key;
  account_key(ctx, operation, table, key_or_item.find(key.partition.name),
              key.sort ? key_or_item.find(key.sort->name) : nullptr, consumed);
}

void account_item(OperationContext& ctx, std::string_view operation, const Table& table, const PrimaryKey& key,
                  const ConsumedCapacity& consumed) {
  account_key(ctx, operation, table, &key.partition, key.sort_ptr(), consumed);
}

void account_read(OperationContext& ctx, std::string_view operation, const Table& table, const ReadSpec& spec,
                  const ops::ReadResult& result, std::string_view shape_prefix) {
  std::optional<AttributeValue> combined;
  const AttributeValue* partition = read_partition(spec, combined);
  // A local index is keyed by the table's partition key; a global one by its own.
  account(ctx, operation, &table, result.consumed, partition,
          spec.index != nullptr && table.schema.is_global(*spec.index));
  if (!ctx.ledger.recording()) return;
  const std::string_view index = spec.index ? std::string_view(spec.index->name) : std::string_view();
  const std::string_view target = index.empty() ? std::string_view(table.schema.name) : index;
  const bool filtered = !spec.filter.empty();
  PatternUse use;
  use.operation = operation;
  use.table = table.schema.name;
  use.index = index;
  use.shape = shape_prefix;
  use.shape += spec.key_condition ? metering::query_shape(target, *spec.key_condition, filtered)
                                  : metering::scan_shape(target, filtered);
  use.items_read = static_cast<std::uint64_t>(result.scanned);
  use.items_returned = static_cast<std::uint64_t>(result.count);
  ctx.ledger.record_pattern(ctx.scope.ns(), std::move(use), result.consumed);
}

TablePtr find_table(const OperationContext& ctx, const std::string& name_or_arn) {
  std::optional<QualifiedName> name = ctx.scope.qualify(name_or_arn);
  return name ? ctx.store.catalog().find(name->ns, name->name) : nullptr;
}

}  // namespace dynamod
