#include "server/fault_facts.h"

#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "protocol/attribute_json.h"
#include "protocol/base64.h"
#include "protocol/expr/expression.h"
#include "protocol/partiql/parser.h"

namespace dynamod {
namespace {

namespace od = simdjson::ondemand;
using simdjson::SUCCESS;

// "arn:aws:dynamodb:us-east-1:123456789012:table/Name[/...]" -> "Name".
std::string table_name_of(std::string_view given) {
  if (!given.starts_with("arn:")) return std::string(given);
  auto slash = given.find(":table/");
  if (slash == std::string_view::npos) return std::string(given);
  std::string_view rest = given.substr(slash + 7);
  return std::string(rest.substr(0, rest.find('/')));
}

// The text of {"S": "x"} / {"N": "1"} / {"B": "base64"}.
std::optional<std::string> scalar_text(od::value value) {
  od::object typed;
  if (value.get_object().get(typed) != SUCCESS) return std::nullopt;
  for (auto member : typed) {
    od::field field;
    std::string_view type;
    if (std::move(member).get(field) != SUCCESS || field.unescaped_key().get(type) != SUCCESS) return std::nullopt;
    if (type != "S" && type != "N" && type != "B") continue;
    std::string_view text;
    if (field.value().get_string().get(text) != SUCCESS) return std::nullopt;
    return std::string(text);
  }
  return std::nullopt;
}

// The same text for a decoded value (B as base64, as on the wire).
std::optional<std::string> scalar_text(const AttributeValue& value) {
  switch (value.type()) {
    case AttributeType::S: return value.as_string();
    case AttributeType::N: return value.as_number().to_string();
    case AttributeType::B: {
      std::string out;
      base64_encode_append(out, value.as_binary());
      return out;
    }
    default: return std::nullopt;
  }
}

// The value a KeyConditionExpression's `pk = :v` (through ANDs) gives `partition`.
std::optional<std::string> key_equality(const expr::Condition& c, std::uint32_t node, std::string_view partition) {
  const auto& v = c.nodes[node].v;
  if (const auto* both = std::get_if<expr::And>(&v)) {
    if (auto left = key_equality(c, both->left, partition)) return left;
    return key_equality(c, both->right, partition);
  }
  const auto* compare = std::get_if<expr::Comparison>(&v);
  if (compare == nullptr || compare->op != expr::CompareOp::Eq) return std::nullopt;
  for (auto [lhs, rhs] : {std::pair{&compare->lhs, &compare->rhs}, std::pair{&compare->rhs, &compare->lhs}}) {
    const expr::Path* path = lhs->path();
    const AttributeValue* constant = rhs->constant();
    if (path != nullptr && constant != nullptr && path->steps.size() == 1 && path->root() == partition) {
      return scalar_text(*constant);
    }
  }
  return std::nullopt;
}

// The node a PartiQL WHERE's `pk = <value>` (through ANDs) compares `partition` with.
std::optional<partiql::NodeId> partiql_equality(const partiql::Statement& s, partiql::NodeId id,
                                                std::string_view partition) {
  const partiql::Node& node = s.node(id);
  if (node.kind == partiql::NodeKind::And) {
    if (auto left = partiql_equality(s, node.children[0], partition)) return left;
    return partiql_equality(s, node.children[1], partition);
  }
  if (node.kind != partiql::NodeKind::Compare || node.op != expr::CompareOp::Eq) return std::nullopt;
  for (auto [lhs, rhs] :
       {std::pair{node.children[0], node.children[1]}, std::pair{node.children[1], node.children[0]}}) {
    const partiql::Node& path = s.node(lhs);
    if (path.kind == partiql::NodeKind::Path && path.path.steps.size() == 1 && path.path.root() == partition) {
      return rhs;
    }
  }
  return std::nullopt;
}

// The WHERE of a SELECT, UPDATE, DELETE or EXISTS.
std::optional<partiql::NodeId> where_of(const partiql::Statement& s) {
  return std::visit(
      [](const auto& body) -> std::optional<partiql::NodeId> {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, partiql::Exists>) return body.select.where;
        else if constexpr (std::is_same_v<T, partiql::Insert>) return std::nullopt;
        else return body.where;
      },
      s.body);
}

class FactsReader {
 public:
  FactsReader(RequestFacts& facts, const FactsContext& context, bool with_keys)
      : facts_(facts), context_(context), with_keys_(with_keys) {}

  // GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, and every other
  // operation that names a TableName.
  void single(od::object& body) {
    std::string_view given;
    if (body["TableName"].get_string().get(given) != SUCCESS) return;
    const std::string name = table_name_of(given);
    table(name);
    const std::string_view op = facts_.operation;
    const bool read = op == "Query" || op == "Scan";
    std::string_view index;
    if (read && body["IndexName"].get_string().get(index) == SUCCESS) facts_.index = std::string(index);
    // Only these fix a partition key (a Scan reads them all).
    const bool keyed = op == "GetItem" || op == "PutItem" || op == "UpdateItem" || op == "DeleteItem" || op == "Query";
    if (!with_keys_ || !keyed) return;
    const KeyDef* key = key_of(name, facts_.index);
    if (key == nullptr) return;
    if (op == "Query") {
      query(body, key->partition.name);
      return;
    }
    od::value item;
    if (body[op == "PutItem" ? "Item" : "Key"].get(item) == SUCCESS) partition_key(item, key->partition.name);
  }

