#include "storage/transaction_ops.h"

#include <xxhash.h>

#include <cstring>
#include <set>

#include "metering/capacity.h"
#include "metering/item_size.h"
#include "protocol/attribute_json.h"
#include "protocol/attribute_name_limit.h"
#include "protocol/expr/expression.h"
#include "protocol/expr/projection.h"
#include "protocol/item_expressions.h"
#include "protocol/key_paths.h"
#include "storage/item_change.h"
#include "storage/item_codec.h"

namespace dynamod::ops {
namespace {

using Kind = TransactWriteAction::Kind;
constexpr std::int64_t kTokenLifetimeMs = 10 * 60 * 1000;

using Reason = CancellationReason;

}  // namespace

ApiError transaction_cancelled(const std::vector<CancellationReason>& reasons) {
  std::string codes;
  std::string list = "[";
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    const Reason& r = reasons[i];
    codes += (i > 0 ? ", " : "") + r.code;
    if (i > 0) list += ',';
    list += "{\"Code\":\"" + r.code + "\"";
    if (!r.message.empty()) {
      list += ",\"Message\":\"";
      JsonWriter::append_escaped(list, r.message);
      list += '"';
    }
    if (!r.item_json.empty()) list += "," + r.item_json;  // already a JSON member
    list += '}';
  }
  list += ']';
  ApiError error(ErrorCode::TransactionCanceledException,
                 "Transaction cancelled, please refer cancellation reasons for specific reasons [" + codes + "]");
  error.set_extra_json("\"CancellationReasons\":" + list);
  return error;
}

namespace {

std::string token_value(std::int64_t expires_ms, std::string_view digest) {
  XXH128_hash_t h = XXH3_128bits(digest.data(), digest.size());
  std::string value(8 + 16, '\0');
  std::memcpy(value.data(), &expires_ms, 8);
  std::memcpy(value.data() + 8, &h.high64, 8);
  std::memcpy(value.data() + 16, &h.low64, 8);
  return value;
}

// Sums one action's units into the per-table list, in the order tables first appear.
ConsumedCapacity& table_entry(std::vector<ConsumedCapacity>& list, const std::string& table,
                              ConsumedCapacity::Detail d) {
  for (auto& c : list) {
    if (c.table_name == table) return c;
  }
  list.push_back({});
  list.back().table_name = table;
  list.back().detail = d;
  return list.back();
}

void add_units(std::vector<ConsumedCapacity>& list, const ConsumedCapacity& units) {
  ConsumedCapacity& entry = table_entry(list, units.table_name, ConsumedCapacity::Detail::Write);
  entry.table_write_units += units.table_write_units;
  entry.table_read_units += units.table_read_units;
  for (const auto& i : units.global_indexes) entry.index(i.index_name, true).write_units += i.write_units;
  for (const auto& i : units.local_indexes) entry.index(i.index_name, false).write_units += i.write_units;
}

// A replayed request is billed as transactional reads of the items it names.
TransactWriteResult replay_result(WriteContext& ctx, const PreparedTransaction& t) {
  TransactWriteResult result;
  result.return_consumed_capacity = t.return_consumed_capacity;
  for (const auto& a : t.actions) {
    const ItemLocation& at = a.write().location;
    auto record = ctx.txn().get(ctx.dbs().items, at.stored_key);
    ConsumedCapacity& entry = table_entry(result.consumed, at.table->schema.name, ConsumedCapacity::Detail::Read);
    entry.table_read_units +=
        metering::read_units(record ? items::metered_size(*record) : 0, metering::ReadMode::Transactional);
  }
  return result;
}

}  // namespace

