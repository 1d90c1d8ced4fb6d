#include "storage/index_key_range.h"

#include "storage/key_codec.h"

namespace dynamod {
namespace {

// What follows each sort-key attribute's encoding in a component; one past it
// ends every component whose attribute equals the value.
constexpr char kSeparator = '\x01';
constexpr char kPastSeparator = '\x02';

std::string sortable_of(const AttributeValue& v) {
  std::string out;
  keys::append_sortable(out, v);
  return out;
}

// The smallest string above every one starting with `prefix`; none for "" (no bound).
std::optional<std::string> past_prefix(const std::string& prefix) {
  if (prefix.empty()) return std::nullopt;
  std::string past = keys::prefix_successor(prefix);
  if (past.empty()) return std::nullopt;
  return past;
}

}  // namespace

IndexKeyRange::IndexKeyRange(const expr::KeyCondition& condition) {
  std::string equal;  // the equalities on the leading attributes: a prefix of every component in range
  for (const expr::KeyEquality& e : condition.sort_equalities) {
    keys::append_sortable(equal, e.value);
    equal.push_back(kSeparator);
  }
  if (!equal.empty()) lower_ = equal;
  upper_ = past_prefix(equal);
  if (!condition.sort) return;
  using expr::SortOp;
  const expr::SortCondition& s = *condition.sort;
  const std::string value = equal + sortable_of(s.value);
  switch (s.op) {
    case SortOp::Eq:  // (extract_key_condition puts equalities in sort_equalities: the same range)
      lower_ = value;
      upper_ = value + kPastSeparator;
      break;
    case SortOp::Lt: upper_ = value; break;
    case SortOp::Le: upper_ = value + kPastSeparator; break;
    case SortOp::Gt: lower_ = value + kPastSeparator; break;
    case SortOp::Ge: lower_ = value; break;
    case SortOp::Between:
      lower_ = value;
      upper_ = equal + sortable_of(*s.upper) + kPastSeparator;
      break;
    case SortOp::BeginsWith: {
      const AttributeValue& v = s.value;
      lower_ = equal + keys::sortable_prefix(v.type() == AttributeType::S ? v.as_string() : v.as_binary());
      upper_ = past_prefix(*lower_);
      break;
    }
  }
}

int IndexKeyRange::locate(std::string_view component, bool forward) const {
  const bool below = lower_ && component < *lower_;
  const bool above = upper_ && component >= *upper_;
  if (!below && !above) return 0;
  return forward ? (above ? 1 : -1) : (below ? 1 : -1);
}

}  // namespace dynamod