  // BatchGetItem ({"t": {"Keys": [...]}}) and BatchWriteItem ({"t": [{"PutRequest": {"Item": ...}}]}).
  void batch(od::object& body) {
    const bool writes = facts_.operation == "BatchWriteItem";
    od::object tables;
    if (body["RequestItems"].get_object().get(tables) != SUCCESS) return;
    for (auto member : tables) {
      od::field field;
      std::string_view given;
      if (std::move(member).get(field) != SUCCESS || field.unescaped_key().get(given) != SUCCESS) return;
      const std::string name = table_name_of(given);
      table(name);
      const KeyDef* key = with_keys_ ? key_of(name, {}) : nullptr;
      if (key == nullptr) continue;
      od::array list;
      if (writes ? field.value().get_array().get(list) != SUCCESS
                 : field.value()["Keys"].get_array().get(list) != SUCCESS) {
        continue;
      }
      for (auto element : list) {
        od::value request;
        if (std::move(element).get(request) != SUCCESS) break;
        if (!writes) {
          partition_key(request, key->partition.name);
          continue;
        }
        od::object kinds;
        if (request.get_object().get(kinds) != SUCCESS) continue;
        for (auto kind : kinds) {
          od::field write;
          std::string_view name_of_kind;
          if (std::move(kind).get(write) != SUCCESS || write.unescaped_key().get(name_of_kind) != SUCCESS) break;
          od::value item;
          if (write.value()[name_of_kind == "PutRequest" ? "Item" : "Key"].get(item) == SUCCESS) {
            partition_key(item, key->partition.name);
          }
        }
      }
    }
  }

  // TransactGetItems and TransactWriteItems: [{"Put": {"TableName": ..., "Item": ...}}, ...].
  void transaction(od::object& body) {
    od::array items;
    if (body["TransactItems"].get_array().get(items) != SUCCESS) return;
    for (auto element : items) {
      ++facts_.transact_items;
      od::object kinds;
      if (element.get_object().get(kinds) != SUCCESS) continue;
      for (auto member : kinds) {
        od::field field;
        std::string_view kind;
        std::string_view given;
        if (std::move(member).get(field) != SUCCESS || field.unescaped_key().get(kind) != SUCCESS) break;
        const bool put = kind == "Put";
        od::object request;
        if (field.value().get_object().get(request) != SUCCESS ||
            request["TableName"].get_string().get(given) != SUCCESS) {
          continue;
        }
        const std::string name = table_name_of(given);
        table(name);
        const KeyDef* key = with_keys_ ? key_of(name, {}) : nullptr;
        od::value item;
        if (key != nullptr && request[put ? "Item" : "Key"].get(item) == SUCCESS) {
          partition_key(item, key->partition.name);
        }
      }
    }
  }

  // ExecuteStatement's body, or one element of BatchExecuteStatement's
  // Statements / ExecuteTransaction's TransactStatements.
  void statement(od::object& request) {
    std::string_view given;
    if (request["Statement"].get_string().get(given) != SUCCESS) return;
    std::optional<partiql::Statement> parsed;
    try {
      parsed = partiql::parse(std::string(given));
    } catch (const ApiError&) {
      return;  // the operation answers it
    }
    const partiql::TableRef& ref = parsed->table();
    table(ref.table);
    if (ref.index && facts_.index.empty()) facts_.index = *ref.index;
    const KeyDef* key = with_keys_ ? key_of(ref.table, ref.index.value_or("")) : nullptr;
    if (key == nullptr) return;
    std::optional<partiql::NodeId> value;
    if (const auto* insert = std::get_if<partiql::Insert>(&parsed->body)) {
      const partiql::Node& item = parsed->node(insert->value);
      if (item.kind != partiql::NodeKind::Struct) return;
      auto at = std::find(item.keys.begin(), item.keys.end(), key->partition.name);
      if (at != item.keys.end()) value = item.children[static_cast<std::size_t>(at - item.keys.begin())];
    } else if (auto where = where_of(*parsed)) {
      value = partiql_equality(*parsed, *where, key->partition.name);
    }
    if (!value) return;
    const partiql::Node& node = parsed->node(*value);
    if (node.kind == partiql::NodeKind::String || node.kind == partiql::NodeKind::Number) {
      facts_.partition_keys.push_back(node.text);
    } else if (node.kind == partiql::NodeKind::Parameter) {
      parameter(request, node.parameter);
    }
  }

