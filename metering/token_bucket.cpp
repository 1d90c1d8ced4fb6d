#include "metering/token_bucket.h"

#include <algorithm>

namespace dynamod::metering {

TokenBucket::TokenBucket(double units_per_second, double burst_seconds, double now)
    : rate_(units_per_second), burst_seconds_(burst_seconds), tokens_(units_per_second * burst_seconds), last_(now) {}

void TokenBucket::refill(double now) {
  if (now > last_) {
    tokens_ = std::min(tokens_ + (now - last_) * rate_, rate_ * burst_seconds_);
    last_ = now;
  }
}

void TokenBucket::set_rate(double units_per_second, double now) {
  refill(now);
  // More capacity is there at once: the new second's worth, debts forgiven.
  if (units_per_second > rate_) tokens_ = std::max(tokens_, units_per_second);
  rate_ = units_per_second;
  tokens_ = std::min(tokens_, rate_ * burst_seconds_);
}

bool TokenBucket::has_credit(double now) { return available(now) > 0; }

void TokenBucket::take(double units, double now) {
  refill(now);
  tokens_ -= units;
}

double TokenBucket::available(double now) {
  refill(now);
  return tokens_;
}

}  // namespace dynamod::metering
