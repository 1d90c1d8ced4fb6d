// Stages 2.. of parsing: the semantic passes over a syntax tree, in the order
// the service applies them (established against DynamoDB Local, see
// /work/notes/expressions.md):
//   1. operator count, 2. redundant parentheses, 3. an in-order walk for
//   function names and where functions may appear, reserved words, list
//   index range, path depth, IN size, duplicate update sections, 4. (update,
//   projection) overlapping paths, 5. resolution of #names/:values and
//   operand type checks.
#include <charconv>

#include "protocol/api_error.h"
#include "protocol/base64.h"
#include "protocol/expr/expression.h"
#include "protocol/expr/operand_messages.h"
#include "protocol/expr/reserved_words.h"
#include "protocol/expr/syntax.h"
#include "protocol/expr/value_text.h"

namespace dynamod::expr {
namespace {

using syntax::Kind;
using syntax::kNone;
using syntax::Node;
using syntax::Tree;

constexpr int kMaxOperators = 300;
constexpr std::uint32_t kMaxInOperands = 100;
constexpr std::uint64_t kMaxListIndex = 2147483647;  // a Java int

enum class Context : std::uint8_t { Condition, Update, Projection };

std::string_view kind_prefix(ConditionKind kind) {
  switch (kind) {
    case ConditionKind::Condition: return "Invalid ConditionExpression: ";
    case ConditionKind::Filter: return "Invalid FilterExpression: ";
    case ConditionKind::KeyCondition: return "Invalid KeyConditionExpression: ";
  }
  return "";
}

struct FunctionInfo {
  std::string_view name;
  FunctionKind kind;
  std::uint8_t arity;
};
constexpr FunctionInfo kFunctions[] = {
    {"attribute_exists", FunctionKind::AttributeExists, 1},
    {"attribute_not_exists", FunctionKind::AttributeNotExists, 1},
    {"attribute_type", FunctionKind::AttributeType, 2},
    {"begins_with", FunctionKind::BeginsWith, 2},
    {"contains", FunctionKind::Contains, 2},
    {"size", FunctionKind::Size, 1},
    {"if_not_exists", FunctionKind::IfNotExists, 2},
    {"list_append", FunctionKind::ListAppend, 2},
};
const FunctionInfo* find_function(std::string_view name) {
  for (const auto& f : kFunctions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}
bool is_update_function(FunctionKind k) { return k == FunctionKind::IfNotExists || k == FunctionKind::ListAppend; }

CompareOp compare_op(TokenKind k) {
  switch (k) {
    case TokenKind::Eq: return CompareOp::Eq;
    case TokenKind::Ne: return CompareOp::Ne;
    case TokenKind::Lt: return CompareOp::Lt;
    case TokenKind::Le: return CompareOp::Le;
    case TokenKind::Gt: return CompareOp::Gt;
    default: return CompareOp::Ge;
  }
}

class Resolver {
 public:
  Resolver(const Tree& t, Placeholders& p, Context ctx, std::string prefix)
      : t_(t), p_(p), ctx_(ctx), prefix_(std::move(prefix)) {}

  [[noreturn]] void fail(std::string_view detail) const { throw ApiError::validation(prefix_ + std::string(detail)); }

  // --- pass: operator count ---
  void check_operator_count() const {
    int count = 0;
    auto visit = [&](auto&& self, std::uint32_t id) -> void {
      if (id == kNone) return;
      const Node& n = t_.nodes[id];
      switch (n.kind) {
        case Kind::Compare:
        case Kind::Between:
        case Kind::In:
        case Kind::And:
        case Kind::Or:
        case Kind::Not:
        case Kind::Call:
        case Kind::Arith:
          if (++count > kMaxOperators) fail("The expression contains too many operators; operator count: 301");
          break;
        default: break;
      }
      if (n.kind == Kind::Path || n.kind == Kind::ValueRef) return;
      self(self, n.a);
      self(self, n.b);
      self(self, n.c);
      if (n.kind == Kind::Call || n.kind == Kind::In) {
        for (std::uint32_t i = 0; i < n.list_size; ++i) self(self, t_.list(n)[i]);
      }
    };
    visit_roots([&](std::uint32_t id) { visit(visit, id); });
  }

  // --- pass: redundant parentheses ---
  void check_parentheses() const {
    auto visit = [&](auto&& self, std::uint32_t id) -> void {
      if (id == kNone) return;
      const Node& n = t_.nodes[id];
      if (n.kind == Kind::Path || n.kind == Kind::ValueRef) return;
      if ((n.kind == Kind::Paren || n.kind == Kind::Group || n.kind == Kind::ArithParen) && n.a != kNone) {
        Kind inner = t_.nodes[n.a].kind;
        if (inner == Kind::Paren || inner == Kind::Group || inner == Kind::ArithParen) {
          fail("The expression has redundant parentheses;");
        }
      }
      self(self, n.a);
      self(self, n.b);
      self(self, n.c);
      if (n.kind == Kind::Call || n.kind == Kind::In) {
        for (std::uint32_t i = 0; i < n.list_size; ++i) self(self, t_.list(n)[i]);
      }
    };
    visit_roots([&](std::uint32_t id) { visit(visit, id); });
  }

  // --- pass: functions, reserved words, indexes, depth (in order) ---
  enum class Use : std::uint8_t { Condition, Operand, ArithOperand };

  void check_structure() const {
    if (ctx_ == Context::Update) {
      // The duplicate-section check runs as each section ends, between the
      // checks of that section's actions and those of the next.
      static constexpr std::string_view kNames[] = {"SET", "REMOVE", "ADD", "DELETE"};
      bool used[4] = {false, false, false, false};
      for (std::size_t i = 0; i < t_.actions.size(); ++i) {
        const auto& a = t_.actions[i];
        check_path_structure(a.path);
        if (a.section == TokenKind::Set) check_node(a.value, Use::Operand);
        const bool section_ends = i + 1 == t_.actions.size() || t_.actions[i + 1].starts_section;
        if (!section_ends) continue;
        const int k = a.section == TokenKind::Set      ? 0
                      : a.section == TokenKind::Remove ? 1
                      : a.section == TokenKind::Add    ? 2
                                                       : 3;
        if (used[k]) {
          fail("The \"" + std::string(kNames[k]) + "\" section can only be used once in an update expression;");
        }
        used[k] = true;
      }
      return;
    }
    if (ctx_ == Context::Projection) {
      for (auto p : t_.paths) check_path_structure(p);
      return;
    }
    check_node(t_.root, Use::Condition);
  }

  void check_node(std::uint32_t id, Use use) const {
    const Node& n = t_.nodes[id];
    switch (n.kind) {
      case Kind::Path: check_path_structure(id); return;
      case Kind::ValueRef: return;
      case Kind::Paren:
      case Kind::ArithParen: check_node(n.a, use); return;
      case Kind::Group:
      case Kind::Not: check_node(n.a, Use::Condition); return;
      case Kind::And:
      case Kind::Or:
        check_node(n.a, Use::Condition);
        check_node(n.b, Use::Condition);
        return;
      case Kind::Compare:
        check_node(n.a, Use::Operand);
        check_node(n.b, Use::Operand);
        return;
      case Kind::Between:
        check_node(n.a, Use::Operand);
        check_node(n.b, Use::Operand);
        check_node(n.c, Use::Operand);
        return;
      case Kind::In:
        if (n.list_size > kMaxInOperands) {
          fail("The IN operator is provided with too many operands; number of operands: " +
               std::to_string(n.list_size));
        }
        check_node(n.a, Use::Operand);
        for (std::uint32_t i = 0; i < n.list_size; ++i) check_node(t_.list(n)[i], Use::Operand);
        return;
      case Kind::Arith:
        check_node(n.a, Use::ArithOperand);
        check_node(n.b, Use::ArithOperand);
        return;
      case Kind::FuncCond: check_call(n.a, Use::Condition); return;
      case Kind::Call: check_call(id, use); return;
    }
  }

  void check_call(std::uint32_t id, Use use) const {
    const Node& n = t_.nodes[id];
    std::string_view name = t_.token_text(n.token);
    const FunctionInfo* f = find_function(name);
    if (!f) fail("Invalid function name; function: " + std::string(name));
    const std::string fname(name);
    if (ctx_ == Context::Update) {
      if (!is_update_function(f->kind)) fail("The function is not allowed in an update expression; function: " + fname);
      if (use == Use::ArithOperand && f->kind == FunctionKind::ListAppend) {
        fail("The function is not allowed to be used this way in an expression; function: " + fname);
      }
      // list_append is a whole SET operand only: as an argument of list_append or if_not_exists
      // it parses but is refused, while if_not_exists nests anywhere (the service and DynamoDB
      // Local; docs/service-fidelity.md).
      for (std::uint32_t i = 0; i < n.list_size; ++i) {
        const Node& arg = t_.nodes[unparen(t_.list(n)[i])];
        const FunctionInfo* inner = arg.kind == Kind::Call ? find_function(t_.token_text(arg.token)) : nullptr;
        if (inner && inner->kind == FunctionKind::ListAppend) {
          fail("The function is not allowed to be used this way in an expression; function: list_append");
        }
      }
    } else {
      if (is_update_function(f->kind))
        fail("The function is not allowed in a condition expression; function: " + fname);
      bool is_operand_function = f->kind == FunctionKind::Size;
      if ((use == Use::Condition) == is_operand_function) {
        fail("The function is not allowed to be used this way in an expression; function: " + fname);
      }
    }
    for (std::uint32_t i = 0; i < n.list_size; ++i) check_node(t_.list(n)[i], Use::Operand);
  }

  void check_path_structure(std::uint32_t id) const {
    const Node& n = t_.nodes[id];
    for (std::uint32_t i = 0; i < n.list_size; ++i) {
      const std::uint32_t tok = t_.list(n)[i];
      const TokenKind k = t_.tokens[tok].kind;
      std::string_view text = t_.token_text(tok);
      if (k == TokenKind::Id && is_reserved_word(text)) {
        fail("Attribute name is a reserved keyword; reserved keyword: " + std::string(text));
      }
      if (k == TokenKind::Index && parse_index(text) > kMaxListIndex) {
        fail("List index is not within the allowable range; index: [" + std::string(text) + "]");
      }
    }
    if (n.list_size > kMaxPathDepth) {
      fail("The document path has too many nesting levels; nesting levels: " + std::to_string(n.list_size));
    }
  }

  static std::uint64_t parse_index(std::string_view digits) {
    if (digits.size() > 12) return UINT64_MAX;
    std::uint64_t v = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), v);
    return v;
  }