  // BatchExecuteStatement (`member` Statements) and ExecuteTransaction (TransactStatements).
  void statements(od::object& body, const char* member, bool transaction) {
    od::array list;
    if (body[member].get_array().get(list) != SUCCESS) return;
    for (auto element : list) {
      if (transaction) ++facts_.transact_items;
      od::object request;
      if (element.get_object().get(request) == SUCCESS) statement(request);
    }
  }

 private:
  void table(std::string name) {
    if (std::find(facts_.tables.begin(), facts_.tables.end(), name) == facts_.tables.end()) {
      facts_.tables.push_back(std::move(name));
    }
  }

  // The key of `table`, or of its index; null for a table or index that does not exist.
  const KeyDef* key_of(std::string_view table, std::string_view index) {
    table_ = context_.catalog.find(context_.ns, table);
    if (!table_) return nullptr;
    if (index.empty()) return &table_->schema.key;
    const IndexSchema* found = table_->schema.find_index(index);
    return found != nullptr ? &found->key : nullptr;
  }

  // The `partition` member of a Key or an Item.
  void partition_key(od::value key_or_item, const std::string& partition) {
    od::value value;
    if (key_or_item[partition].get(value) != SUCCESS) return;
    if (auto text = scalar_text(value)) facts_.partition_keys.push_back(std::move(*text));
  }

  // A Query's equality on the partition key: KeyConditionExpression, else the
  // legacy KeyConditions. An expression that does not parse fixes nothing.
  void query(od::object& body, const std::string& partition) {
    std::string_view given;
    if (body["KeyConditionExpression"].get_string().get(given) == SUCCESS) {
      const std::string text(given);
      try {
        expr::NameMap names;
        od::object names_json;
        if (body["ExpressionAttributeNames"].get_object().get(names_json) == SUCCESS) {
          for (auto member : names_json) {
            od::field field;
            std::string_view key;
            std::string_view name;
            if (std::move(member).get(field) != SUCCESS || field.unescaped_key().get(key) != SUCCESS) return;
            std::string placeholder(key);
            if (field.value().get_string().get(name) != SUCCESS) return;
            names.emplace(std::move(placeholder), std::string(name));
          }
        }
        expr::ValueMap values;
        od::value values_json;
        if (body["ExpressionAttributeValues"].get(values_json) == SUCCESS) {
          for (const auto& [placeholder, value] : decode_item(values_json)) values.emplace(placeholder, value);
        }
        expr::Placeholders placeholders(&names, &values);
        const expr::Condition condition = expr::parse_condition(text, expr::ConditionKind::KeyCondition, placeholders);
        if (condition.empty()) return;
        if (auto key = key_equality(condition, condition.root, partition)) {
          facts_.partition_keys.push_back(std::move(*key));
        }
      } catch (const ApiError&) {
        // The operation answers it.
      } catch (const simdjson::simdjson_error&) {
      }
      return;
    }
    // {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "x"}]}}
    od::object condition;
    std::string_view op;
    if (body["KeyConditions"][partition].get_object().get(condition) != SUCCESS ||
        condition["ComparisonOperator"].get_string().get(op) != SUCCESS || op != "EQ") {
      return;
    }
    od::array operands;
    if (condition["AttributeValueList"].get_array().get(operands) != SUCCESS) return;
    for (auto element : operands) {
      od::value value;
      if (std::move(element).get(value) != SUCCESS) return;
      if (auto text = scalar_text(value)) facts_.partition_keys.push_back(std::move(*text));
      return;
    }
  }

  // Parameters[n] of a PartiQL statement.
  void parameter(od::object& request, std::uint32_t n) {
    od::array parameters;
    if (request["Parameters"].get_array().get(parameters) != SUCCESS) return;
    std::uint32_t i = 0;
    for (auto element : parameters) {
      od::value value;
      if (std::move(element).get(value) != SUCCESS) return;
      if (i++ != n) continue;
      if (auto text = scalar_text(value)) facts_.partition_keys.push_back(std::move(*text));
      return;
    }
  }

  RequestFacts& facts_;
  const FactsContext& context_;
  bool with_keys_;
  TablePtr table_;  // keeps the schema key_of() points into
};

}  // namespace

RequestFacts request_facts(std::string_view operation, json::object& body, const FactsContext& context,
                           bool with_keys) {
  RequestFacts facts;
  facts.operation = operation;
  facts.arn = context.arn;
  FactsReader reader(facts, context, with_keys);
  if (operation == "BatchGetItem" || operation == "BatchWriteItem") {
    reader.batch(body);
  } else if (operation == "TransactGetItems" || operation == "TransactWriteItems") {
    reader.transaction(body);
  } else if (operation == "ExecuteStatement") {
    reader.statement(body);
  } else if (operation == "BatchExecuteStatement") {
    reader.statements(body, "Statements", false);
  } else if (operation == "ExecuteTransaction") {
    reader.statements(body, "TransactStatements", true);
  } else {
    reader.single(body);
  }
  return facts;
}

}  // namespace dynamod
