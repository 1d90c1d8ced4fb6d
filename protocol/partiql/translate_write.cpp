// INSERT, UPDATE, DELETE and EXISTS as the JSON API's write requests:
//   INSERT  -> PutItem with attribute_not_exists(<partition key>)
//   UPDATE  -> UpdateItem with attribute_exists(<partition key>) AND <other WHERE terms>
//   DELETE  -> DeleteItem with attribute_not_exists(<partition key>) OR (<other terms>):
//              a missing item is no error, even under a further condition
//   EXISTS  -> a ConditionCheck of <other terms>
#include <cctype>

#include "protocol/expr/operand_messages.h"
#include "protocol/key_paths.h"
#include "protocol/partiql/condition.h"
#include "protocol/partiql/key_types.h"
#include "protocol/partiql/keys.h"
#include "protocol/partiql/translate.h"

namespace dynamod::partiql {
namespace {

[[noreturn]] void fail(std::string message) { throw ApiError::validation(std::move(message)); }

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

ReturnValues return_values(const std::optional<Returning>& r) {
  if (!r) return ReturnValues::None;
  switch (r->image) {
    case ReturnImage::AllOld: return ReturnValues::AllOld;
    case ReturnImage::ModifiedOld: return ReturnValues::UpdatedOld;
    case ReturnImage::AllNew: return ReturnValues::AllNew;
    case ReturnImage::ModifiedNew: return ReturnValues::UpdatedNew;
  }
  return ReturnValues::None;
}

// The key an UPDATE or DELETE names, if its WHERE clause names one, and the
// WHERE clause's other terms (all of them when it names none).
struct Where {
  std::optional<Item> key;
  std::vector<NodeId> rest;
};
Where split_where(const Statement& s, std::optional<NodeId> where, const TableSchema& table, const Inputs& inputs) {
  std::vector<NodeId> terms = and_terms(s, where);
  auto key = split_key_terms(s, terms, table.key, inputs.parameters, false);
  if (!key) return Where{std::nullopt, std::move(terms)};
  return Where{std::move(key->key), std::move(key->rest)};
}

// The key, once the statement's expressions are built: the service names their
// errors, then an index, then a missing or mistyped key, then a key attribute
// given a second value.
Item named_key(const Statement& s, Where& where, const TableRef& target, const TableSchema& table,
               const Parameters& parameters) {
  if (target.index) fail("This operation is not supported on an index");
  if (!where.key) fail(std::string(kWhereKeys));
  check_named_key(*where.key, table.key);
  check_single_key_values(s, where.rest, *where.key, table.key, parameters);
  return std::move(*where.key);
}

WriteParameters write_parameters(const TableSchema& table, const Inputs& inputs) {
  WriteParameters w;
  w.table_name = table.name;
  w.return_values_on_condition_failure = inputs.return_old_on_condition_failure;
  return w;
}

// The VALUE of an INSERT: a struct (or a map parameter).
Item insert_item(const Statement& s, NodeId id, const Parameters& parameters) {
  const Node& n = s.node(id);
  if (n.kind == NodeKind::Struct) {
    Item item;
    // Each attribute's value is its own "root" in number errors.
    for (std::size_t i = 0; i < n.children.size(); ++i)
      item.set(n.keys[i], constant_value(s, n.children[i], parameters));
    return item;
  }
  if (n.kind == NodeKind::Parameter) {
    AttributeValue v = constant_value(s, id, parameters);
    if (v.type() == AttributeType::M) return v.as_map();
  }
  fail(
      "Unsupported format in item expression. Please use struct format {...} to express item values for insert "
      "statement." +
      n.pos.suffix());
}

// The SET and REMOVE clauses of an UPDATE as update actions.
class Actions {
 public:
  Actions(const Statement& s, const Parameters& parameters) : s_(s), parameters_(parameters) {}

  // Each action's value is checked (set_add's and set_delete's arguments,
  // arithmetic operands) before the paths are checked for overlaps, in the
  // statement's order, the later path named first (DynamoDB Local).
  expr::UpdateActions build(const std::vector<UpdateAction>& actions) {
    std::vector<const expr::Path*> paths;
    for (const auto& a : actions) {
      const expr::Path& path = s_.node(a.path).path;
      paths.push_back(&path);
      if (a.value) {
        set(path, *a.value);
      } else {
        out_.remove.push_back(path);
      }
    }
    expr::check_disjoint(paths, "", expr::PathPairOrder::PartiqlTree);
    return std::move(out_);
  }

