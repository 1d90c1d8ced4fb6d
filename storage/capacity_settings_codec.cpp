#include "storage/capacity_settings_codec.h"

namespace dynamod {
namespace {

void write_pair(JsonWriter& w, const char* name, std::int64_t read, std::int64_t write) {
  w.key(name);
  w.begin_object();
  w.key("read");
  w.integer(read);
  w.key("write");
  w.integer(write);
  w.end_object();
}

bool read_pair(simdjson::dom::object o, const char* name, std::int64_t& read, std::int64_t& write) {
  simdjson::dom::object pair;
  if (o[name].get(pair) != simdjson::SUCCESS) return false;
  read = std::int64_t(pair["read"]);
  write = std::int64_t(pair["write"]);
  return true;
}

}  // namespace

void write_capacity_settings(JsonWriter& w, const std::optional<OnDemandMaximum>& on_demand,
                             const std::optional<WarmUnits>& warm) {
  if (on_demand) write_pair(w, "on_demand", on_demand->read_units, on_demand->write_units);
  if (warm) write_pair(w, "warm", warm->read_units, warm->write_units);
}

void read_capacity_settings(simdjson::dom::object o, std::optional<OnDemandMaximum>& on_demand,
                            std::optional<WarmUnits>& warm) {
  OnDemandMaximum m;
  if (read_pair(o, "on_demand", m.read_units, m.write_units)) on_demand = m;
  WarmUnits u;
  if (read_pair(o, "warm", u.read_units, u.write_units)) warm = u;
}

}  // namespace dynamod
