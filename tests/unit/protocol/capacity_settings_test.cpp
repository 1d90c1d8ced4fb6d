// OnDemandThroughput, WarmThroughput and SSESpecification's rules (protocol/capacity_settings.h).
#include <doctest/doctest.h>

#include <functional>
#include <regex>

#include "protocol/capacity_settings.h"

using namespace dynamod;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e.message();
  }
  return "";
}

}  // namespace

TEST_CASE("capacity settings: on-demand maximums are -1 or at least 1, on demand only") {
  OnDemandMaximum m = checked_on_demand({100, std::nullopt}, BillingMode::PayPerRequest, "", std::nullopt);
  CHECK(m == OnDemandMaximum{100, -1});
  // A member left out keeps its value.
  CHECK(checked_on_demand({std::nullopt, 5}, BillingMode::PayPerRequest, "", m) == OnDemandMaximum{100, 5});
  CHECK(checked_on_demand({-1, -1}, BillingMode::PayPerRequest, "g", m) == OnDemandMaximum{-1, -1});
  CHECK(error_of([] {
          checked_on_demand({0, 1}, BillingMode::PayPerRequest, "", std::nullopt);
        }) ==
        "One or more parameter values were invalid: Requested MaxReadRequestUnits for OnDemandThroughput for table "
        "is outside of valid range");
  CHECK(error_of([] {
          checked_on_demand({1, -2}, BillingMode::PayPerRequest, "g", std::nullopt);
        }) ==
        "One or more parameter values were invalid: Requested MaxWriteRequestUnits for OnDemandThroughput for index "
        "is outside of valid range");
  CHECK(error_of([] {
          checked_on_demand({1, 1}, BillingMode::Provisioned, "", std::nullopt);
        }) ==
        "One or more parameter values were invalid: OnDemandThroughput cannot be specified when BillingMode is "
        "PROVISIONED");
}

TEST_CASE("capacity settings: warm throughput's floor, and a table's never decreases") {
  Throughput units;
  units.read_units = 5;
  units.write_units = 3;
  CHECK(described_warm(std::nullopt, BillingMode::PayPerRequest, nullptr) == WarmUnits{12000, 4000});
  CHECK(described_warm(std::nullopt, BillingMode::Provisioned, &units) == WarmUnits{5, 3});
  CHECK(described_warm(WarmUnits{20000, 100}, BillingMode::PayPerRequest, nullptr) == WarmUnits{20000, 4000});
  CHECK(checked_table_warm({std::nullopt, 4500}, {12000, 4000}) == WarmUnits{12000, 4500});
  CHECK(checked_table_warm({12000, 4000}, {12000, 4000}) == WarmUnits{12000, 4000});
  CHECK(error_of([] {
          checked_table_warm({13000, 3999}, {12000, 4000});
        }) == "One or more parameter values were invalid: decreasing WarmThroughput is not supported");
  CHECK(checked_index_warm({1, std::nullopt}, {12000, 4000}) == WarmUnits{1, 4000});
}

TEST_CASE("capacity settings: the SSE key and its ARN") {
  CHECK(checked_sse_key({false, std::nullopt, std::nullopt}) == "");
  CHECK(checked_sse_key({std::nullopt, std::nullopt, std::nullopt}) == "");
  CHECK(checked_sse_key({true, std::nullopt, std::nullopt}) == "alias/aws/dynamodb");
  CHECK(checked_sse_key({true, "KMS", "k1"}) == "k1");
  CHECK(error_of([] {
          checked_sse_key({true, std::nullopt, "k1"});
        }) == "SSEType KMS is required if KMSMasterKeyId is specified");
  CHECK(kms_key_arn("k1", "eu-west-1", "111122223333") == "arn:aws:kms:eu-west-1:111122223333:key/k1");
  const std::string arn = "arn:aws:kms:us-east-2:444455556666:key/abc";
  CHECK(kms_key_arn(arn, "eu-west-1", "111122223333") == arn);
  const std::regex key_arn(
      R"(arn:aws:kms:eu-west-1:111122223333:key/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12})");
  const std::string managed = kms_key_arn("alias/aws/dynamodb", "eu-west-1", "111122223333");
  CHECK(std::regex_match(managed, key_arn));
  CHECK(kms_key_arn("alias/aws/dynamodb", "eu-west-1", "111122223333") == managed);  // stable
  CHECK(kms_key_arn("alias/mine", "eu-west-1", "111122223333") != managed);
  // An alias ARN names the key of its own account and region.
  CHECK(kms_key_arn("arn:aws:kms:eu-west-1:111122223333:alias/mine", "us-east-1", "999999999999") ==
        kms_key_arn("alias/mine", "eu-west-1", "111122223333"));
}
