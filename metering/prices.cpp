#include "metering/prices.h"

#include <simdjson.h>

#include <stdexcept>

namespace dynamod::metering {
namespace {

double number(simdjson::dom::element e, std::string_view name) {
  double v = 0;
  if (e.get(v) != simdjson::SUCCESS) {
    // Integers are numbers too.
    std::int64_t i = 0;
    if (e.get(i) != simdjson::SUCCESS) throw std::runtime_error("price '" + std::string(name) + "' is not a number");
    v = static_cast<double>(i);
  }
  if (v < 0) throw std::runtime_error("price '" + std::string(name) + "' is negative");
  return v;
}

void read_class(simdjson::dom::object o, ClassPrices& prices) {
  for (auto [key, value] : o) {
    if (key == "write_request_units_per_million") prices.write_request_unit = number(value, key) / 1e6;
    else if (key == "read_request_units_per_million") prices.read_request_unit = number(value, key) / 1e6;
    else if (key == "wcu_hour") prices.wcu_hour = number(value, key);
    else if (key == "rcu_hour") prices.rcu_hour = number(value, key);
    else if (key == "storage_gb_month") prices.storage_gb_month = number(value, key);
    else throw std::runtime_error("unknown price '" + std::string(key) + "'");
  }
}

}  // namespace

PriceTable parse_price_table(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string text(json);
  simdjson::dom::object root;
  if (parser.parse(text).get(root) != simdjson::SUCCESS) throw std::runtime_error("price table is not a JSON object");
  PriceTable table;
  for (auto [key, value] : root) {
    simdjson::dom::object o;
    if (key == "region") {
      std::string_view region;
      if (value.get(region) != simdjson::SUCCESS) throw std::runtime_error("'region' is not a string");
      table.region = std::string(region);
    } else if (key == "standard" || key == "standard_ia") {
      if (value.get(o) != simdjson::SUCCESS) throw std::runtime_error("'" + std::string(key) + "' is not an object");
      read_class(o, key == "standard" ? table.standard : table.infrequent_access);
    } else {
      throw std::runtime_error("unknown member '" + std::string(key) + "'");
    }
  }
  return table;
}

}  // namespace dynamod::metering
