#include "protocol/key_paths.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <variant>

#include "protocol/api_error.h"

namespace dynamod {
namespace {

void collect_operand(const expr::Operand& o, PathList& out) {
  if (const expr::Path* p = o.path()) out.push_back(p);
  if (const expr::FunctionCall* f = o.call()) {
    for (const auto& a : f->args) collect_operand(a, out);
  }
}

}  // namespace

void collect_paths(const expr::Condition& condition, PathList& out) {
  for (const auto& node : condition.nodes) {
    std::visit(
        [&](const auto& n) {
          using N = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<N, expr::Comparison>) {
            collect_operand(n.lhs, out);
            collect_operand(n.rhs, out);
          } else if constexpr (std::is_same_v<N, expr::Between>) {
            collect_operand(n.value, out);
            collect_operand(n.lower, out);
            collect_operand(n.upper, out);
          } else if constexpr (std::is_same_v<N, expr::In>) {
            collect_operand(n.value, out);
            for (const auto& o : n.list) collect_operand(o, out);
          } else if constexpr (std::is_same_v<N, expr::FunctionCondition>) {
            for (const auto& a : n.call.args) collect_operand(a, out);
          }
        },
        node.v);
  }
}

void collect_paths(const expr::UpdateActions& actions, PathList& out) {
  for (const auto& a : actions.set) out.push_back(&a.path);
  for (const auto& p : actions.remove) out.push_back(&p);
  for (const auto& a : actions.add) out.push_back(&a.path);
  for (const auto& a : actions.del) out.push_back(&a.path);
  for (const auto& action : actions.set) {
    if (const auto* operand = std::get_if<expr::Operand>(&action.value)) {
      collect_operand(*operand, out);
    } else {
      const auto& arithmetic = std::get<expr::Arithmetic>(action.value);
      collect_operand(arithmetic.lhs, out);
      collect_operand(arithmetic.rhs, out);
    }
  }
}

void check_whole_key_paths(const TableSchema& table, const PathList& paths) {
  auto nested_under = [&](const std::string& name) {
    return std::any_of(paths.begin(), paths.end(),
                       [&](const expr::Path* p) { return p->steps.size() > 1 && p->root() == name; });
  };
  auto refuse = [](const char* kind, const std::string& name) {
    throw ApiError::validation(std::string("Key attributes must be scalars; list random access '[]' and map lookup "
                                           "'.' are not allowed: ") +
                               kind + ": " + name);
  };
  if (std::none_of(paths.begin(), paths.end(), [](const expr::Path* p) { return p->steps.size() > 1; })) return;
  if (nested_under(table.key.partition.name)) refuse("Key", table.key.partition.name);
  if (table.key.sort && nested_under(table.key.sort->name)) refuse("Key", table.key.sort->name);
  for (const auto* family : {&table.local_indexes, &table.global_indexes}) {
    for (const IndexSchema& index : *family) {
      if (nested_under(index.key.partition.name)) refuse("IndexKey", index.key.partition.name);
      if (index.key.sort && nested_under(index.key.sort->name)) refuse("IndexKey", index.key.sort->name);
    }
  }
}

void check_read_key_paths(const TableSchema& table, const expr::Condition& condition) {
  PathList paths;
  collect_paths(condition, paths);
  check_whole_key_paths(table, paths);
}

void check_read_key_paths(const TableSchema& table, const std::optional<std::vector<expr::Path>>& projection) {
  if (!projection) return;
  PathList paths;
  for (const auto& p : *projection) paths.push_back(&p);
  check_whole_key_paths(table, paths);
}

}  // namespace dynamod