PreparedTransaction prepare_transact_write(Store& store, const Scope& scope, TransactWriteItemsRequest request,
                                           std::int64_t now_ms) {
  PreparedTransaction t;
  t.return_consumed_capacity = request.return_consumed_capacity;
  t.return_item_collection_metrics = request.return_item_collection_metrics;
  t.now_ms = now_ms;
  if (request.client_request_token) {
    t.token_key = std::string(scope.ns()) + '\0' + *request.client_request_token;
    t.digest = request_digest(request);
  }

  // The requests each action stands for.
  std::vector<PutItemRequest> puts(request.actions.size());
  std::vector<DeleteItemRequest> deletes(request.actions.size());
  std::vector<UpdateItemRequest> updates(request.actions.size());
  for (std::size_t i = 0; i < request.actions.size(); ++i) {
    TransactWriteAction& a = request.actions[i];
    WriteParameters w;
    w.table_name = a.table_name;
    w.condition.expression = a.condition_expression;
    w.names = a.names;
    w.values = a.values;
    w.return_values_on_condition_failure = a.return_old_on_condition_failure;
    switch (a.kind) {
      case Kind::Put: puts[i] = PutItemRequest{std::move(w), std::move(a.item)}; break;
      case Kind::Update: updates[i] = UpdateItemRequest{std::move(w), std::move(a.key), a.update_expression, {}}; break;
      default: deletes[i] = DeleteItemRequest{std::move(w), std::move(a.key)}; break;
    }
  }
  // Expressions first, in request order (errors end the whole call)...
  std::vector<ItemExpressions> expressions(request.actions.size());
  for (std::size_t i = 0; i < request.actions.size(); ++i) {
    switch (request.actions[i].kind) {
      case Kind::Put: expressions[i] = parse_put_or_delete_expressions(puts[i].write, true); break;
      case Kind::Update: expressions[i] = parse_update_expressions(updates[i], true); break;
      default: expressions[i] = parse_put_or_delete_expressions(deletes[i].write, true); break;
    }
  }
  // ...then each action in order, all of it before the next (DynamoDB Local):
  // its table, what its condition reads of the keys, the action against its
  // table (key errors cancel the transaction later), a repeated item.
  std::uint64_t payload = 0;
  std::set<std::pair<std::uint32_t, std::string>> targets;
  for (std::size_t i = 0; i < request.actions.size(); ++i) {
    const auto& name = request.actions[i].kind == Kind::Put      ? puts[i].write.table_name
                       : request.actions[i].kind == Kind::Update ? updates[i].write.table_name
                                                                 : deletes[i].write.table_name;
    check_read_key_paths(resolve_table(store, scope, *name)->schema, expressions[i].condition);
    PreparedTransaction::Action action;
    action.kind = request.actions[i].kind;
    try {
      switch (action.kind) {
        case Kind::Put:
          payload += metering::item_size(*puts[i].item);
          action.put = prepare_put_item(store, scope, std::move(puts[i]), true);
          break;
        case Kind::Update:
          payload += metering::item_size(*updates[i].key);
          action.update = prepare_update_item(store, scope, updates[i], true);
          break;
        default:
          payload += metering::item_size(*deletes[i].key);
          action.del = prepare_delete_item(store, scope, deletes[i], true);
          break;
      }
      const ItemLocation& at = action.write().location;
      if (!targets.insert({at.table->schema.id, at.stored_key}).second) {
        throw ApiError::validation("Transaction request cannot include multiple operations on one item");
      }
    } catch (ApiError& e) {
      if (e.code() != ErrorCode::ValidationException || is_empty_key_error(e) ||
          e.message() == "Transaction request cannot include multiple operations on one item" ||
          e.message() == kAttributeNameTooLarge || e.message() == kItemTooLarge) {
        throw;
      }
      action.validation_error = std::move(e);
    }
    t.actions.push_back(std::move(action));
  }
  if (payload > kMaxTransactionPayload) {
    throw ApiError::validation("Transaction payload size cannot exceed 4MB. Payload Size: " + std::to_string(payload));
  }
  return t;
}

TransactWriteResult apply_transact_write(WriteContext& ctx, const PreparedTransaction& t) {
  // Only the first action that fails validation is named; the others get None.
  std::vector<Reason> reasons(t.actions.size());
  for (std::size_t i = 0; i < t.actions.size(); ++i) {
    if (t.actions[i].validation_error) {
      reasons[i] = {"ValidationError", t.actions[i].validation_error->message(), {}};
      TransactWriteResult result;
      result.failure = transaction_cancelled(reasons);
      return result;
    }
  }
  if (t.token_key) {
    if (auto stored = ctx.txn().get(ctx.dbs().tokens, *t.token_key); stored && stored->size() == 24) {
      std::int64_t expires = 0;
      std::memcpy(&expires, stored->data(), 8);
      if (expires > t.now_ms) {
        if (stored->substr(8) != std::string_view(token_value(0, t.digest)).substr(8)) {
          // DynamoDB Local's words for ExecuteTransaction (its TransactWriteItems sends none;
          // the service's are not documented).
          throw ApiError(ErrorCode::IdempotentParameterMismatchException,
                         "Specified idempotent token was used with different request parameters within the "
                         "idempotency window");
        }
        return replay_result(ctx, t);
      }
    }
  }

  CollectionSizes sizes;
  std::vector<PlannedWrite> planned;
  planned.reserve(t.actions.size());
  bool failed = false;
  std::optional<std::size_t> validation_failure;
  for (std::size_t i = 0; i < t.actions.size(); ++i) {
    const auto& a = t.actions[i];
    try {
      switch (a.kind) {
        case Kind::ConditionCheck: planned.push_back(plan_condition_check(ctx, a.del->write, true)); break;
        case Kind::Put: planned.push_back(plan_put_item(ctx, *a.put, sizes, true)); break;
        case Kind::Delete: planned.push_back(plan_delete_item(ctx, *a.del, sizes, true)); break;
        case Kind::Update: planned.push_back(plan_update_item(ctx, *a.update, sizes, true)); break;
      }
      if (planned.back().result.failure) {
        failed = true;
        const bool duplicate = planned.back().result.failure->code() == ErrorCode::DuplicateItemException;
        reasons[i].code = duplicate ? "DuplicateItem" : "ConditionalCheckFailed";
        reasons[i].message = planned.back().result.failure->message();
        reasons[i].item_json = planned.back().result.failure->extra_json();
      }
    } catch (ApiError& e) {
      failed = true;
      planned.emplace_back();
      if (e.code() == ErrorCode::ItemCollectionSizeLimitExceededException) {
        reasons[i] = {"ItemCollectionSizeLimitExceeded", e.message(), {}};
      } else if (is_empty_key_error(e)) {
        throw;  // an index key an update empties: refused outright, as a standalone write is
      } else if (e.code() == ErrorCode::ValidationException) {
        if (!validation_failure) validation_failure = i;
        reasons[i] = {"ValidationError", e.message(), {}};
      } else {
        throw;
      }
    }
  }
  TransactWriteResult result;
  result.return_consumed_capacity = t.return_consumed_capacity;
  if (failed) {
    if (validation_failure) {
      Reason only = reasons[*validation_failure];
      reasons.assign(reasons.size(), Reason{});
      reasons[*validation_failure] = only;
    }
    result.failure = transaction_cancelled(reasons);
    return result;
  }
  for (std::size_t i = 0; i < planned.size(); ++i) {
    PlannedWrite& p = planned[i];
    apply_write(ctx, p, true);
    add_units(result.consumed, p.result.consumed);
    if (t.return_item_collection_metrics && p.change) {
      if (auto metrics = p.change->collection_metrics()) {
        const std::string& name = p.table->schema.name;
        auto it = std::find_if(result.item_collection_metrics.begin(), result.item_collection_metrics.end(),
                               [&](const auto& e) { return e.first == name; });
        if (it == result.item_collection_metrics.end()) {
          result.item_collection_metrics.emplace_back(name, std::vector<ItemCollectionMetrics>{});
          it = std::prev(result.item_collection_metrics.end());
        }
        it->second.push_back(std::move(*metrics));
      }
    }
  }
  if (t.token_key) {
    ctx.txn().put(ctx.dbs().tokens, *t.token_key, token_value(t.now_ms + kTokenLifetimeMs, t.digest));
  }
  return result;
}

