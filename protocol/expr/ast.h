#pragma once
// Parsed, resolved expressions: plain value types. Placeholders are already
// substituted (names into paths, values copied in), so an AST can be kept and
// evaluated against many items without the request that produced it.

#include <cstdint>
#include <variant>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/expr/path.h"

namespace dynamod::expr {

enum class CompareOp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
std::string_view compare_op_text(CompareOp op);  // "=", "<>", ...

enum class FunctionKind : std::uint8_t {
  AttributeExists,
  AttributeNotExists,
  AttributeType,
  BeginsWith,
  Contains,
  Size,  // conditions
  IfNotExists,
  ListAppend,  // updates
};
std::string_view function_name(FunctionKind kind);

struct Operand;
struct FunctionCall {
  FunctionKind kind;
  std::vector<Operand> args;
  friend bool operator==(const FunctionCall&, const FunctionCall&);
};
struct Operand {
  std::variant<Path, AttributeValue, FunctionCall> v;
  const Path* path() const { return std::get_if<Path>(&v); }
  const AttributeValue* constant() const { return std::get_if<AttributeValue>(&v); }
  const FunctionCall* call() const { return std::get_if<FunctionCall>(&v); }
  friend bool operator==(const Operand&, const Operand&) = default;
};
inline bool operator==(const FunctionCall& a, const FunctionCall& b) { return a.kind == b.kind && a.args == b.args; }

struct Comparison {
  CompareOp op;
  Operand lhs, rhs;
};
struct Between {
  Operand value, lower, upper;
};
struct In {
  Operand value;
  std::vector<Operand> list;
};
struct FunctionCondition {
  FunctionCall call;  // attribute_exists, attribute_not_exists, attribute_type, begins_with, contains
};
// Children are indices into Condition::nodes.
struct And {
  std::uint32_t left, right;
};
struct Or {
  std::uint32_t left, right;
};
struct Not {
  std::uint32_t child;
};

struct ConditionNode {
  std::variant<Comparison, Between, In, FunctionCondition, And, Or, Not> v;
};

// A boolean expression stored as a flat arena (no recursion through pointers:
// cheap to move, copy and destroy).
struct Condition {
  std::vector<ConditionNode> nodes;
  std::uint32_t root = 0;
  bool empty() const { return nodes.empty(); }  // "always true"
};

// --- UpdateExpression ---
struct Arithmetic {
  bool minus;  // lhs - rhs, else lhs + rhs
  Operand lhs, rhs;
};
struct SetAction {
  Path path;
  std::variant<Operand, Arithmetic> value;
};
struct AddAction {
  Path path;
  AttributeValue value;
  // Legacy AttributeUpdates ADD also appends lists; UpdateExpression ADD does not.
  bool allow_list_append = false;
};
struct DeleteAction {
  Path path;
  AttributeValue value;
};

struct UpdateActions {
  bool legacy = false;  // from AttributeUpdates: the service words type errors differently
  std::vector<SetAction> set;
  std::vector<Path> remove;
  std::vector<AddAction> add;
  std::vector<DeleteAction> del;
  bool empty() const { return set.empty() && remove.empty() && add.empty() && del.empty(); }
};

}  // namespace dynamod::expr
