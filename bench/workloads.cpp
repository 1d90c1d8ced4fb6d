#include "bench/workloads.h"

#include <algorithm>
#include <array>
#include <utility>

namespace dynamod::bench {
namespace {

constexpr int kKeyDigits = 8;
constexpr int kScoreDigits = 3;
constexpr std::uint64_t kScoreLow = 100;  // scores are 100..999: three digits, no leading zero
constexpr std::uint64_t kScoreSpan = 900;
constexpr int kBatchSize = 25;

// 100 characters of filler: with the other attributes an item is ~200 bytes.
constexpr std::string_view kPayload =
    "The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs, said the bench";
static_assert(kPayload.size() == 100);

constexpr std::array<std::pair<WorkloadKind, std::string_view>, 12> kNames{{
    {WorkloadKind::Get, "get"},
    {WorkloadKind::Put, "put"},
    {WorkloadKind::Update, "update"},
    {WorkloadKind::Query, "query"},
    {WorkloadKind::CondPut, "cond-put"},
    {WorkloadKind::BatchWrite, "batch-write"},
    {WorkloadKind::TransactWrite, "transact-write"},
    {WorkloadKind::ScanFilter, "scan-filter"},
    {WorkloadKind::Mix, "mix"},
    {WorkloadKind::RawGet, "raw-get"},
    {WorkloadKind::QueryGsi, "query-gsi"},
    {WorkloadKind::QueryGsi3, "query-gsi3"},
}};

std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  out.append(s);
  out.push_back('"');
  return out;
}

}  // namespace

std::optional<WorkloadKind> parse_workload(std::string_view name) {
  for (const auto& [kind, n] : kNames) {
    if (n == name) return kind;
  }
  return std::nullopt;
}

std::string_view workload_name(WorkloadKind kind) {
  for (const auto& [k, n] : kNames) {
    if (k == kind) return n;
  }
  return "?";
}

std::string_view workload_names() {
  return "get, put, update, query, cond-put, batch-write, transact-write, scan-filter, mix, raw-get, query-gsi, "
         "query-gsi3";
}

int BodyTemplate::group(int width, std::uint64_t low, std::uint64_t span, bool unique) {
  groups.push_back(Group{width, low, span, unique, {}});
  return static_cast<int>(groups.size() - 1);
}

BodyTemplate& BodyTemplate::text(std::string_view s) {
  body += s;
  return *this;
}

BodyTemplate& BodyTemplate::slot(int group) {
  Group& g = groups[static_cast<std::size_t>(group)];
  g.offsets.push_back(body.size());
  body.append(static_cast<std::size_t>(g.width), '0');
  return *this;
}

void BodyTemplate::write(char* body, const Group& group, std::uint64_t value) {
  char digits[20];
  for (int i = group.width - 1; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  for (std::size_t offset : group.offsets) std::copy(digits, digits + group.width, body + offset);
}

void append_item(BodyTemplate& t, int key_group, int score_group) {
  t.text(R"({"pk":{"S":"user#)").slot(key_group);
  t.text(R"("},"name":{"S":"Customer )").slot(key_group);
  t.text(R"("},"email":{"S":"customer.)").slot(key_group);
  t.text(R"(@example.com"},"score":{"N":")").slot(score_group);
  t.text(R"("},"active":{"BOOL":true},"created":{"N":"1700000000"},"payload":{"S":")");
  t.text(kPayload).text(R"("}})");
}

void append_query_item(BodyTemplate& t, int partition_group, int sk_group, int score_group) {
  t.text(R"({"pk":{"S":"part#)").slot(partition_group);
  t.text(R"("},"sk":{"N":")").slot(sk_group);
  t.text(R"("},"name":{"S":"Customer )").slot(partition_group);
  t.text(R"("},"email":{"S":"customer.)").slot(partition_group);
  t.text(R"(@example.com"},"score":{"N":")").slot(score_group);
  t.text(R"("},"created":{"N":"1700000000"},"payload":{"S":")").text(kPayload).text(R"("}})");
}

Operation OperationSet::make(const Signer& signer, std::string_view host, std::string_view target, BodyTemplate t,
                             Expect expect) {
  return Operation{SignedRequest(signer, host, std::string("DynamoDB_20120810.") + std::string(target), t.body),
                   std::move(t.groups), expect};
}

