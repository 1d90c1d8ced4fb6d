#include "protocol/capacity_settings.h"

#include <algorithm>
#include <cstdio>

namespace dynamod {
namespace {

constexpr std::int64_t kOnDemandWarmRead = 12000;  // every new on-demand table and GSI
constexpr std::int64_t kOnDemandWarmWrite = 4000;
constexpr std::string_view kManagedKey = "alias/aws/dynamodb";

std::optional<std::int64_t> read_integer_member(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return json::read_integer(v);
}

void check_maximum(std::optional<std::int64_t> units, const char* member, const std::string& index) {
  if (!units || *units == -1 || *units >= 1) return;
  throw ApiError::invalid_parameter(std::string("Requested ") + member + " for OnDemandThroughput for " +
                                    (index.empty() ? "table" : "index") + " is outside of valid range");
}

// FNV-1a: a stable digest of an alias, for the id of the key it names.
std::uint64_t fnv1a(std::string_view text, std::uint64_t seed) {
  std::uint64_t h = 1469598103934665603ULL ^ seed;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string alias_key_id(std::string_view account, std::string_view region, std::string_view alias) {
  std::string scope = std::string(account) + ':' + std::string(region) + ':' + std::string(alias);
  std::uint64_t a = fnv1a(scope, 0), b = fnv1a(scope, 0x9e3779b97f4a7c15ULL);
  char out[37];
  std::snprintf(out, sizeof out, "%08x-%04x-4%03x-a%03x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>((b >> 48) & 0xfff), static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return out;
}

}  // namespace

std::optional<RawOnDemandThroughput> decode_raw_on_demand(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  RawOnDemandThroughput t;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "MaxReadRequestUnits") t.read_units = read_integer_member(value);
    else if (key == "MaxWriteRequestUnits") t.write_units = read_integer_member(value);
  }
  return t;
}

std::optional<RawWarmThroughput> decode_raw_warm(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  RawWarmThroughput t;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ReadUnitsPerSecond") t.read_units = read_integer_member(value);
    else if (key == "WriteUnitsPerSecond") t.write_units = read_integer_member(value);
  }
  return t;
}

std::optional<RawSseSpecification> decode_raw_sse(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  RawSseSpecification s;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (json::is_null(value)) continue;
    if (key == "Enabled") s.enabled = json::read_bool(value);
    else if (key == "SSEType") s.sse_type = std::string(json::read_string(value));
    else if (key == "KMSMasterKeyId") s.kms_key = std::string(json::read_string(value));
  }
  return s;
}

void check_warm_constraints(const RawWarmThroughput& warm, const std::string& path, ConstraintErrors& errors) {
  for (const auto& [units, member] :
       {std::pair{warm.read_units, ".readUnitsPerSecond"}, {warm.write_units, ".writeUnitsPerSecond"}}) {
    if (units && *units < 1) {
      errors.add(std::to_string(*units), path + member, "Member must have value greater than or equal to 1");
    }
  }
}

void check_sse_constraints(const RawSseSpecification& sse, ConstraintErrors& errors) {
  if (sse.sse_type && *sse.sse_type != "AES256" && *sse.sse_type != "KMS") {
    errors.add(*sse.sse_type, "sSESpecification.sSEType", "Member must satisfy enum value set: [AES256, KMS]");
  }
}

OnDemandMaximum checked_on_demand(const RawOnDemandThroughput& raw, BillingMode mode, const std::string& index,
                                  const std::optional<OnDemandMaximum>& current) {
  if (mode == BillingMode::Provisioned) {
    throw ApiError::invalid_parameter(
        index.empty()
            ? std::string("OnDemandThroughput cannot be specified when BillingMode is PROVISIONED")
            : "OnDemandThroughput cannot be specified for index: " + index + " when BillingMode is PROVISIONED");
  }
  check_maximum(raw.read_units, "MaxReadRequestUnits", index);
  check_maximum(raw.write_units, "MaxWriteRequestUnits", index);
  OnDemandMaximum out = current.value_or(OnDemandMaximum{});
  if (raw.read_units) out.read_units = *raw.read_units;
  if (raw.write_units) out.write_units = *raw.write_units;
  return out;
}