 private:
  void set(const expr::Path& target, NodeId value) {
    const Node& v = s_.node(value);
    if (v.kind == NodeKind::Call && (v.text == "set_add" || v.text == "set_delete")) return set_function(target, v);
    refuse_operator(v);
    if (v.kind == NodeKind::Arithmetic) {
      const std::string_view op = v.flag ? "-" : "+";
      expr::Arithmetic a{v.flag, operand(v.children[0], true), operand(v.children[1], true)};
      for (const auto* o : {&a.lhs, &a.rhs}) {
        if (const auto* c = o->constant(); c && c->type() != AttributeType::N) {
          fail(expr::incorrect_operand_type(op, c->type()));
        }
      }
      out_.set.push_back(expr::SetAction{target, std::move(a)});
      return;
    }
    out_.set.push_back(expr::SetAction{target, operand(value, false)});
  }

  // What parses but an update does not compute: * / % ||, LIKE, a sign before
  // what is no number (DynamoDB Local's words).
  static void refuse_operator(const Node& n) {
    const bool plus_or_minus = n.text == "+" || n.text == "-";
    if (n.kind == NodeKind::Like) fail("Unsupported operator in Update Expression. Operator: like");
    if (n.kind == NodeKind::Arithmetic && !plus_or_minus) {
      fail("Unsupported operator in Update Expression. Operator: " + n.text);
    }
    if (n.kind == NodeKind::Unary) {
      fail("Incorrect number of operands for operator or function; operator or function: " + n.text +
           ", number of operands: 1");
    }
  }

  // A SET operand: a path, a constant or list_append(...).
  expr::Operand operand(NodeId id, bool in_arithmetic) {
    const Node& n = s_.node(id);
    if (n.kind == NodeKind::Path) return expr::Operand{n.path};
    if (n.kind == NodeKind::Missing) misplaced_missing();
    refuse_operator(n);
    if (n.kind == NodeKind::Call) {
      if (n.text != "list_append") fail("Unrecognized function: " + n.text + n.pos.suffix());
      if (in_arithmetic)
        fail("The function is not allowed to be used this way in an expression; function: list_append");
      expr::FunctionCall call{expr::FunctionKind::ListAppend, {}};
      for (NodeId a : n.children) call.args.push_back(operand(a, false));
      if (call.args.size() != 2) {
        fail(
            "Incorrect number of operands for operator or function; operator or function: list_append, number of "
            "operands: " +
            std::to_string(call.args.size()));
      }
      for (const auto& a : call.args) {
        if (const auto* c = a.constant(); c && c->type() != AttributeType::L) {
          fail(expr::incorrect_operand_type("list_append", c->type()));
        }
      }
      return expr::Operand{std::move(call)};
    }
    if (!is_constant(s_, id)) fail("Unsupported expression in the SET clause" + n.pos.suffix());
    return expr::Operand{constant_value(s_, id, parameters_)};
  }

  // SET s = set_add(s, <<...>>) / set_delete: DynamoDB's ADD / DELETE of set members.
  void set_function(const expr::Path& target, const Node& call) {
    const std::string name = upper(call.text);
    if (call.children.size() != 2) fail(name + " must have exactly two arguments" + call.pos.suffix());
    const Node& first = s_.node(call.children[0]);
    if (first.kind != NodeKind::Path || !(first.path == target)) {
      fail("The first argument to " + name + " must equal the assignment value" + call.pos.suffix());
    }
    // Named at the first argument, unless that is a nested path, which carries no position
    // (DynamoDB Local; the service's is pinned for a name only).
    const std::string at = first.kind == NodeKind::Path && first.path.steps.size() > 1 ? "" : first.pos.suffix();
    const std::string not_a_set = "The second argument to " + name + " must be a value with type SET" + at;
    if (!is_constant(s_, call.children[1])) fail(not_a_set);
    AttributeValue members = constant_value(s_, call.children[1], parameters_);
    const AttributeType t = members.type();
    if (t != AttributeType::SS && t != AttributeType::NS && t != AttributeType::BS) fail(not_a_set);
    if (call.text == "set_add") {
      out_.add.push_back(expr::AddAction{target, std::move(members)});
    } else {
      out_.del.push_back(expr::DeleteAction{target, std::move(members)});
    }
  }