OperationSet::OperationSet(WorkloadKind kind, const DataShape& shape, const Signer& signer, std::string_view host)
    : kind_(kind) {
  const std::string table = quoted(shape.table);
  const std::uint64_t keys = shape.keys;
  auto get_item = [&] {
    BodyTemplate t;
    const int key = t.group(kKeyDigits, 0, keys);
    t.text(R"({"TableName":)" + table + R"(,"Key":{"pk":{"S":"user#)").slot(key).text(R"("}}})");
    return make(signer, host, "GetItem", std::move(t), Expect::Ok);
  };
  auto put_item = [&](std::uint64_t key_space, bool conditional) {
    BodyTemplate t;
    const int key = t.group(kKeyDigits, 0, key_space);
    const int score = t.group(kScoreDigits, kScoreLow, kScoreSpan);
    t.text(R"({"TableName":)" + table + R"(,"Item":)");
    append_item(t, key, score);
    if (conditional) t.text(R"j(,"ConditionExpression":"attribute_exists(pk)")j");
    t.text("}");
    return make(signer, host, "PutItem", std::move(t), conditional ? Expect::OkOrConditionFailed : Expect::Ok);
  };

  switch (kind) {
    case WorkloadKind::Get: ops_.push_back(get_item()); break;
    case WorkloadKind::Put: ops_.push_back(put_item(keys, false)); break;
    case WorkloadKind::CondPut:
      // Keys 0..keys-1 exist and keys..2*keys-1 never do (a failed put
      // creates nothing): attribute_exists(pk) fails half the time, steadily.
      ops_.push_back(put_item(2 * keys, true));
      break;
    case WorkloadKind::Mix:
      ops_.push_back(get_item());
      ops_.push_back(put_item(keys, false));
      break;
    case WorkloadKind::Update: {
      BodyTemplate t;
      const int key = t.group(kKeyDigits, 0, keys);
      t.text(R"({"TableName":)" + table + R"(,"Key":{"pk":{"S":"user#)").slot(key);
      t.text(R"("}},"UpdateExpression":"SET #n = :n, updated = :t ADD visits :one",)");
      t.text(R"("ExpressionAttributeNames":{"#n":"name"},"ExpressionAttributeValues":{":n":{"S":"Customer )");
      t.slot(key).text(R"j( (updated)"},":t":{"N":"1700000001"},":one":{"N":"1"}}})j");
      ops_.push_back(make(signer, host, "UpdateItem", std::move(t), Expect::Ok));
      break;
    }
    case WorkloadKind::Query: {
      BodyTemplate t;
      const int partition = t.group(kKeyDigits, 0, shape.partitions());
      t.text(R"({"TableName":)" + quoted(shape.query_table) + R"(,"KeyConditionExpression":"pk = :p",)");
      t.text(R"("ExpressionAttributeValues":{":p":{"S":"part#)").slot(partition).text(R"("}}})");
      ops_.push_back(make(signer, host, "Query", std::move(t), Expect::Ok));
      break;
    }
    case WorkloadKind::QueryGsi:
    case WorkloadKind::QueryGsi3: {
      // One bench_q partition's 10 items through an index keyed by what the partition's items share.
      const bool multi = kind == WorkloadKind::QueryGsi3;
      BodyTemplate t;
      const int partition = t.group(kKeyDigits, 0, shape.partitions());
      t.text(R"({"TableName":)" + quoted(shape.query_table) + R"(,"IndexName":")" + (multi ? "by_contact" : "by_name") +
             R"(",)");
      t.text(multi ? R"("KeyConditionExpression":"#n = :n AND email = :e AND created = :c",)"
                   : R"("KeyConditionExpression":"#n = :n",)");
      t.text(R"("ExpressionAttributeNames":{"#n":"name"},"ExpressionAttributeValues":{":n":{"S":"Customer )");
      t.slot(partition).text(R"("})");
      if (multi) {
        t.text(R"(,":e":{"S":"customer.)").slot(partition).text(R"(@example.com"},":c":{"N":"1700000000"})");
      }
      t.text("}}");
      ops_.push_back(make(signer, host, "Query", std::move(t), Expect::Ok));
      break;
    }
    case WorkloadKind::BatchWrite: {
      BodyTemplate t;
      t.text(R"({"RequestItems":{)" + table + ":[");
      for (int i = 0; i < kBatchSize; ++i) {
        const int key = t.group(kKeyDigits, 0, keys, true);
        const int score = t.group(kScoreDigits, kScoreLow, kScoreSpan);
        if (i > 0) t.text(",");
        t.text(R"({"PutRequest":{"Item":)");
        append_item(t, key, score);
        t.text("}}");
      }
      t.text("]}}");
      ops_.push_back(make(signer, host, "BatchWriteItem", std::move(t), Expect::BatchOk));
      break;
    }
    case WorkloadKind::TransactWrite: {
      BodyTemplate t;
      t.text(R"({"TransactItems":[)");
      for (int i = 0; i < 2; ++i) {
        const int key = t.group(kKeyDigits, 0, keys, true);
        const int score = t.group(kScoreDigits, kScoreLow, kScoreSpan);
        if (i > 0) t.text(",");
        t.text(R"({"Put":{"TableName":)" + table + R"(,"Item":)");
        append_item(t, key, score);
        t.text("}}");
      }
      t.text("]}");
      ops_.push_back(make(signer, host, "TransactWriteItems", std::move(t), Expect::Ok));
      break;
    }
    case WorkloadKind::ScanFilter: {
      // A page of a paginated scan, resuming after a random existing key;
      // about half the items pass the filter (scores are uniform in 100..999).
      BodyTemplate t;
      const int key = t.group(kKeyDigits, 0, keys);
      t.text(R"({"TableName":)" + table + R"(,"FilterExpression":"score < :s",)");
      t.text(R"("ExpressionAttributeValues":{":s":{"N":"550"}},"Limit":100,)");
      t.text(R"("ExclusiveStartKey":{"pk":{"S":"user#)").slot(key).text(R"("}}})");
      ops_.push_back(make(signer, host, "Scan", std::move(t), Expect::Ok));
      break;
    }
    case WorkloadKind::RawGet: ops_.push_back(Operation{SignedRequest::raw_get(host), {}, Expect::Ok}); break;
  }
}

