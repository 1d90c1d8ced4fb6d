#pragma once
// A token bucket of capacity units, the model of DynamoDB's provisioned
// throughput: it refills at the provisioned rate and keeps up to
// `burst_seconds` of unused capacity (the service keeps 300 seconds as burst
// capacity). A request may start while the bucket holds credit; its units are
// taken afterwards, when its size is known, so the bucket can go into debt,
// which later requests wait out. Time is passed in (seconds on any steady
// clock), so the model is a pure function of its inputs.

namespace dynamod::metering {

class TokenBucket {
 public:
  TokenBucket() = default;
  // A bucket that starts full.
  TokenBucket(double units_per_second, double burst_seconds, double now);

  // A new rate from now on (UpdateTable): the credit held is kept, within the
  // new capacity; a higher rate also makes one second of it available at once.
  void set_rate(double units_per_second, double now);
  double rate() const { return rate_; }

  // True if a request may start at `now`.
  bool has_credit(double now);
  // Takes the units a request consumed.
  void take(double units, double now);
  // The credit at `now` (negative while in debt).
  double available(double now);

 private:
  void refill(double now);

  double rate_ = 0;
  double burst_seconds_ = 0;
  double tokens_ = 0;
  double last_ = 0;
};

}  // namespace dynamod::metering