  // --- pass: resolution ---
  Path resolve_path(std::uint32_t id) {
    const Node& n = t_.nodes[id];
    Path path;
    path.steps.reserve(n.list_size);
    for (std::uint32_t i = 0; i < n.list_size; ++i) {
      const std::uint32_t tok = t_.list(n)[i];
      const TokenKind k = t_.tokens[tok].kind;
      std::string_view text = t_.token_text(tok);
      if (k == TokenKind::Index) {
        path.steps.push_back(PathStep{static_cast<std::uint32_t>(parse_index(text))});
      } else if (k == TokenKind::NameRef) {
        const std::string* name = p_.find_name(text);
        if (!name) {
          fail("An expression attribute name used in the document path is not defined; attribute name: " +
               std::string(text));
        }
        path.steps.push_back(PathStep{*name});
      } else {
        path.steps.push_back(PathStep{std::string(text)});
      }
    }
    return path;
  }

  const AttributeValue& resolve_value(std::uint32_t token) {
    std::string_view text = t_.token_text(token);
    const AttributeValue* v = p_.find_value(text);
    if (!v)
      fail("An expression attribute value used in expression is not defined; attribute value: " + std::string(text));
    return *v;
  }

  std::uint32_t unparen(std::uint32_t id) const {
    while (t_.nodes[id].kind == Kind::Paren || t_.nodes[id].kind == Kind::ArithParen) id = t_.nodes[id].a;
    return id;
  }