TransactGetResult transact_get(Store& store, const Scope& scope, const TransactGetItemsRequest& request) {
  struct Plan {
    TablePtr table;
    std::optional<std::vector<expr::Path>> projection;
    std::optional<ItemLocation> location;
  };
  std::vector<Plan> plans(request.actions.size());
  for (std::size_t i = 0; i < request.actions.size(); ++i) {
    const TransactGetAction& a = request.actions[i];
    GetItemRequest as_get;
    as_get.projection_expression = a.projection_expression;
    // Names without a projection are accepted in transactions.
    if (a.projection_expression) as_get.names = a.names;
    plans[i].projection = parse_get_projection(as_get);
  }
  // Then each Get in order, all of it before the next (DynamoDB Local): its
  // table, the projection's paths into keys, its key (one that does not fit
  // cancels the transaction later), a repeated item (ends the call).
  std::vector<Reason> reasons(request.actions.size());
  std::optional<std::size_t> invalid;
  std::set<std::pair<std::uint32_t, std::string>> targets;
  for (std::size_t i = 0; i < request.actions.size(); ++i) {
    plans[i].table = resolve_table(store, scope, *request.actions[i].table_name);
    check_read_key_paths(plans[i].table->schema, plans[i].projection);
    try {
      plans[i].location = locate(plans[i].table, key_from_key(plans[i].table->schema.key, *request.actions[i].key));
    } catch (ApiError& e) {
      if (is_empty_key_error(e)) throw;
      if (!invalid) {
        invalid = i;
        reasons[i] = {"ValidationError", e.message(), {}};
      }
      continue;
    }
    if (!targets.insert({plans[i].table->schema.id, plans[i].location->stored_key}).second) {
      throw ApiError::validation("Transaction request cannot include multiple operations on one item");
    }
  }
  TransactGetResult result;
  result.return_consumed_capacity = request.return_consumed_capacity;
  if (invalid) {
    result.failure = transaction_cancelled(reasons);
    return result;
  }
  // One read transaction: a consistent snapshot of every item.
  auto txn = store.read();
  for (const Plan& plan : plans) {
    auto record = txn.get(store.dbs().items, plan.location->stored_key);
    if (record && items::key_image(*record) != plan.location->key_image) record.reset();
    ConsumedCapacity& entry = table_entry(result.consumed, plan.table->schema.name, ConsumedCapacity::Detail::Read);
    entry.table_read_units +=
        metering::read_units(record ? items::metered_size(*record) : 0, metering::ReadMode::Transactional);
    if (!record) {
      result.items.emplace_back();
      continue;
    }
    JsonWriter out;
    if (plan.projection) {
      Item projected = expr::project(items::decode(*record, store.names()), *plan.projection);
      // An item whose projection selects nothing comes back without Item.
      if (projected.empty()) {
        result.items.emplace_back();
        continue;
      }
      encode_item(out, projected);
    } else {
      items::write_json(out, *record, store.names());
    }
    result.items.push_back(out.take());
  }
  return result;
}

}  // namespace dynamod::ops
