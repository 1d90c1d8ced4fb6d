#include "protocol/key_paths.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <variant>

#include "protocol/api_error.h"

namespace dynamod {
namespace {

template <typename Fn>
void for_each_path(const expr::Operand& o, Fn&& fn) {
  if (const expr::Path* p = o.path()) fn(p);
  if (const expr::FunctionCall* f = o.call()) {
    for (const auto& a : f->args) for_each_path(a, fn);
  }
}

// Calls fn with every path a condition reads, in order of appearance.
template <typename Fn>
void for_each_path(const expr::Condition& condition, Fn&& fn) {
  for (const auto& node : condition.nodes) {
    std::visit(
        [&](const auto& n) {
          using N = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<N, expr::Comparison>) {
            for_each_path(n.lhs, fn);
            for_each_path(n.rhs, fn);
          } else if constexpr (std::is_same_v<N, expr::Between>) {
            for_each_path(n.value, fn);
            for_each_path(n.lower, fn);
            for_each_path(n.upper, fn);
          } else if constexpr (std::is_same_v<N, expr::In>) {
            for_each_path(n.value, fn);
            for (const auto& o : n.list) for_each_path(o, fn);
          } else if constexpr (std::is_same_v<N, expr::FunctionCondition>) {
            for (const auto& a : n.call.args) for_each_path(a, fn);
          }
        },
        node.v);
  }
}

bool nested(const expr::Path* p) { return p->steps.size() > 1; }

}  // namespace

void collect_paths(const expr::Condition& condition, PathList& out) {
  for_each_path(condition, [&](const expr::Path* p) { out.push_back(p); });
}

namespace {
constexpr std::string_view kNotScalar =
    "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: ";
}  // namespace

bool is_key_path_error(const ApiError& e) {
  if (e.code() != ErrorCode::ValidationException || !e.message().starts_with(kNotScalar)) return false;
  const std::string_view key = std::string_view(e.message()).substr(kNotScalar.size());
  return key.starts_with("Key: ") || key.starts_with("IndexKey: ");
}

std::string key_path_message(std::string_view key) { return std::string(kNotScalar) + std::string(key); }

void check_whole_key_paths(const TableSchema& table, const PathList& paths) {
  auto nested_under = [&](const std::string& name) {
    return std::any_of(paths.begin(), paths.end(), [&](const expr::Path* p) { return nested(p) && p->root() == name; });
  };
  auto refuse = [](const char* kind, const std::string& name) {
    throw ApiError::validation(key_path_message(std::string(kind) + ": " + name));
  };
  if (std::none_of(paths.begin(), paths.end(), nested)) return;
  if (nested_under(table.key.partition.name)) refuse("Key", table.key.partition.name);
  if (table.key.sort && nested_under(table.key.sort->name)) refuse("Key", table.key.sort->name);
  for (const auto* family : {&table.local_indexes, &table.global_indexes}) {
    for (const IndexSchema& index : *family) {
      for (const auto& elements : {index.key.partition_elements(), index.key.sort_elements()}) {
        for (const KeyElement* k : elements) {
          if (nested_under(k->name)) refuse("IndexKey", k->name);
        }
      }
    }
  }
}

// (Both look for a nested path before they gather any: most requests have none.)
void check_read_key_paths(const TableSchema& table, const expr::Condition& condition) {
  bool any_nested = false;
  for_each_path(condition, [&](const expr::Path* p) { any_nested = any_nested || nested(p); });
  if (!any_nested) return;
  PathList paths;
  collect_paths(condition, paths);
  check_whole_key_paths(table, paths);
}

void check_read_key_paths(const TableSchema& table, const std::optional<std::vector<expr::Path>>& projection) {
  if (!projection ||
      std::none_of(projection->begin(), projection->end(), [](const expr::Path& p) { return nested(&p); })) {
    return;
  }
  PathList paths;
  for (const auto& p : *projection) paths.push_back(&p);
  check_whole_key_paths(table, paths);
}

void check_update_key_paths(const TableSchema& table, const expr::UpdateActions& actions) {
  // What the update writes, then what its SET actions read.
  auto for_each = [&](auto&& fn) {
    for (const auto& a : actions.set) fn(&a.path);
    for (const auto& p : actions.remove) fn(&p);
    for (const auto& a : actions.add) fn(&a.path);
    for (const auto& a : actions.del) fn(&a.path);
    for (const auto& action : actions.set) {
      if (const auto* operand = std::get_if<expr::Operand>(&action.value)) {
        for_each_path(*operand, fn);
      } else {
        const auto& arithmetic = std::get<expr::Arithmetic>(action.value);
        for_each_path(arithmetic.lhs, fn);
        for_each_path(arithmetic.rhs, fn);
      }
    }
  };
  bool any_nested = false;
  for_each([&](const expr::Path* p) { any_nested = any_nested || nested(p); });
  if (!any_nested) return;
  PathList paths;
  for_each([&](const expr::Path* p) { paths.push_back(p); });
  check_whole_key_paths(table, paths);
}

}  // namespace dynamod