  Operand resolve_operand(std::uint32_t id) {
    id = unparen(id);
    const Node& n = t_.nodes[id];
    switch (n.kind) {
      case Kind::Path: return Operand{resolve_path(id)};
      case Kind::ValueRef: return Operand{resolve_value(n.token)};
      default: return Operand{resolve_call(id)};
    }
  }

  // The type an operand is known to have before evaluation, for the checks
  // the service makes on constants and function results; null if unknown.
  static std::optional<AttributeType> static_type(const Operand& o) {
    if (const auto* v = o.constant()) return v->type();
    if (const auto* c = o.call()) {
      if (c->kind == FunctionKind::Size) return AttributeType::N;
      if (c->kind == FunctionKind::ListAppend) return AttributeType::L;
    }
    return std::nullopt;
  }

  void check_operand_type(const Operand& o, std::string_view op, std::initializer_list<AttributeType> allowed) const {
    if (auto message = wrong_operand_type(static_type(o), op, allowed)) fail(*message);
  }

  void require_path(const Operand& o, std::string_view op) const {
    if (!o.path()) fail(document_path_required(op));
  }

  void check_distinct(const std::vector<const Operand*>& ops, std::string_view op) const {
    if (auto message = repeated_first_operand(ops, op)) fail(*message);
  }