Operation& OperationSet::next(Rng& rng) {
  Operation& op = kind_ == WorkloadKind::Mix && rng.uniform(10) == 0 ? ops_[1] : ops_[0];
  drawn_.clear();
  char* body = op.request.body();
  for (const auto& g : op.groups) {
    std::uint64_t value = g.low + rng.uniform(g.span);
    if (g.unique) {
      while (std::find(drawn_.begin(), drawn_.end(), value) != drawn_.end()) value = g.low + rng.uniform(g.span);
      drawn_.push_back(value);
    }
    BodyTemplate::write(body, g, value);
  }
  return op;
}

std::string_view error_type_of(std::string_view body) {
  const std::size_t at = body.find("\"__type\"");
  if (at == std::string_view::npos) return {};
  std::size_t start = body.find('"', body.find(':', at + 8));
  if (start == std::string_view::npos) return {};
  const std::size_t end = body.find('"', start + 1);
  if (end == std::string_view::npos) return {};
  std::string_view type = body.substr(start + 1, end - start - 1);
  const std::size_t hash = type.rfind('#');
  return hash == std::string_view::npos ? type : type.substr(hash + 1);
}

namespace {

// True when "UnprocessedItems" is absent or an empty object.
bool nothing_unprocessed(std::string_view body) {
  std::size_t at = body.find("\"UnprocessedItems\"");
  if (at == std::string_view::npos) return true;
  at = body.find(':', at);
  auto skip_space = [&](std::size_t i) {
    while (i < body.size() && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r' || body[i] == '\t')) ++i;
    return i;
  };
  std::size_t i = skip_space(at + 1);
  if (i >= body.size() || body[i] != '{') return false;
  i = skip_space(i + 1);
  return i < body.size() && body[i] == '}';
}

}  // namespace

Outcome classify(Expect expect, int status, std::string_view body, std::string& error_type) {
  if (status == 200) {
    if (expect == Expect::BatchOk && !nothing_unprocessed(body)) {
      error_type = "UnprocessedItems";
      return Outcome::Error;
    }
    return Outcome::Ok;
  }
  const std::string_view type = error_type_of(body);
  if (expect == Expect::OkOrConditionFailed && status == 400 && type == "ConditionalCheckFailedException") {
    return Outcome::ExpectedFailure;
  }
  error_type = type.empty() ? "HTTP " + std::to_string(status) : std::string(type);
  return Outcome::Error;
}

}  // namespace dynamod::bench
