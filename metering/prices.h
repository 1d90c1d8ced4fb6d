#pragma once
// What DynamoDB charges, per table class: request units (on-demand), unit-
// hours of provisioned capacity, and stored GB-months. The defaults are
// us-east-1's list prices (after the November 2024 on-demand cut); a JSON
// file can replace them for another region (see README, "Cost reports").

#include <string>
#include <string_view>

namespace dynamod::metering {

struct ClassPrices {
  double write_request_unit = 0;  // USD per on-demand write request unit
  double read_request_unit = 0;   // USD per on-demand read request unit
  double wcu_hour = 0;            // USD per provisioned WCU-hour
  double rcu_hour = 0;            // USD per provisioned RCU-hour
  double storage_gb_month = 0;    // USD per GB-month (GB = 2^30 bytes)
};

struct PriceTable {
  std::string region = "us-east-1";
  ClassPrices standard{0.625e-6, 0.125e-6, 0.00065, 0.00013, 0.25};
  // Standard-IA: requests 25% dearer (its provisioned prices are not listed
  // publicly in this form: Standard's plus 25%), storage 60% cheaper.
  ClassPrices infrequent_access{0.78e-6, 0.155e-6, 0.0008125, 0.0001625, 0.10};
};

// A price table from JSON:
//   {"region": "eu-west-1",
//    "standard":    {"write_request_units_per_million": 0.7625, "read_request_units_per_million": 0.1525,
//                    "wcu_hour": 0.000735, "rcu_hour": 0.000147, "storage_gb_month": 0.283},
//    "standard_ia": {...}}
// Members left out keep us-east-1's prices. Throws std::runtime_error with a
// readable message on anything else.
PriceTable parse_price_table(std::string_view json);

}  // namespace dynamod::metering