  FunctionCall resolve_call(std::uint32_t id) {
    const Node& n = t_.nodes[id];
    const FunctionInfo* f = find_function(t_.token_text(n.token));  // validated by check_structure
    // Post-order: operands are resolved (and their errors reported) first.
    FunctionCall call{f->kind, {}};
    call.args.reserve(n.list_size);
    for (std::uint32_t i = 0; i < n.list_size; ++i) call.args.push_back(resolve_operand(t_.list(n)[i]));
    if (n.list_size != f->arity) {
      fail("Incorrect number of operands for operator or function; operator or function: " + std::string(f->name) +
           ", number of operands: " + std::to_string(n.list_size));
    }
    const std::string_view name = f->name;
    auto& args = call.args;
    switch (f->kind) {
      case FunctionKind::AttributeExists:
      case FunctionKind::AttributeNotExists: require_path(args[0], name); break;
      case FunctionKind::AttributeType: {
        check_distinct({&args[0], &args[1]}, name);
        const Operand& t = args[1];
        if (const auto* v = t.constant()) {
          if (v->type() != AttributeType::S) check_operand_type(t, name, {AttributeType::S});
          if (!parse_type_name(v->as_string())) {
            fail("Invalid attribute type name found; type: " + v->as_string() +
                 ", valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}");
          }
        } else if (t.path()) {
          fail(
              "Incorrect operand type for operator or function; operator or function: attribute_type, operand type: "
              "{BOOL,DOUBLE,INT,N,DOUBLESET,DICT,HDS,NS,BS,L,SS,DECIMALSET,FS,FLOAT,DECIMAL,S,HD,B,INTSET,NULL,M}");
        } else {
          check_operand_type(t, name, {AttributeType::S});
        }
        // No document-path check on the first operand: the service has none
        // (attribute_type(:v, :t) reaches its key-condition checks).
        break;
      }
      case FunctionKind::BeginsWith:
        check_distinct({&args[0], &args[1]}, name);
        check_operand_type(args[0], name, {AttributeType::S, AttributeType::B});
        check_operand_type(args[1], name, {AttributeType::S, AttributeType::B});
        break;
      case FunctionKind::Contains: check_distinct({&args[0], &args[1]}, name); break;
      case FunctionKind::Size:
        check_operand_type(args[0], name,
                           {AttributeType::S, AttributeType::B, AttributeType::SS, AttributeType::NS, AttributeType::BS,
                            AttributeType::L, AttributeType::M});
        break;
      case FunctionKind::IfNotExists: require_path(args[0], name); break;
      case FunctionKind::ListAppend:
        check_operand_type(args[0], name, {AttributeType::L});
        check_operand_type(args[1], name, {AttributeType::L});
        break;
    }
    return call;
  }