  const Statement& s_;
  const Parameters& parameters_;
  expr::UpdateActions out_;
};

WritePlan insert(const Statement& s, const Insert& ins, const TableSchema& table, const Inputs& inputs) {
  if (ins.into.index) fail("FROM clause may only contain a single table name in data manipulation statements");
  if (ins.returning) fail("RETURNING is not supported in INSERT");
  PutItemRequest put;
  put.write = write_parameters(table, inputs);
  // A duplicate key is DuplicateItemException, which carries no item.
  put.write.return_values_on_condition_failure = false;
  put.item = insert_item(s, ins.value, inputs.parameters);
  check_item_key(*put.item, table.key);
  WritePlan plan{std::move(put), {}};
  plan.expressions.condition = exists_condition(table.key.partition.name, false);
  return plan;
}

WritePlan update(const Statement& s, const Update& u, const TableSchema& table, const Inputs& inputs) {
  Where where = split_where(s, u.where, table, inputs);
  ItemExpressions expressions;
  expressions.update = Actions(s, inputs.parameters).build(u.actions);
  expr::Condition condition = build_condition(s, where.rest, inputs.parameters);
  UpdateItemRequest request;
  request.key = named_key(s, where, u.table, table, inputs.parameters);
  request.write = write_parameters(table, inputs);
  request.write.return_values = return_values(u.returning);
  // UPDATE never creates an item.
  expressions.condition = join(exists_condition(table.key.partition.name, true), std::move(condition), Join::And);
  return WritePlan{std::move(request), std::move(expressions)};
}

WritePlan remove_item(const Statement& s, const Delete& d, const TableSchema& table, const Inputs& inputs) {
  Where where = split_where(s, d.where, table, inputs);
  expr::Condition condition = build_condition(s, where.rest, inputs.parameters);
  DeleteItemRequest request;
  request.key = named_key(s, where, d.from, table, inputs.parameters);
  if (d.returning && d.returning->image != ReturnImage::AllOld) {
    fail("Invalid returning clause: " + d.returning->text +
         ". Only RETURNING ALL OLD * is allowed in DELETE statements.");
  }
  request.write = write_parameters(table, inputs);
  request.write.return_values = return_values(d.returning);
  ItemExpressions expressions;
  if (!condition.empty()) {
    expressions.condition = join(exists_condition(table.key.partition.name, false), std::move(condition), Join::Or);
  }
  return WritePlan{std::move(request), std::move(expressions)};
}

WritePlan check(const Statement& s, const Exists& e, const TableSchema& table, const Inputs& inputs) {
  const std::string message = "EXISTS() must contain a single item read with additional condition";
  // (A SELECT's words differ: partiql_transaction_ops.)
  if (e.select.from.index) fail("Operations on indices are not supported in transactions");
  const std::vector<NodeId> terms = and_terms(s, e.select.where);
  // A path into the table's key, the first in the statement's order, before
  // the key itself is looked at: worded "Key pk" (DynamoDB Local; it does not
  // look for paths into an index's keys here).
  for (const expr::Path* p : condition_paths(s, terms)) {
    if (p->steps.size() > 1 && table.key.includes(p->root())) fail(key_path_message("Key " + p->root()));
  }
  auto key = split_key_terms(s, terms, table.key, inputs.parameters, false);
  if (!key || key->rest.empty()) fail(message);
  check_named_key(key->key, table.key);
  DeleteItemRequest request;
  request.write = write_parameters(table, inputs);
  request.key = std::move(key->key);
  // EXISTS is true of an item that is there and meets the condition: a
  // missing item fails the check whatever the condition says (the developer
  // guide: TRUE for a non-empty collection; DynamoDB Local).
  ItemExpressions expressions;
  expressions.condition = join(exists_condition(table.key.partition.name, true),
                               build_condition(s, key->rest, inputs.parameters), Join::And);
  return WritePlan{std::move(request), std::move(expressions)};
}

}  // namespace

void check_update_clauses(const Statement& s, const Parameters& parameters) {
  if (const auto* u = std::get_if<Update>(&s.body)) Actions(s, parameters).build(u->actions);
}

WritePlan translate_write(const Statement& s, const TableSchema& table, const Inputs& inputs) {
  switch (s.kind()) {
    case StatementKind::Insert: return insert(s, std::get<Insert>(s.body), table, inputs);
    case StatementKind::Update: return update(s, std::get<Update>(s.body), table, inputs);
    case StatementKind::Delete: return remove_item(s, std::get<Delete>(s.body), table, inputs);
    case StatementKind::Exists: return check(s, std::get<Exists>(s.body), table, inputs);
    case StatementKind::Select: break;
  }
  throw ApiError::internal("a SELECT is not a write");
}

}  // namespace dynamod::partiql
