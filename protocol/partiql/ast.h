#pragma once
// A parsed PartiQL statement: plain values. Expressions live in one arena
// (Statement::nodes) and refer to each other by index; parameters are still
// `?` placeholders, numbered left to right.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/expr/ast.h"
#include "protocol/expr/path.h"
#include "protocol/partiql/lexer.h"

namespace dynamod::partiql {

using NodeId = std::uint32_t;

enum class NodeKind : std::uint8_t {
  Path,     // path
  String,   // text: the value
  Number,   // text: as written (a leading '-' included)
  Boolean,  // flag: the value
  Null,
  Missing,
  List,        // children: the elements
  Struct,      // keys and children: the members in order
  Bag,         // children: the elements (<<...>>)
  Parameter,   // parameter: its number
  Call,        // text: the function name in lower case; children: the arguments
  Not,         // children[0]
  And,         // children[0], children[1]
  Or,          // children[0], children[1]
  Compare,     // op; children: lhs, rhs
  Between,     // flag: NOT BETWEEN; children: value, lower, upper
  In,          // flag: NOT IN; children[0]: the value, the rest: the list
  Is,          // flag: IS NOT; text: MISSING, NULL or a type name in upper case; children[0]
  Arithmetic,  // text: + - * / % or ||; flag: minus; children: lhs, rhs; pos: the operator's
  Unary,       // text: + or - before what is not a number literal; children[0]; pos: the operator's
  Like,        // flag: NOT LIKE; children: value, pattern (and ESCAPE's); op_pos: LIKE's or NOT's
};

struct Node {
  NodeKind kind = NodeKind::Null;
  Position pos;  // its first token (a call: the function name)
  // Compare, Between, In, Like: the operator (NOT of NOT IN), which the
  // service names when the expression stands where a path must.
  Position op_pos;
  std::string text;
  expr::Path path;
  std::vector<NodeId> children;
  std::vector<std::string> keys;
  expr::CompareOp op = expr::CompareOp::Eq;
  bool flag = false;
  std::uint32_t parameter = 0;
};

// FROM "table" or "table"."index".
struct TableRef {
  std::string table;
  std::optional<std::string> index;
  Position pos;
  // "" as the table or index: a SELECT's is refused once the statement has
  // parsed, an UPDATE's or DELETE's once its own checks have passed
  // (check_table_name), and INSERT looks the table "" up (DynamoDB Local).
  bool empty_component = false;
};
inline constexpr std::string_view kEmptyPathComponent = "Path component cannot be an empty string";

enum class ReturnImage : std::uint8_t { AllOld, ModifiedOld, AllNew, ModifiedNew };

struct Returning {
  ReturnImage image = ReturnImage::AllOld;
  std::string text;  // "RETURNING ALL OLD *" as written, for messages
};

// One element of a select list: a path, returned under `name` (its last
// component onwards, as written: m.c -> "c", l[1] -> "l[1]").
struct SelectItem {
  expr::Path path;
  std::string name;
};

struct OrderBy {
  expr::Path path;
  bool descending = false;
  Position pos;
};

struct Select {
  std::optional<std::vector<SelectItem>> projection;  // nullopt: *
  TableRef from;
  std::optional<NodeId> where;
  std::vector<OrderBy> order_by;  // ORDER BY a, b DESC: in statement order
};

struct Insert {
  TableRef into;
  NodeId value = 0;
  std::optional<Returning> returning;
};

// SET path = value, or REMOVE path (value unset); in order of appearance.
struct UpdateAction {
  NodeId path = 0;
  std::optional<NodeId> value;
};

struct Update {
  TableRef table;
  std::vector<UpdateAction> actions;
  std::optional<NodeId> where;
  std::optional<Returning> returning;
};

struct Delete {
  TableRef from;
  std::optional<NodeId> where;
  std::optional<Returning> returning;
};

// EXISTS(SELECT ...): a condition check inside ExecuteTransaction.
struct Exists {
  Select select;
};

enum class StatementKind : std::uint8_t { Select, Insert, Update, Delete, Exists };

struct Statement {
  std::variant<Select, Insert, Update, Delete, Exists> body;
  std::vector<Node> nodes;
  std::uint32_t parameter_count = 0;
  // A statement that parses but is refused (an alias, an empty table name):
  // check_parsed names it first, in a transaction as the statement's own error.
  std::optional<std::string> refusal;
  // `SELECT * FROM t x = 1` (a WHERE left out): PartiQL reads an expression
  // around a SELECT. Its body is an Exists, refused as one outside a
  // transaction; a transaction refuses it as an operation it does not run.
  bool wrapped_select = false;

  const Node& node(NodeId id) const { return nodes[id]; }
  StatementKind kind() const { return static_cast<StatementKind>(body.index()); }
  const TableRef& table() const;
  const std::optional<Returning>& returning() const;  // always empty for SELECT and EXISTS
};

}  // namespace dynamod::partiql
