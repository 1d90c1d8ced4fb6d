// Contributor Insights: what an update makes of a setting, rule names, the
// list's token, the requests' checks, and the setting in the catalog.
#include <doctest/doctest.h>

#include "protocol/api_error.h"
#include "protocol/contributor_insights.h"
#include "storage/schema_codec.h"

using namespace dynamod;

namespace {

using Status = ContributorInsightsStatus;
using Mode = ContributorInsightsMode;

UpdateContributorInsightsRequest request(bool enable, std::optional<Mode> mode = std::nullopt) {
  return UpdateContributorInsightsRequest{std::string(1, 't'), std::nullopt, enable, mode};
}

ContributorInsights enabled(Mode mode, std::int64_t rules_ms = 1000) {
  return ContributorInsights{Status::Enabled, mode, 1.0, rules_ms};
}

UpdateContributorInsightsRequest decode_update(std::string body) {
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  return decode_update_contributor_insights(json::request_object(parser, body, doc));
}

std::string error_of(std::string body) {
  try {
    decode_update(std::move(body));
  } catch (const ApiError& e) {
    return e.message();
  }
  return "no error";
}

}  // namespace

TEST_CASE("an ENABLE makes rules named by the time; one of the mode in force changes nothing") {
  auto first = update_contributor_insights(std::nullopt, request(true), false, 100, 5.5);
  REQUIRE(first.setting);
  CHECK(first.setting->status == Status::Enabled);
  CHECK(first.setting->mode == Mode::AccessedAndThrottledKeys);
  CHECK(first.setting->rules_created_ms == 5500);
  CHECK(first.answer_status == Status::Enabling);
  CHECK(first.answer_mode == Mode::AccessedAndThrottledKeys);

  auto again = update_contributor_insights(first.setting, request(true), false, 98, 9.0);
  CHECK(again.setting == first.setting);
  CHECK(again.answer_status == Status::Enabled);
}

TEST_CASE("a change of mode keeps the rules' time; an ENABLE without a mode asks for the default") {
  auto narrowed = update_contributor_insights(enabled(Mode::AccessedAndThrottledKeys),
                                              request(true, Mode::ThrottledKeys), true, 100, 7.0);
  CHECK(narrowed.setting->mode == Mode::ThrottledKeys);
  CHECK(narrowed.setting->rules_created_ms == 1000);
  CHECK(narrowed.setting->last_update == 7.0);
  CHECK(narrowed.answer_status == Status::Enabling);
  auto back = update_contributor_insights(narrowed.setting, request(true), true, 100, 8.0);
  CHECK(back.setting->mode == Mode::AccessedAndThrottledKeys);
  CHECK(back.answer_status == Status::Enabling);
}

TEST_CASE("a DISABLE answers with the setting's mode; a never-changed setting stays unchanged") {
  auto never = update_contributor_insights(std::nullopt, request(false, Mode::ThrottledKeys), false, 100, 1.0);
  CHECK_FALSE(never.setting);
  CHECK(never.answer_status == Status::Disabled);
  CHECK_FALSE(never.answer_mode);

  auto off = update_contributor_insights(enabled(Mode::AccessedAndThrottledKeys), request(false, Mode::ThrottledKeys),
                                         false, 100, 3.0);
  CHECK(off.setting->status == Status::Disabled);
  CHECK(off.setting->mode == Mode::AccessedAndThrottledKeys);
  CHECK(off.answer_status == Status::Disabling);
  CHECK(off.answer_mode == Mode::AccessedAndThrottledKeys);

  auto again = update_contributor_insights(off.setting, request(false), false, 100, 4.0);
  CHECK(again.setting == off.setting);
  CHECK(again.answer_status == Status::Disabled);
}