  std::uint32_t resolve_condition(std::uint32_t id, Condition& out) {
    const Node& n = t_.nodes[id];
    ConditionNode result;
    switch (n.kind) {
      case Kind::Group: return resolve_condition(n.a, out);
      case Kind::Not: {
        std::uint32_t child = resolve_condition(n.a, out);
        result.v = Not{child};
        break;
      }
      case Kind::And:
      case Kind::Or: {
        std::uint32_t l = resolve_condition(n.a, out);
        std::uint32_t r = resolve_condition(n.b, out);
        if (n.kind == Kind::And) {
          result.v = And{l, r};
        } else {
          result.v = Or{l, r};
        }
        break;
      }
      case Kind::Compare: {
        Comparison c{compare_op(static_cast<TokenKind>(n.op)), resolve_operand(n.a), resolve_operand(n.b)};
        std::string_view op = compare_op_text(c.op);
        check_distinct({&c.lhs, &c.rhs}, op);
        if (c.op != CompareOp::Eq && c.op != CompareOp::Ne) {
          check_operand_type(c.lhs, op, {AttributeType::N, AttributeType::S, AttributeType::B});
          check_operand_type(c.rhs, op, {AttributeType::N, AttributeType::S, AttributeType::B});
        }
        result.v = std::move(c);
        break;
      }
      case Kind::Between: {
        Between b{resolve_operand(n.a), resolve_operand(n.b), resolve_operand(n.c)};
        check_distinct({&b.value, &b.lower, &b.upper}, "BETWEEN");
        for (const Operand* o : {&b.value, &b.lower, &b.upper}) {
          check_operand_type(*o, "BETWEEN", {AttributeType::N, AttributeType::S, AttributeType::B});
        }
        const AttributeValue* lo = b.lower.constant();
        const AttributeValue* hi = b.upper.constant();
        if (lo && hi) check_between_bounds(*lo, *hi, prefix_);
        result.v = std::move(b);
        break;
      }
      case Kind::In: {
        In in{resolve_operand(n.a), {}};
        in.list.reserve(n.list_size);
        for (std::uint32_t i = 0; i < n.list_size; ++i) in.list.push_back(resolve_operand(t_.list(n)[i]));
        std::vector<const Operand*> ops{&in.value};
        for (const auto& o : in.list) ops.push_back(&o);
        check_distinct(ops, "IN");
        result.v = std::move(in);
        break;
      }
      case Kind::FuncCond: result.v = FunctionCondition{resolve_call(n.a)}; break;
      default: fail("The expression can not be empty;");  // unreachable: the grammar makes conditions only
    }
    out.nodes.push_back(std::move(result));
    return static_cast<std::uint32_t>(out.nodes.size() - 1);
  }

  // A path for the overlap check, which the service makes before it reports
  // undefined names: defined #names are substituted, undefined ones kept.
  Path display_path(std::uint32_t id) {
    const Node& n = t_.nodes[id];
    Path path;
    for (std::uint32_t i = 0; i < n.list_size; ++i) {
      const std::uint32_t tok = t_.list(n)[i];
      const TokenKind k = t_.tokens[tok].kind;
      std::string_view text = t_.token_text(tok);
      if (k == TokenKind::Index) {
        path.steps.push_back(PathStep{static_cast<std::uint32_t>(parse_index(text))});
      } else if (k == TokenKind::NameRef) {
        const std::string* name = p_.peek_name(text);
        path.steps.push_back(PathStep{name ? *name : std::string(text)});
      } else {
        path.steps.push_back(PathStep{std::string(text)});
      }
    }
    return path;
  }

