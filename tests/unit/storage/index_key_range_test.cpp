// A multi-attribute index key's component (each sort-key attribute's sortable
// encoding followed by 01) must sort as the tuple of its values sorts, each by
// its own type, and a key condition's IndexKeyRange must select exactly the
// components whose values satisfy it, zero bytes and FF bytes included.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "protocol/expr/key_condition.h"
#include "storage/index_key_range.h"
#include "storage/key_codec.h"

using dynamod::AttributeValue;
using dynamod::IndexKeyRange;
using dynamod::Number;
namespace expr = dynamod::expr;
namespace keys = dynamod::keys;

namespace {

// (x: B, y: N, z: S)
using Tuple = std::tuple<std::string, int, std::string>;

AttributeValue x_of(const Tuple& t) { return AttributeValue::binary(std::get<0>(t)); }
AttributeValue y_of(const Tuple& t) {
  return AttributeValue::number(*Number::parse(std::to_string(std::get<1>(t))).number);
}
AttributeValue z_of(const Tuple& t) { return AttributeValue::string(std::get<2>(t)); }

std::string component(const Tuple& t) {
  std::string out;
  for (const AttributeValue& v : {x_of(t), y_of(t), z_of(t)}) {
    keys::append_sortable(out, v);
    out.push_back('\x01');
  }
  return out + "table-key-hash..";  // what follows the sort attributes in an entry key
}

std::vector<Tuple> tuples() {
  std::vector<Tuple> out;
  for (std::string x : {std::string(""), std::string("a"), std::string("a\0", 2), std::string("a\0\xFF", 3),
                        std::string("a\xFF"), std::string("b")}) {
    for (int y : {-10, -1, 0, 1, 10}) {
      for (std::string z : {"", "a", "ab", "b"}) out.emplace_back(x, y, z);
    }
  }
  std::sort(out.begin(), out.end());  // bytes for x and z, numbers for y: DynamoDB's order
  return out;
}

// The tuples the range selects, scanning forward over the sorted components.
std::vector<Tuple> selected(const IndexKeyRange& range, const std::vector<Tuple>& all, bool forward) {
  std::vector<Tuple> out;
  std::vector<Tuple> order = all;
  if (!forward) std::reverse(order.begin(), order.end());
  for (const Tuple& t : order) {
    const int where = range.locate(component(t), forward);
    if (where > 0) break;
    if (where == 0) out.push_back(t);
  }
  if (!forward) std::reverse(out.begin(), out.end());
  return out;
}

expr::KeyCondition condition(std::vector<AttributeValue> equal, std::optional<expr::SortCondition> sort) {
  expr::KeyCondition kc;
  for (auto& v : equal) kc.sort_equalities.push_back({"attr", std::move(v)});
  kc.sort = std::move(sort);
  return kc;
}

template <typename Keep>
void check_selects(const expr::KeyCondition& kc, Keep keep) {
  const std::vector<Tuple> all = tuples();
  std::vector<Tuple> want;
  std::copy_if(all.begin(), all.end(), std::back_inserter(want), keep);
  CHECK(!want.empty());
  IndexKeyRange range(kc);
  CHECK(selected(range, all, true) == want);
  CHECK(selected(range, all, false) == want);
}

}  // namespace

TEST_CASE("multi-attribute keys: components sort as their tuples") {
  const std::vector<Tuple> all = tuples();
  std::vector<std::string> encoded;
  for (const Tuple& t : all) encoded.push_back(component(t));
  CHECK(std::is_sorted(encoded.begin(), encoded.end()));
  CHECK(std::adjacent_find(encoded.begin(), encoded.end()) == encoded.end());
}

TEST_CASE("multi-attribute keys: a key condition is one range of components") {
  const AttributeValue a0 = AttributeValue::binary(std::string("a\0", 2));
  using expr::SortOp;
  auto cond = [](SortOp op, AttributeValue v, std::optional<AttributeValue> upper = std::nullopt) {
    return expr::SortCondition{"attr", op, std::move(v), std::move(upper)};
  };
  check_selects(condition({}, std::nullopt), [](const Tuple&) { return true; });
  check_selects(condition({a0}, std::nullopt), [](const Tuple& t) { return std::get<0>(t) == std::string("a\0", 2); });
  check_selects(condition({}, cond(SortOp::Gt, a0)),
                [](const Tuple& t) { return std::get<0>(t) > std::string("a\0", 2); });
  check_selects(condition({}, cond(SortOp::Le, a0)),
                [](const Tuple& t) { return std::get<0>(t) <= std::string("a\0", 2); });
  check_selects(condition({}, cond(SortOp::BeginsWith, AttributeValue::binary("a"))),
                [](const Tuple& t) { return std::get<0>(t).starts_with("a"); });
  const AttributeValue one = AttributeValue::number(*Number::parse("1").number);
  const AttributeValue minus_one = AttributeValue::number(*Number::parse("-1").number);
  check_selects(condition({a0}, cond(SortOp::Lt, one)),
                [](const Tuple& t) { return std::get<0>(t) == std::string("a\0", 2) && std::get<1>(t) < 1; });
  check_selects(condition({a0}, cond(SortOp::Ge, minus_one)),
                [](const Tuple& t) { return std::get<0>(t) == std::string("a\0", 2) && std::get<1>(t) >= -1; });
  check_selects(condition({a0}, cond(SortOp::Between, minus_one, one)), [](const Tuple& t) {
    return std::get<0>(t) == std::string("a\0", 2) && std::get<1>(t) >= -1 && std::get<1>(t) <= 1;
  });
  check_selects(condition({a0, minus_one}, cond(SortOp::BeginsWith, AttributeValue::string("a"))), [](const Tuple& t) {
    return std::get<0>(t) == std::string("a\0", 2) && std::get<1>(t) == -1 && std::get<2>(t).starts_with("a");
  });
  check_selects(condition({a0, minus_one}, cond(SortOp::Gt, AttributeValue::string("a"))), [](const Tuple& t) {
    return std::get<0>(t) == std::string("a\0", 2) && std::get<1>(t) == -1 && std::get<2>(t) > "a";
  });
}

TEST_CASE("multi-attribute keys: one partition attribute hashes as a single-attribute key") {
  const AttributeValue a = AttributeValue::string("tenant");
  const AttributeValue b = AttributeValue::number(*Number::parse("7").number);
  const AttributeValue* one[] = {&a};
  const AttributeValue* two[] = {&a, &b};
  const AttributeValue* swapped[] = {&b, &a};
  CHECK(keys::hash_partition_key(one) == keys::hash_partition_key(a));
  CHECK(keys::hash_partition_key(two) != keys::hash_partition_key(a));
  CHECK(keys::hash_partition_key(two) != keys::hash_partition_key(swapped));
}