TEST_CASE("past the quota an ENABLE fails without rules; an ENABLE with room makes new ones") {
  // A sort key doubles the rules: 4 do not fit in 3.
  auto failed = update_contributor_insights(std::nullopt, request(true), true, 3, 2.0);
  CHECK(failed.setting->status == Status::Failed);
  CHECK(failed.answer_status == Status::Enabling);
  // The narrow mode needs 2.
  auto narrow = update_contributor_insights(failed.setting, request(true, Mode::ThrottledKeys), true, 3, 3.0);
  CHECK(narrow.setting->status == Status::Enabled);
  CHECK(narrow.setting->rules_created_ms == 3000);
  auto off = update_contributor_insights(failed.setting, request(false), true, 3, 4.0);
  CHECK(off.setting->status == Status::Disabled);
}

TEST_CASE("rule names: partition-key rules, then sort-key ones; the throttled ones only") {
  CHECK(contributor_insights_rule_names(enabled(Mode::AccessedAndThrottledKeys, 1618028180292), "t", std::nullopt,
                                        true) ==
        std::vector<std::string>{
            "DynamoDBContributorInsights-PKC-t-1618028180292", "DynamoDBContributorInsights-PKT-t-1618028180292",
            "DynamoDBContributorInsights-SKC-t-1618028180292", "DynamoDBContributorInsights-SKT-t-1618028180292"});
  CHECK(contributor_insights_rule_names(enabled(Mode::ThrottledKeys, 5), "t", std::string("gsi"), false) ==
        std::vector<std::string>{"DynamoDBContributorInsights-PKT-t-gsi-5"});
  CHECK(contributor_insights_rule_count(Mode::AccessedAndThrottledKeys, true) == 4);
  CHECK(contributor_insights_rule_count(Mode::ThrottledKeys, false) == 1);
}

TEST_CASE("the list's token names a table and an index") {
  CHECK(parse_contributor_insights_token(contributor_insights_token("t.1", std::string("g-2"))) ==
        std::pair<std::string, std::string>{"t.1", "g-2"});
  CHECK(parse_contributor_insights_token(contributor_insights_token("t", std::nullopt)) ==
        std::pair<std::string, std::string>{"t", ""});
  CHECK(parse_contributor_insights_token("no slash") == std::pair<std::string, std::string>{"no slash", ""});
}

TEST_CASE("UpdateContributorInsights' members are checked in the model's order") {
  // The bad enum is read only once the other constraints hold.
  CHECK(error_of(R"({"TableName":"ab","ContributorInsightsMode":"X"})") ==
        "2 validation errors detected: "
        "Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; "
        "Value null at 'contributorInsightsAction' failed to satisfy constraint: Member must not be null");
  CHECK(error_of(R"({"TableName":"abc","ContributorInsightsAction":"Y","ContributorInsightsMode":"X"})") ==
        "1 validation error detected: "
        "Value 'Y' at 'contributorInsightsAction' failed to satisfy constraint: Member must satisfy enum value set: "
        "[ENABLE, DISABLE]");
  UpdateContributorInsightsRequest r =
      decode_update(R"({"TableName":"tab","IndexName":"idx","ContributorInsightsAction":"DISABLE"})");
  CHECK_FALSE(r.enable);
  CHECK(r.index_name == "idx");
  CHECK_FALSE(r.mode);
}

TEST_CASE("the settings of a table and of its global indexes survive the catalog") {
  TableSchema t;
  t.name = "t";
  t.key = KeyDef{{"pk", ScalarType::S}, std::nullopt};
  IndexSchema gsi;
  gsi.name = "g";
  gsi.key = KeyDef{{"g", ScalarType::S}, std::nullopt};
  gsi.contributor_insights = ContributorInsights{Status::Failed, Mode::ThrottledKeys, 12.5, 0};
  t.global_indexes.push_back(gsi);
  t.contributor_insights = enabled(Mode::AccessedAndThrottledKeys, 1234567890123);
  CHECK(decode_schema(encode_schema(t)) == t);
  t.contributor_insights.reset();
  t.global_indexes[0].contributor_insights.reset();
  CHECK(decode_schema(encode_schema(t)) == t);
}
