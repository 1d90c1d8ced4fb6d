#pragma once
// The data model of a table: key schema, attribute definitions, indexes,
// billing, and the settings DescribeTable reports. Built by validating a
// CreateTable request; persisted by storage/ in the catalog.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/attribute_value.h"

namespace dynamod {

// Key attributes are scalars. The order is persisted: never reorder.
enum class ScalarType : std::uint8_t { S, N, B };
std::string_view scalar_type_name(ScalarType type);
std::optional<ScalarType> parse_scalar_type(std::string_view name);
AttributeType to_attribute_type(ScalarType type);

struct KeyElement {
  std::string name;
  ScalarType type = ScalarType::S;
  friend bool operator==(const KeyElement&, const KeyElement&) = default;
};

struct KeyDef {
  KeyElement partition;
  std::optional<KeyElement> sort;
  // A global index's multi-attribute key (protocol/index_key_schema.h): its
  // second to fourth partition-key attributes and its sort-key attributes
  // after `sort`, in KeySchema order. Empty for tables, LSIs and other GSIs.
  std::vector<KeyElement> more_partition;
  std::vector<KeyElement> more_sort;

  bool multi_attribute() const { return !more_partition.empty() || !more_sort.empty(); }
  // Every partition-key (sort-key) attribute, in KeySchema order.
  std::vector<const KeyElement*> partition_elements() const;
  std::vector<const KeyElement*> sort_elements() const;
  // Whether `attribute` is one of the key's attributes.
  bool includes(std::string_view attribute) const;
  friend bool operator==(const KeyDef&, const KeyDef&) = default;
};

struct AttributeDefinition {
  std::string name;
  ScalarType type = ScalarType::S;
  friend bool operator==(const AttributeDefinition&, const AttributeDefinition&) = default;
};

enum class BillingMode : std::uint8_t { Provisioned, PayPerRequest };
std::string_view billing_mode_name(BillingMode mode);

enum class TableClass : std::uint8_t { Standard, StandardInfrequentAccess };
std::string_view table_class_name(TableClass table_class);

enum class ProjectionType : std::uint8_t { All, KeysOnly, Include };
std::string_view projection_type_name(ProjectionType type);

enum class StreamViewType : std::uint8_t { KeysOnly, NewImage, OldImage, NewAndOldImages };
std::string_view stream_view_type_name(StreamViewType type);

struct Throughput {
  std::int64_t read_units = 0;
  std::int64_t write_units = 0;
  double last_increase = 0;  // epoch seconds; 0 = never
  double last_decrease = 0;
  std::int64_t decreases_today = 0;
  friend bool operator==(const Throughput&, const Throughput&) = default;
};

// OnDemandThroughput of an on-demand table or GSI: its maximum request units per second, -1 for
// no maximum (API_OnDemandThroughput).
struct OnDemandMaximum {
  std::int64_t read_units = -1;
  std::int64_t write_units = -1;
  friend bool operator==(const OnDemandMaximum&, const OnDemandMaximum&) = default;
};

// Warm throughput (units per second a table or GSI serves at once). What DescribeTable reports is
// never below the floor: 12,000 read / 4,000 write units on demand, the provisioned units otherwise
// (protocol/capacity_settings.h).
struct WarmUnits {
  std::int64_t read_units = 0;
  std::int64_t write_units = 0;
  friend bool operator==(const WarmUnits&, const WarmUnits&) = default;
};

struct Projection {
  ProjectionType type = ProjectionType::All;
  std::vector<std::string> non_key_attributes;
  friend bool operator==(const Projection&, const Projection&) = default;
};

enum class IndexStatus : std::uint8_t { Creating, Updating, Deleting, Active };
std::string_view index_status_name(IndexStatus status);

// CloudWatch Contributor Insights of a table or a global index, as
// UpdateContributorInsights left it (protocol/contributor_insights.h). A
// setting never changed is no value at all: it reads DISABLED with no mode.
// The orders are persisted: never reorder.
enum class ContributorInsightsStatus : std::uint8_t { Enabling, Enabled, Disabling, Disabled, Failed };
enum class ContributorInsightsMode : std::uint8_t { AccessedAndThrottledKeys, ThrottledKeys };
struct ContributorInsights {
  ContributorInsightsStatus status = ContributorInsightsStatus::Disabled;  // ENABLED, DISABLED or FAILED
  ContributorInsightsMode mode = ContributorInsightsMode::AccessedAndThrottledKeys;
  double last_update = 0;             // epoch seconds of the last change
  std::int64_t rules_created_ms = 0;  // when the rules were made: their names' suffix
  friend bool operator==(const ContributorInsights&, const ContributorInsights&) = default;
};

struct IndexSchema {
  std::string name;
  std::uint32_t id = 0;  // storage key space of the index
  KeyDef key;
  Projection projection;
  std::optional<Throughput> throughput;              // GSIs of PROVISIONED tables
  std::optional<OnDemandMaximum> on_demand_maximum;  // GSIs: as last set
  std::optional<WarmUnits> warm;                     // GSIs: as last asked for
  IndexStatus status = IndexStatus::Active;
  bool backfilling = false;
  std::optional<ContributorInsights> contributor_insights;  // global indexes only
  friend bool operator==(const IndexSchema&, const IndexSchema&) = default;
};

// A vector index (CreateTable's VectorIndexes, UpdateTable's VectorIndexUpdates;
// protocol/vector_index.h). The orders are persisted: never reorder.
enum class DistanceFunction : std::uint8_t { Cosine, Euclidean, DotProduct };
std::string_view distance_function_name(DistanceFunction function);
enum class SearchSchemaRole : std::uint8_t { Hash, InlineFilter };

struct SearchSchemaElement {
  std::string name;
  SearchSchemaRole role = SearchSchemaRole::Hash;
  ScalarType type = ScalarType::S;  // from the table's AttributeDefinitions
  friend bool operator==(const SearchSchemaElement&, const SearchSchemaElement&) = default;
};

struct VectorIndexSchema {
  std::string name;
  std::uint32_t id = 0;   // storage key space of the index's vectors
  std::string attribute;  // the vector attribute
  std::int64_t dimensions = 0;
  DistanceFunction distance = DistanceFunction::Cosine;
  std::vector<SearchSchemaElement> search_schema;
  Projection projection;
  IndexStatus status = IndexStatus::Active;
  bool backfilling = false;
  // The search schema's HASH element, if it has one.
  const SearchSchemaElement* hash() const {
    for (const auto& e : search_schema) {
      if (e.role == SearchSchemaRole::Hash) return &e;
    }
    return nullptr;
  }
  friend bool operator==(const VectorIndexSchema&, const VectorIndexSchema&) = default;
};

struct StreamSpec {
  bool enabled = false;
  StreamViewType view_type = StreamViewType::NewAndOldImages;
  // The latest stream (kept after it is disabled): its key space and label.
  std::uint32_t id = 0;
  std::string label;  // ISO-8601 creation time, e.g. 2026-11-30T07:30:00.123
  friend bool operator==(const StreamSpec&, const StreamSpec&) = default;
};

struct PointInTimeRecovery {
  bool enabled = false;
  std::int64_t recovery_period_days = 35;
  double enabled_at = 0;  // epoch seconds
  // The oldest time a restore may ask for: the recovery period back, or when recovery was turned on.
  double earliest_restorable(double now) const {
    return std::max(enabled_at, now - static_cast<double>(recovery_period_days) * 86400.0);
  }
  friend bool operator==(const PointInTimeRecovery&, const PointInTimeRecovery&) = default;
};

struct TimeToLive {
  std::string attribute;
  bool enabled = false;
  std::int64_t changed_ms = 0;  // when UpdateTimeToLive last changed it (for the cooldown)
  friend bool operator==(const TimeToLive&, const TimeToLive&) = default;
};

struct Tag {
  std::string key;
  std::string value;
  friend bool operator==(const Tag&, const Tag&) = default;
};

// The resource-based policy of a table or of one of its streams
// (protocol/resource_policy.h). An entry whose document is empty records the
// deletion of one: its time and the RevisionId a second delete answers.
struct ResourcePolicy {
  std::string stream_label;     // empty: the table's own policy
  std::string document;         // canonical form, as submitted (no Version if it had none)
  std::string revision_id;      // the change's time in epoch milliseconds
  std::int64_t changed_ms = 0;  // for the window in which another change is refused
  friend bool operator==(const ResourcePolicy&, const ResourcePolicy&) = default;
};

// Where a table restored from a backup came from (DescribeTable's RestoreSummary).
struct RestoreSummary {
  std::string source_backup_arn;
  std::string source_table_arn;
  double restore_time = 0;  // epoch seconds
  friend bool operator==(const RestoreSummary&, const RestoreSummary&) = default;
};

enum class TableStatus : std::uint8_t { Creating, Updating, Deleting, Active };
std::string_view table_status_name(TableStatus status);

struct TableSchema {
  std::string name;
  std::uint32_t id = 0;      // storage key space of the table's items
  std::string table_id;      // the TableId UUID DescribeTable reports
  std::string region;        // region the table was created in
  double creation_time = 0;  // epoch seconds
  KeyDef key;
  std::vector<AttributeDefinition> attribute_definitions;
  BillingMode billing_mode = BillingMode::Provisioned;
  // Epoch seconds of the last switch to PAY_PER_REQUEST; a table that was never on demand reports
  // no BillingModeSummary.
  double billing_mode_updated = 0;
  Throughput throughput;
  std::optional<OnDemandMaximum> on_demand_maximum;  // as last set
  std::optional<WarmUnits> warm;                     // the highest asked for or reached (it never decreases)
  // Server-side encryption with a KMS key (SSESpecification Enabled): the key as named
  // (protocol/capacity_settings.h checked_sse_key). Empty: the default AWS-owned key, which
  // DescribeTable does not describe.
  std::string sse_kms_key;
  std::vector<IndexSchema> global_indexes;
  std::vector<IndexSchema> local_indexes;
  std::vector<VectorIndexSchema> vector_indexes;
  std::optional<TableClass> table_class;  // reported once set (STANDARD otherwise)
  bool deletion_protection = false;
  std::optional<StreamSpec> stream;
  std::optional<TimeToLive> ttl;
  PointInTimeRecovery point_in_time_recovery;
  std::vector<Tag> tags;
  std::optional<ContributorInsights> contributor_insights;
  std::vector<ResourcePolicy> resource_policies;
  std::optional<RestoreSummary> restore;
  TableStatus status = TableStatus::Active;
  // Storage: how the keys of this table's index entries are laid out (see
  // storage/index_entries.h); kept per table so that older tables stay readable.
  std::uint32_t index_key_format = 1;

  const AttributeDefinition* find_attribute(std::string_view name) const;
  const IndexSchema* find_index(std::string_view name) const;
  const VectorIndexSchema* find_vector_index(std::string_view name) const;
  bool is_global(const IndexSchema& index) const;
  // True for attributes an index's entries hold: its keys, the table's keys,
  // and the projection.
  bool projects(const IndexSchema& index, std::string_view attribute) const;
  friend bool operator==(const TableSchema&, const TableSchema&) = default;
};

// Live counters of a table, as DescribeTable reports them.
struct TableCounters {
  std::int64_t item_count = 0;
  std::int64_t size_bytes = 0;
};

}  // namespace dynamod
