#include "storage/partiql_batch_ops.h"

#include <set>

#include "protocol/partiql/parser.h"
#include "storage/item_change.h"

namespace dynamod::ops {
namespace {

ConsumedCapacity& table_entry(std::vector<ConsumedCapacity>& list, const std::string& table) {
  for (auto& c : list) {
    if (c.table_name == table) return c;
  }
  list.push_back({});
  list.back().table_name = table;
  return list.back();
}

void add_units(std::vector<ConsumedCapacity>& list, const ConsumedCapacity& units) {
  ConsumedCapacity& entry = table_entry(list, units.table_name);
  entry.table_read_units += units.table_read_units;
  entry.table_write_units += units.table_write_units;
  for (const auto& i : units.global_indexes) entry.index(i.index_name, true).write_units += i.write_units;
  for (const auto& i : units.local_indexes) entry.index(i.index_name, false).write_units += i.write_units;
}

// The stored key of the one item a member reads or writes.
std::string stored_key_of(const PreparedStatement& s) {
  if (!s.read) return s.write().location.stored_key;
  return locate(s.table, key_from_key(s.table->schema.key, *s.read->key)).stored_key;
}

// The batch's answer: each member that prepared runs through `run`, in order;
// a member that did not answers the error it prepared to.
template <typename Run>
StatementBatchResult for_each_statement(const PreparedStatementBatch& batch, Run run) {
  StatementBatchResult result;
  result.return_consumed_capacity = batch.return_consumed_capacity;
  for (const auto& m : batch.members) {
    StatementOutcome& out = result.outcomes.emplace_back();
    if (m.error) {
      out.error = *m.error;
      continue;
    }
    out.table_name = m.statement->table->schema.name;
    run(*m.statement, out, result.consumed);
  }
  return result;
}

}  // namespace

PreparedStatementBatch prepare_statement_batch(Store& store, const Scope& scope,
                                               const partiql::BatchExecuteStatementRequest& request) {
  PreparedStatementBatch batch;
  batch.return_consumed_capacity = request.return_consumed_capacity;
  batch.members.resize(request.statements.size());
  // An empty statement fails the whole batch, before any is parsed (a member's Statement has
  // a length of 1 at least; DynamoDB Local's text).
  for (const auto& s : request.statements) {
    if (s.statement.empty()) throw ApiError::validation("The statement was empty.");
  }
  // Parse everything first: a batch is all reads or all writes. A member that
  // parsed, of the batch's kind, with a parameter the service refuses fails
  // the whole batch (DynamoDB Local: member by member, so the first of the
  // two errors decides).
  std::vector<std::optional<partiql::Statement>> parsed(request.statements.size());
  std::optional<bool> reads;
  for (std::size_t i = 0; i < request.statements.size(); ++i) {
    try {
      parsed[i] = partiql::parse(request.statements[i].statement);
    } catch (ApiError& e) {
      // A batch words any statement it does not run as one (DynamoDB Local).
      batch.members[i].error = e.message().starts_with("Unsupported operation: ")
                                   ? ApiError::validation(std::string(kBatchOnlyDml))
                                   : std::move(e);
      continue;
    }
    // (A SELECT read as an expression around it is a read too: DynamoDB Local.)
    const bool read = parsed[i]->kind() == partiql::StatementKind::Select || parsed[i]->wrapped_select;
    if (reads && *reads != read) {
      throw ApiError::validation("Read and write requests together in the same batch is not supported.");
    }
    reads = read;
    request.statements[i].check_parameters();
  }
  batch.reads = reads.value_or(false);

  std::set<std::pair<std::uint32_t, std::string>> items;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    if (!parsed[i]) continue;
    PreparedStatementBatch::Member& m = batch.members[i];
    const partiql::StatementRequest& r = request.statements[i];
    std::optional<PreparedStatement> prepared;
    std::string key;
    try {
      if (parsed[i]->kind() == partiql::StatementKind::Exists) {
        throw ApiError::validation(std::string(kExistsOutsideTransaction));
      }
      // ReturnValuesOnConditionCheckFailure is inert in a batch: no Item in a member's error.
      partiql::Inputs inputs{r.parameters, r.consistent_read,       std::nullopt, std::nullopt,
                             false,        partiql::kBatchSelectKey};
      prepared = prepare_statement(store, scope, *parsed[i], inputs);
      key = stored_key_of(*prepared);
    } catch (ApiError& e) {
      m.error = std::move(e);
      continue;
    }
    if (!items.insert({prepared->table->schema.id, std::move(key)}).second) {
      throw ApiError::validation("Provided list of item keys contains duplicates");
    }
    m.statement = std::move(prepared);
  }
  return batch;
}

StatementBatchResult run_batch_reads(Store& store, const PreparedStatementBatch& batch) {
  auto run = [&](const PreparedStatement& s, StatementOutcome& out, std::vector<ConsumedCapacity>& consumed) {
    ReadResult read = run_select(store, s);
    // A whole-key read returns "[item]" or "[]".
    if (read.count > 0) out.item_json = read.items_json->substr(1, read.items_json->size() - 2);
    add_units(consumed, read.consumed);
  };
  return for_each_statement(batch, run);
}

StatementBatchResult apply_batch_writes(WriteContext& ctx, const PreparedStatementBatch& batch) {
  auto apply = [&](const PreparedStatement& s, StatementOutcome& out, std::vector<ConsumedCapacity>& consumed) {
    try {
      CollectionSizes sizes;
      PlannedWrite planned = plan_statement(ctx, s, sizes);
      if (planned.result.failure) {
        out.error = std::move(planned.result.failure);
      } else {
        apply_write(ctx, planned);
        out.item_json = std::move(planned.result.attributes_json);
      }
      // A failed condition is billed like the write it replaced.
      add_units(consumed, planned.result.consumed);
    } catch (ApiError& e) {
      out.error = std::move(e);
    }
  };
  return for_each_statement(batch, apply);
}

}  // namespace dynamod::ops