  // Update checks, in the service's order: overlapping paths; the names in
  // the actions' paths; then each action, last to first: its SET value
  // (names, values, operand types) or ADD/DELETE value (defined, valid type).
  UpdateActions resolve_update() {
    {
      std::vector<Path> display;
      display.reserve(t_.actions.size());
      for (const auto& a : t_.actions) display.push_back(display_path(a.path));
      std::vector<const Path*> ptrs;
      for (const auto& d : display) ptrs.push_back(&d);
      check_disjoint(ptrs, prefix_, PathPairOrder::LastPair);
    }
    // The service then checks the actions last to first.
    struct Resolved {
      Path path;
      std::variant<Operand, Arithmetic> set_value;
      const AttributeValue* value = nullptr;  // ADD / DELETE
    };
    std::vector<Resolved> resolved(t_.actions.size());
    for (std::size_t i = 0; i < t_.actions.size(); ++i) resolved[i].path = resolve_path(t_.actions[i].path);
    for (std::size_t i = t_.actions.size(); i-- > 0;) {
      const auto& a = t_.actions[i];
      Resolved& r = resolved[i];
      if (a.section == TokenKind::Set) {
        const std::uint32_t v = unparen(a.value);
        const Node& n = t_.nodes[v];
        if (n.kind == Kind::Arith) {
          std::string_view op = n.op == static_cast<std::uint8_t>(TokenKind::Plus) ? "+" : "-";
          Arithmetic ar{op == "-", resolve_operand(n.a), resolve_operand(n.b)};
          check_operand_type(ar.lhs, op, {AttributeType::N});
          check_operand_type(ar.rhs, op, {AttributeType::N});
          r.set_value = std::move(ar);
        } else {
          r.set_value = resolve_operand(v);
        }
      } else if (a.section == TokenKind::Add || a.section == TokenKind::Delete) {
        r.value = &resolve_value(t_.nodes[a.value].token);
        const bool add = a.section == TokenKind::Add;
        if (auto e = add_delete_type_error(*r.value, add ? "ADD" : "DELETE")) fail(*e);
      }
    }
    UpdateActions u;
    for (std::size_t i = 0; i < t_.actions.size(); ++i) {
      Resolved& r = resolved[i];
      switch (t_.actions[i].section) {
        case TokenKind::Set: u.set.push_back(SetAction{std::move(r.path), std::move(r.set_value)}); break;
        case TokenKind::Remove: u.remove.push_back(std::move(r.path)); break;
        case TokenKind::Add: u.add.push_back(AddAction{std::move(r.path), *r.value}); break;
        default: u.del.push_back(DeleteAction{std::move(r.path), *r.value}); break;
      }
    }
    return u;
  }

  static std::optional<std::string> add_delete_type_error(const AttributeValue& v, std::string_view op) {
    const AttributeType t = v.type();
    const bool is_set = t == AttributeType::SS || t == AttributeType::NS || t == AttributeType::BS;
    if (is_set || (op == "ADD" && t == AttributeType::N)) return std::nullopt;
    return "Incorrect operand type for operator or function; operator: " + std::string(op) +
           ", operand type: " + std::string(long_type_name(t)) + ", typeSet: ALLOWED_FOR_" + std::string(op) +
           "_OPERAND";
  }

  std::vector<Path> resolve_projection() {
    {
      // Overlaps are reported before undefined names, as for updates.
      std::vector<Path> display;
      display.reserve(t_.paths.size());
      for (auto id : t_.paths) display.push_back(display_path(id));
      std::vector<const Path*> ptrs;
      for (const auto& d : display) ptrs.push_back(&d);
      check_disjoint(ptrs, prefix_, PathPairOrder::LastPair);
    }
    std::vector<Path> paths;
    paths.reserve(t_.paths.size());
    for (auto id : t_.paths) paths.push_back(resolve_path(id));
    return paths;
  }

 private:
  template <typename F>
  void visit_roots(F&& f) const {
    if (ctx_ == Context::Condition) {
      f(t_.root);
    } else if (ctx_ == Context::Update) {
      for (const auto& a : t_.actions) {
        f(a.path);
        f(a.value);
      }
    } else {
      for (auto p : t_.paths) f(p);
    }
  }

