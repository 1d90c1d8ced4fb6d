#include "metering/capacity.h"

namespace dynamod::metering {
namespace {

std::uint64_t units_of(std::uint64_t bytes, std::uint64_t unit) {
  std::uint64_t units = (bytes + unit - 1) / unit;
  return units == 0 ? 1 : units;
}

}  // namespace

double read_units(std::uint64_t bytes, ReadMode mode) {
  double units = static_cast<double>(units_of(bytes, kReadUnitBytes));
  switch (mode) {
    case ReadMode::Eventual: return units * 0.5;
    case ReadMode::Strong: return units;
    case ReadMode::Transactional: return units * 2;
  }
  return units;
}

double write_units(std::uint64_t bytes, bool transactional) {
  double units = static_cast<double>(units_of(bytes, kWriteUnitBytes));
  return transactional ? units * 2 : units;
}

}  // namespace dynamod::metering