WarmUnits warm_floor(BillingMode mode, const Throughput* provisioned) {
  if (mode == BillingMode::PayPerRequest || provisioned == nullptr) return {kOnDemandWarmRead, kOnDemandWarmWrite};
  return {provisioned->read_units, provisioned->write_units};
}

WarmUnits described_warm(const std::optional<WarmUnits>& warm, BillingMode mode, const Throughput* provisioned) {
  WarmUnits floor = warm_floor(mode, provisioned);
  if (!warm) return floor;
  return {std::max(warm->read_units, floor.read_units), std::max(warm->write_units, floor.write_units)};
}

WarmUnits checked_table_warm(const RawWarmThroughput& raw, const WarmUnits& current) {
  WarmUnits next = checked_index_warm(raw, current);
  if (next.read_units < current.read_units || next.write_units < current.write_units) {
    throw ApiError::invalid_parameter("decreasing WarmThroughput is not supported");
  }
  return next;
}

WarmUnits checked_index_warm(const RawWarmThroughput& raw, const WarmUnits& current) {
  return {raw.read_units.value_or(current.read_units), raw.write_units.value_or(current.write_units)};
}

std::string checked_sse_key(const RawSseSpecification& sse) {
  const bool kms = sse.sse_type && *sse.sse_type == "KMS";
  if (sse.kms_key && !kms) throw ApiError::validation("SSEType KMS is required if KMSMasterKeyId is specified");
  if (!sse.enabled.value_or(false)) return "";
  return sse.kms_key ? *sse.kms_key : std::string(kManagedKey);
}

std::string kms_key_arn(const std::string& key, std::string_view region, std::string_view account) {
  const std::string prefix = "arn:aws:kms:" + std::string(region) + ':' + std::string(account) + ":key/";
  if (key.rfind("arn:", 0) == 0) {
    auto alias = key.find(":alias/");
    if (alias == std::string::npos) return key;
    // arn:aws:kms:<region>:<account>:alias/<name>: the key of that account and region.
    std::string_view rest = std::string_view(key).substr(std::string_view("arn:aws:kms:").size());
    std::string_view key_region = rest.substr(0, rest.find(':'));
    std::string_view key_account =
        rest.substr(key_region.size() + 1, rest.find(':', key_region.size() + 1) - key_region.size() - 1);
    return "arn:aws:kms:" + std::string(key_region) + ':' + std::string(key_account) + ":key/" +
           alias_key_id(key_account, key_region, std::string_view(key).substr(alias + 1));
  }
  if (key.rfind("alias/", 0) == 0) return prefix + alias_key_id(account, region, key);
  return prefix + key;
}

void encode_on_demand(JsonWriter& out, const OnDemandMaximum& maximum) {
  out.key("OnDemandThroughput");
  out.begin_object();
  out.key("MaxReadRequestUnits");
  out.integer(maximum.read_units);
  out.key("MaxWriteRequestUnits");
  out.integer(maximum.write_units);
  out.end_object();
}

void encode_warm(JsonWriter& out, const WarmUnits& warm, std::string_view status) {
  out.key("WarmThroughput");
  out.begin_object();
  out.key("ReadUnitsPerSecond");
  out.integer(warm.read_units);
  out.key("WriteUnitsPerSecond");
  out.integer(warm.write_units);
  out.key("Status");
  out.string(status);
  out.end_object();
}

void encode_sse_description(JsonWriter& out, const std::string& key_arn) {
  out.key("SSEDescription");
  out.begin_object();
  out.key("Status");
  out.string("ENABLED");
  out.key("SSEType");
  out.string("KMS");
  out.key("KMSMasterKeyArn");
  out.string(key_arn);
  out.end_object();
}

}  // namespace dynamod