  const Tree& t_;
  Placeholders& p_;
  Context ctx_;
  std::string prefix_;
};

syntax::Tree parse_tree(std::string_view text, syntax::Grammar grammar, std::string_view prefix, bool size_suffix) {
  if (text.size() > kMaxExpressionBytes) {
    std::string msg(prefix);
    msg += "Expression size has exceeded the maximum allowed size;";
    // The service adds the size for conditions, filters and key conditions
    // only (UpdateExpression and ProjectionExpression omit it).
    if (size_suffix) msg += " expression size: " + std::to_string(text.size());
    throw ApiError::validation(std::move(msg));
  }
  if (text.empty()) throw ApiError::validation(std::string(prefix) + "The expression can not be empty;");
  syntax::SyntaxError error;
  auto tree = syntax::parse(text, grammar, error);
  if (!tree) {
    if (error.redundant_parentheses) {
      throw ApiError::validation(std::string(prefix) + "The expression has redundant parentheses;");
    }
    throw ApiError::validation(std::string(prefix) + error.message);
  }
  return std::move(*tree);
}

}  // namespace

std::string_view compare_op_text(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return "=";
    case CompareOp::Ne: return "<>";
    case CompareOp::Lt: return "<";
    case CompareOp::Le: return "<=";
    case CompareOp::Gt: return ">";
    case CompareOp::Ge: return ">=";
  }
  return "";
}

std::string_view function_name(FunctionKind kind) {
  for (const auto& f : kFunctions) {
    if (f.kind == kind) return f.name;
  }
  return "";
}

Condition parse_condition(std::string_view text, ConditionKind kind, Placeholders& p) {
  const std::string prefix(kind_prefix(kind));
  syntax::Tree tree = parse_tree(text, syntax::Grammar::Condition, prefix, true);
  Resolver r(tree, p, Context::Condition, prefix);
  r.check_operator_count();
  r.check_parentheses();
  r.check_structure();
  Condition c;
  c.nodes.reserve(tree.nodes.size());
  c.root = r.resolve_condition(tree.root, c);
  return c;
}

std::vector<Path> parse_projection(std::string_view text, Placeholders& p) {
  const std::string prefix = "Invalid ProjectionExpression: ";
  syntax::Tree tree = parse_tree(text, syntax::Grammar::Projection, prefix, false);
  Resolver r(tree, p, Context::Projection, prefix);
  r.check_structure();
  return r.resolve_projection();
}

UpdateActions parse_update(std::string_view text, Placeholders& p) {
  const std::string prefix = "Invalid UpdateExpression: ";
  syntax::Tree tree = parse_tree(text, syntax::Grammar::Update, prefix, false);
  Resolver r(tree, p, Context::Update, prefix);
  r.check_operator_count();
  r.check_parentheses();
  r.check_structure();
  return r.resolve_update();
}

void check_key_updates(const UpdateActions& u, const std::vector<std::string_view>& key_names) {
  auto check = [&](const Path& path) {
    for (auto k : key_names) {
      if (path.root() == k) {
        throw ApiError::invalid_parameter("Cannot update attribute " + std::string(k) +
                                          ". This attribute is part of the key");
      }
    }
  };
  for (const auto& a : u.set) check(a.path);
  for (const auto& a : u.remove) check(a);
  for (const auto& a : u.add) check(a.path);
  for (const auto& a : u.del) check(a.path);
}

void check_no_mixing(const std::vector<std::string_view>& non_expression,
                     const std::vector<std::string_view>& expression) {
  if (non_expression.empty() || expression.empty()) return;
  auto join = [](const std::vector<std::string_view>& names) {
    std::string out = "{";
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i) out += ", ";
      out += names[i];
    }
    return out + "}";
  };
  throw ApiError::validation(
      "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: " +
      join(non_expression) + " Expression parameters: " + join(expression));
}

}  // namespace dynamod::expr
