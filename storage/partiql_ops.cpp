#include "storage/partiql_ops.h"

#include "protocol/partiql/statement_checks.h"
#include "storage/item_change.h"

namespace dynamod::ops {

PreparedStatement prepare_statement(Store& store, const Scope& scope, const partiql::Statement& statement,
                                    const partiql::Inputs& inputs) {
  partiql::check_statement(statement, inputs.parameters);
  PreparedStatement prepared;
  prepared.kind = statement.kind();
  prepared.table = resolve_table(store, scope, statement.table().table);
  const TableSchema& schema = prepared.table->schema;
  if (const auto* select = std::get_if<partiql::Select>(&statement.body)) {
    prepared.read = partiql::translate_select(statement, *select, schema, inputs);
    return prepared;
  }
  partiql::WritePlan plan = partiql::translate_write(statement, schema, inputs);
  if (auto* put = std::get_if<PutItemRequest>(&plan.request)) {
    prepared.put = prepare_put_item(store, scope, std::move(*put), std::move(plan.expressions));
    // INSERT's implicit attribute_not_exists failing means the key is taken.
    prepared.put->write.condition_failure =
        ApiError(ErrorCode::DuplicateItemException, "Duplicate primary key exists in table");
  } else if (auto* update = std::get_if<UpdateItemRequest>(&plan.request)) {
    prepared.update = prepare_update_item(store, scope, *update, std::move(plan.expressions));
  } else {
    prepared.del =
        prepare_delete_item(store, scope, std::get<DeleteItemRequest>(plan.request), std::move(plan.expressions));
  }
  return prepared;
}

ReadResult run_select(Store& store, const PreparedStatement& statement) {
  const ReadSpec& spec = statement.read->spec;
  return spec.key_condition ? run_query(store, *statement.table, spec) : run_scan(store, *statement.table, spec);
}

PlannedWrite plan_statement(WriteContext& ctx, const PreparedStatement& statement, CollectionSizes& sizes) {
  if (statement.kind == partiql::StatementKind::Exists) return plan_condition_check(ctx, statement.del->write, false);
  if (statement.put) return plan_put_item(ctx, *statement.put, sizes);
  if (statement.update) return plan_update_item(ctx, *statement.update, sizes);
  return plan_delete_item(ctx, *statement.del, sizes);
}

WriteItemResult apply_statement(WriteContext& ctx, const PreparedStatement& statement) {
  CollectionSizes sizes;
  PlannedWrite planned = plan_statement(ctx, statement, sizes);
  apply_write(ctx, planned);
  return std::move(planned.result);
}

}  // namespace dynamod::ops
