#include "protocol/partiql/condition.h"

#include "protocol/expr/operand_messages.h"
#include "protocol/expr/value_text.h"

namespace dynamod::partiql {
namespace {

struct FunctionInfo {
  std::string_view name;
  expr::FunctionKind kind;
  std::size_t arity;
  bool condition;  // a condition of its own (all but size, an operand)
};
constexpr FunctionInfo kFunctions[] = {
    {"attribute_exists", expr::FunctionKind::AttributeExists, 1, true},
    {"attribute_not_exists", expr::FunctionKind::AttributeNotExists, 1, true},
    {"attribute_type", expr::FunctionKind::AttributeType, 2, true},
    {"begins_with", expr::FunctionKind::BeginsWith, 2, true},
    {"contains", expr::FunctionKind::Contains, 2, true},
    {"size", expr::FunctionKind::Size, 1, false},
};

// Names in calls are lower-cased by the parser: ATTRIBUTE_EXISTS(x) works.
const FunctionInfo* find_function(std::string_view name) {
  for (const auto& f : kFunctions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// IS <type>: the types DynamoDB tests for, by the canonical names the
// parser gives them, and DynamoDB's own type for each.
std::optional<AttributeType> is_type(std::string_view canonical) {
  struct Entry {
    std::string_view name;
    AttributeType type;
  };
  static constexpr Entry kTypes[] = {
      {"NULL", AttributeType::NUL}, {"BOOLEAN", AttributeType::BOOL}, {"BLOB", AttributeType::B},
      {"STRING", AttributeType::S}, {"NUMERIC", AttributeType::N},    {"STRUCT", AttributeType::M},
      {"TUPLE", AttributeType::M},  {"LIST", AttributeType::L},
  };
  for (const auto& t : kTypes) {
    if (t.name == canonical) return t.type;
  }
  return std::nullopt;
}

[[noreturn]] void fail(std::string message) { throw ApiError::validation(std::move(message)); }

// Arithmetic, a sign before what is no number, and LIKE parse (PartiQL has
// them) but are no condition or operand DynamoDB evaluates.
void refuse_operator(const Node& n) {
  if (n.kind == NodeKind::Like) fail("Unsupported operator in Condition Expression. Operator: like");
  if (n.kind == NodeKind::Arithmetic || n.kind == NodeKind::Unary) {
    fail("Unsupported operator in Condition Expression. Operator: " + n.text);
  }
}

// A path or a value where a condition must be, as an argument of `parent`
// (NOT, AND or OR; empty: the whole WHERE clause).
[[noreturn]] void not_a_condition(std::string_view parent) {
  if (parent.empty()) fail("WHERE clause must contain an expression that resolves to a boolean");
  if (parent == "NOT") fail("The argument to NOT must be a Type or Expression");
  fail("The arguments to AND/OR must be Expressions");
}

// A function that is an operand, not a condition (size).
bool is_operand_function(const Node& n) {
  if (n.kind != NodeKind::Call) return false;
  const FunctionInfo* f = find_function(n.text);
  return f && !f->condition;
}

// Anything but a path or a value: an expression, whatever its type.
bool is_expression(const Node& n) {
  switch (n.kind) {
    case NodeKind::Path:
    case NodeKind::String:
    case NodeKind::Number:
    case NodeKind::Boolean:
    case NodeKind::Null:
    case NodeKind::List:
    case NodeKind::Struct:
    case NodeKind::Bag:
    case NodeKind::Parameter: return false;
    default: return true;
  }
}

// Each node under `id` as the parser completes it (post-order, left to
// right): an operator DynamoDB does not have, MISSING outside IS, and the
// arguments of NOT, AND and OR.
void check_construction(const Statement& s, NodeId id) {
  const Node& n = s.node(id);
  // (An operator refuses itself before its operands: the outermost first.)
  refuse_operator(n);
  if (n.kind == NodeKind::Missing) misplaced_missing();
  for (NodeId child : n.children) check_construction(s, child);
  if (n.kind == NodeKind::Not && !is_expression(s.node(n.children[0]))) not_a_condition("NOT");
  if ((n.kind == NodeKind::And || n.kind == NodeKind::Or) &&
      (!is_expression(s.node(n.children[0])) || !is_expression(s.node(n.children[1])))) {
    not_a_condition("AND");
  }
}

std::optional<AttributeType> static_type(const expr::Operand& o) {
  if (const auto* v = o.constant()) return v->type();
  if (const auto* c = o.call(); c && c->kind == expr::FunctionKind::Size) return AttributeType::N;
  return std::nullopt;
}

void check_type(const expr::Operand& o, std::string_view op, std::initializer_list<AttributeType> allowed) {
  if (auto message = expr::wrong_operand_type(static_type(o), op, allowed)) fail(std::move(*message));
}

// `<`, `<=`, `>`, `>=` and BETWEEN refuse an operand whose own type has no
// order, whatever the other side is.
void check_ordered(const expr::Operand& o, std::string_view op) {
  check_type(o, op, {AttributeType::N, AttributeType::S, AttributeType::B});
}

void require_path(const expr::Operand& o, std::string_view op) {
  if (!o.path()) fail(expr::document_path_required(op));
}

void check_distinct(const std::vector<const expr::Operand*>& ops, std::string_view op) {
  if (auto message = expr::repeated_first_operand(ops, op)) fail(std::move(*message));
}

class Builder {
 public:
  Builder(const Statement& s, const Parameters& parameters) : s_(s), parameters_(parameters) {}

  expr::Condition out;

  // `parent`: the operator the condition is an argument of (AND, OR or NOT),
  // empty for the whole WHERE clause; it words the error for what is no
  // condition (DynamoDB Local).
  std::uint32_t condition(NodeId id, std::string_view parent) {
    const Node& n = s_.node(id);
    switch (n.kind) {
      case NodeKind::And:
      case NodeKind::Or: {
        const std::string_view op = n.kind == NodeKind::And ? "AND" : "OR";
        const auto l = argument(n.children[0], op);
        const auto r = argument(n.children[1], op);
        if (!l || !r) operand_function_in(op);
        if (n.kind == NodeKind::And) return push({expr::And{*l, *r}});
        return push({expr::Or{*l, *r}});
      }
      case NodeKind::Not: {
        const auto c = argument(n.children[0], "NOT");
        if (!c) operand_function_in("NOT");
        return push({expr::Not{*c}});
      }
      case NodeKind::Compare: return compare(n);
      case NodeKind::Between: {
        expr::Between b{operand(n.children[0]), operand(n.children[1]), operand(n.children[2])};
        check_distinct({&b.value, &b.lower, &b.upper}, "BETWEEN");
        for (const auto* o : {&b.value, &b.lower, &b.upper}) check_ordered(*o, "BETWEEN");
        // Bounds known before any item is read must be of one type and in order.
        if (b.lower.constant() && b.upper.constant()) {
          expr::check_between_bounds(*b.lower.constant(), *b.upper.constant(), "");
        }
        return negated(push({std::move(b)}), n.flag);
      }
      case NodeKind::In: {
        expr::In in{operand(n.children[0]), {}};
        for (std::size_t i = 1; i < n.children.size(); ++i) in.list.push_back(operand(n.children[i]));
        std::vector<const expr::Operand*> ops{&in.value};
        for (const auto& o : in.list) ops.push_back(&o);
        check_distinct(ops, "IN");
        return negated(push({std::move(in)}), n.flag);
      }
      case NodeKind::Is: return is(n);
      case NodeKind::Call:
        if (is_operand_function(n)) not_a_condition("");  // (arguments are taken by argument())
        return push({expr::FunctionCondition{call(n, true)}});
      case NodeKind::Missing: misplaced_missing();
      default: refuse_operator(n); not_a_condition(parent);
    }
  }

  // An argument of NOT, AND or OR, built; none for an operand function (size),
  // which its operator refuses once its other arguments are built.
  std::optional<std::uint32_t> argument(NodeId id, std::string_view op) {
    if (is_operand_function(s_.node(id))) return std::nullopt;
    return condition(id, op);
  }

  [[noreturn]] static void operand_function_in(std::string_view op) {
    fail("Incorrect operand type for operator or function; operator or function: " + std::string(op) +
         ", operand type: N");
  }

  // The AND of the terms, in order: ((t0 AND t1) AND t2)... (A subset of a
  // clause's terms was built whole first, for its errors.)
  void all(const std::vector<NodeId>& terms) {
    if (terms.size() == 1) {
      out.root = condition(terms.front(), "");
      return;
    }
    std::optional<std::uint32_t> root;
    bool first_is_operand = false;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const auto c = argument(terms[i], "AND");
      if (i == 0) {
        first_is_operand = !c;
        root = c;
        continue;
      }
      if (!c || first_is_operand) operand_function_in("AND");
      root = push({expr::And{*root, *c}});
    }
    if (root) out.root = *root;
  }

  expr::Operand operand(NodeId id) {
    const Node& n = s_.node(id);
    if (n.kind == NodeKind::Path) return expr::Operand{n.path};
    if (n.kind == NodeKind::Call) return expr::Operand{call(n, false)};
    if (n.kind == NodeKind::Missing) misplaced_missing();
    refuse_operator(n);
    if (!is_constant(s_, id)) fail("Unsupported expression in the WHERE clause" + n.pos.suffix());
    return expr::Operand{constant_value(s_, id, parameters_)};
  }

 private:
  std::uint32_t push(expr::ConditionNode node) {
    out.nodes.push_back(std::move(node));
    return static_cast<std::uint32_t>(out.nodes.size() - 1);
  }
  std::uint32_t negated(std::uint32_t id, bool negate) { return negate ? push({expr::Not{id}}) : id; }

  // A condition where a value may stand: a comparison, BETWEEN, IN, IS, AND,
  // OR, NOT or a condition function.
  bool is_condition(const Node& n) const {
    switch (n.kind) {
      case NodeKind::Compare:
      case NodeKind::Between:
      case NodeKind::In:
      case NodeKind::Is:
      case NodeKind::And:
      case NodeKind::Or:
      case NodeKind::Not: return true;
      case NodeKind::Call: {
        const FunctionInfo* f = find_function(n.text);
        return f && f->condition;
      }
      default: return false;
    }
  }

  std::uint32_t compare(const Node& n) {
    const Node& l = s_.node(n.children[0]);
    const Node& r = s_.node(n.children[1]);
    // attribute_exists(x) = true, (a = 1) <> false: the condition's own truth
    // value. (DynamoDB Local compares a condition with other values too; an
    // operand here is a path, a value or size().)
    const bool equality = n.op == expr::CompareOp::Eq || n.op == expr::CompareOp::Ne;
    if (equality &&
        ((is_condition(l) && r.kind == NodeKind::Boolean) || (is_condition(r) && l.kind == NodeKind::Boolean))) {
      const bool left = is_condition(l);
      const bool expected = (left ? r : l).flag == (n.op == expr::CompareOp::Eq);
      // (A condition: its parent never words an error.)
      return negated(condition(n.children[left ? 0 : 1], "="), !expected);
    }
    expr::Comparison c{n.op, operand(n.children[0]), operand(n.children[1])};
    const std::string_view op = expr::compare_op_text(n.op);
    check_distinct({&c.lhs, &c.rhs}, op);
    if (!equality) {
      check_ordered(c.lhs, op);
      check_ordered(c.rhs, op);
    }
    return push({std::move(c)});
  }

  std::uint32_t is(const Node& n) {
    check_is(s_, n);
    const NodeId target = n.children[0];
    expr::FunctionCall c;
    if (n.text == "MISSING") {
      c.kind = n.flag ? expr::FunctionKind::AttributeExists : expr::FunctionKind::AttributeNotExists;
      // DynamoDB Local names attribute_not_exists for a literal IS NOT MISSING too.
      if (s_.node(target).kind != NodeKind::Path) fail(expr::document_path_required("attribute_not_exists"));
      c.args = {operand(target)};
      return push({expr::FunctionCondition{std::move(c)}});
    }
    c.kind = expr::FunctionKind::AttributeType;
    c.args = {operand(target), expr::Operand{AttributeValue::string(std::string(type_name(*is_type(n.text))))}};
    return negated(push({expr::FunctionCondition{std::move(c)}}), n.flag);
  }

  expr::FunctionCall call(const Node& n, bool as_condition) {
    const FunctionInfo* f = find_function(n.text);
    // The update expression's functions are known, and refused as a condition expression refuses them.
    if (!f && (n.text == "list_append" || n.text == "if_not_exists")) {
      fail("The function is not allowed in a condition expression; function: " + n.text);
    }
    if (!f) fail("Unrecognized function: " + n.text + n.pos.suffix());
    const std::string name(f->name);
    if (f->condition != as_condition) {
      fail("The function is not allowed to be used this way in an expression; function: " + name);
    }
    expr::FunctionCall c{f->kind, {}};
    for (NodeId a : n.children) c.args.push_back(operand(a));
    if (c.args.size() != f->arity) {
      fail("Incorrect number of operands for operator or function; operator or function: " + name +
           ", number of operands: " + std::to_string(c.args.size()));
    }
    switch (f->kind) {
      case expr::FunctionKind::AttributeExists:
      case expr::FunctionKind::AttributeNotExists: require_path(c.args[0], name); break;
      case expr::FunctionKind::AttributeType:
        require_path(c.args[0], name);
        check_distinct({&c.args[0], &c.args[1]}, name);
        check_type(c.args[1], name, {AttributeType::S});
        if (const auto* t = c.args[1].constant(); t && !expr::parse_type_name(t->as_string())) {
          fail("Invalid attribute type name found; type: " + t->as_string() +
               ", valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}");
        }
        break;
      case expr::FunctionKind::BeginsWith:
        check_distinct({&c.args[0], &c.args[1]}, name);
        check_type(c.args[0], name, {AttributeType::S, AttributeType::B});
        check_type(c.args[1], name, {AttributeType::S, AttributeType::B});
        break;
      case expr::FunctionKind::Size:
        check_type(c.args[0], name,
                   {AttributeType::S, AttributeType::B, AttributeType::SS, AttributeType::NS, AttributeType::BS,
                    AttributeType::L, AttributeType::M});
        break;
      case expr::FunctionKind::Contains: check_distinct({&c.args[0], &c.args[1]}, name); break;
      default: break;
    }
    return c;
  }

  const Statement& s_;
  const Parameters& parameters_;
};

void collect_paths(const Statement& s, NodeId id, std::vector<const expr::Path*>& out) {
  const Node& n = s.node(id);
  if (n.kind == NodeKind::Path) out.push_back(&n.path);
  for (NodeId c : n.children) collect_paths(s, c, out);
}

void flatten_and(const Statement& s, NodeId id, std::vector<NodeId>& out) {
  const Node& n = s.node(id);
  if (n.kind != NodeKind::And) {
    out.push_back(id);
    return;
  }
  flatten_and(s, n.children[0], out);
  flatten_and(s, n.children[1], out);
}

}  // namespace

void check_is(const Statement& s, const Node& is) {
  switch (s.node(is.children[0]).kind) {
    case NodeKind::Path:
    case NodeKind::String:
    case NodeKind::Number:
    case NodeKind::Boolean:
    case NodeKind::Null: break;
    default: fail("The left hand side argument to IS must be a Variable Reference, Literal, or Path");
  }
  if (is.text != "MISSING" && !is_type(is.text)) {
    fail("Unsupported data type for IS operator: " + is.text +
         ". Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]" +
         is.pos.suffix());
  }
}

void check_condition_shape(const Statement& s, NodeId where) {
  check_construction(s, where);
  const Node& n = s.node(where);
  if (!is_expression(n) || is_operand_function(n)) not_a_condition("");
}

std::vector<NodeId> and_terms(const Statement& s, std::optional<NodeId> where) {
  std::vector<NodeId> out;
  if (where) flatten_and(s, *where, out);
  return out;
}

expr::Condition build_condition(const Statement& s, const std::vector<NodeId>& terms, const Parameters& parameters) {
  Builder b(s, parameters);
  b.all(terms);
  return std::move(b.out);
}

expr::Condition exists_condition(const std::string& attribute, bool exists) {
  expr::Condition c;
  expr::FunctionCall call{exists ? expr::FunctionKind::AttributeExists : expr::FunctionKind::AttributeNotExists,
                          {expr::Operand{expr::make_path(attribute)}}};
  c.nodes.push_back({expr::FunctionCondition{std::move(call)}});
  return c;
}

expr::Condition join(expr::Condition a, expr::Condition b, Join how) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  // b's nodes move behind a's: their child indexes shift by as much.
  const auto offset = static_cast<std::uint32_t>(a.nodes.size());
  for (auto& node : b.nodes) {
    std::visit(
        [&](auto& n) {
          using N = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<N, expr::And> || std::is_same_v<N, expr::Or>) {
            n.left += offset;
            n.right += offset;
          } else if constexpr (std::is_same_v<N, expr::Not>) {
            n.child += offset;
          }
        },
        node.v);
    a.nodes.push_back(std::move(node));
  }
  const std::uint32_t left = a.root;
  const std::uint32_t right = b.root + offset;
  if (how == Join::And) {
    a.nodes.push_back({expr::And{left, right}});
  } else {
    a.nodes.push_back({expr::Or{left, right}});
  }
  a.root = static_cast<std::uint32_t>(a.nodes.size() - 1);
  return a;
}

std::vector<const expr::Path*> condition_paths(const Statement& s, const std::vector<NodeId>& terms) {
  std::vector<const expr::Path*> out;
  for (NodeId t : terms) collect_paths(s, t, out);
  return out;
}

}  // namespace dynamod::partiql
