// Request shapes for the access-pattern report.
#include <doctest/doctest.h>

#include "metering/access_pattern.h"
#include "protocol/number.h"

using namespace dynamod;
using namespace dynamod::metering;

namespace {
AttributeValue s(std::string text) { return AttributeValue::string(std::move(text)); }
}  // namespace

TEST_CASE("values keep their prefix up to the first separator") {
  CHECK(reduced_value(s("STATUS#OPEN")) == "STATUS#*");
  CHECK(reduced_value(s("USER:42:x")) == "USER:*");
  CHECK(reduced_value(s("a/b")) == "a/*");
  CHECK(reduced_value(s("plain")) == "*");
  CHECK(reduced_value(s("")) == "*");
  CHECK(reduced_value(s("bad\x01#1")) == "bad?#*");
}

TEST_CASE("query shapes name the index and the key condition") {
  expr::KeyCondition key{"GSI1PK", s("STATUS#OPEN"),
                         expr::SortCondition{"GSI1SK", expr::SortOp::BeginsWith, s("2026-"), std::nullopt}};
  CHECK(query_shape("GSI1", key, false) == "Query GSI1: GSI1PK = STATUS#* AND begins_with(GSI1SK, …)");
  key.sort->op = expr::SortOp::Ge;
  CHECK(query_shape("GSI1", key, true) == "Query GSI1: GSI1PK = STATUS#* AND GSI1SK >= … (filter)");
  key.sort->op = expr::SortOp::Eq;
  key.sort->value = s("ORDER#7");
  CHECK(query_shape("T", key, false) == "Query T: GSI1PK = STATUS#* AND GSI1SK = ORDER#*");
  key.sort->op = expr::SortOp::Between;
  CHECK(query_shape("T", key, false) == "Query T: GSI1PK = STATUS#* AND GSI1SK BETWEEN … AND …");
  key.sort.reset();
  CHECK(query_shape("T", key, false) == "Query T: GSI1PK = STATUS#*");
}

TEST_CASE("scan and item shapes") {
  CHECK(scan_shape("Orders", false) == "Scan Orders");
  CHECK(scan_shape("Orders", true) == "Scan Orders (filter)");
  AttributeValue sk = s("ORDER#1");
  CHECK(item_shape("GetItem", "Orders", "pk", s("USER#1"), "sk", &sk) ==
        "GetItem Orders: pk = USER#* AND sk = ORDER#*");
  CHECK(item_shape("PutItem", "Orders", "pk", s("x"), "", nullptr) == "PutItem Orders: pk = *");
}
