#pragma once
// Capacity units from sizes: 4 KB read units, 1 KB write units.

#include <cstdint>

namespace dynamod::metering {

enum class ReadMode : std::uint8_t { Eventual, Strong, Transactional };

inline constexpr std::uint64_t kReadUnitBytes = 4096;
inline constexpr std::uint64_t kWriteUnitBytes = 1024;
// The least VectorWriteRequestBytes a write reports for one vector index (measured on the service).
inline constexpr std::uint64_t kVectorWriteFloorBytes = 1024;

// Read units for `bytes` read in one rounding (one item, or one Query/Scan page).
// Reading nothing still costs one unit (0.5 when eventually consistent).
double read_units(std::uint64_t bytes, ReadMode mode);
// Write units for one item of `bytes` (the larger of before and after images).
double write_units(std::uint64_t bytes, bool transactional = false);

}  // namespace dynamod::metering
