#pragma once
// Requests of the table operations, decoded as sent (raw strings, so that
// validation can echo them in the service's messages), and their validation.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/capacity_settings.h"
#include "protocol/json_reader.h"
#include "protocol/settings_requests.h"
#include "protocol/table_schema.h"
#include "protocol/vector_index_raw.h"

namespace dynamod {

struct RawKeyElement {
  std::optional<std::string> attribute_name;
  std::optional<std::string> key_type;
};

struct RawAttributeDefinition {
  std::optional<std::string> attribute_name;
  std::optional<std::string> attribute_type;
};

struct RawThroughput {
  std::optional<std::int64_t> read_units;
  std::optional<std::int64_t> write_units;
};

struct RawProjection {
  std::optional<std::string> projection_type;
  std::optional<std::vector<std::string>> non_key_attributes;
};

struct RawIndex {
  std::optional<std::string> index_name;
  std::optional<std::vector<RawKeyElement>> key_schema;
  std::optional<RawProjection> projection;
  std::optional<RawThroughput> throughput;
  std::optional<RawOnDemandThroughput> on_demand;  // GSIs
  std::optional<RawWarmThroughput> warm;           // GSIs
};

struct RawStreamSpecification {
  std::optional<bool> enabled;
  std::optional<std::string> view_type;
};

struct CreateTableRequest {
  std::optional<std::string> table_name;
  std::optional<std::vector<RawKeyElement>> key_schema;
  std::optional<std::vector<RawAttributeDefinition>> attribute_definitions;
  std::optional<std::string> billing_mode;
  std::optional<RawThroughput> throughput;
  std::optional<std::vector<RawIndex>> global_indexes;
  std::optional<std::vector<RawIndex>> local_indexes;
  std::optional<RawStreamSpecification> stream;
  std::optional<std::vector<RawTag>> tags;
  std::optional<std::string> table_class;
  std::optional<bool> deletion_protection;
  std::optional<std::string> resource_policy;                 // a policy document (protocol/resource_policy.h)
  std::optional<std::vector<RawVectorIndex>> vector_indexes;  // protocol/vector_index.h
  std::optional<RawOnDemandThroughput> on_demand;
  std::optional<RawWarmThroughput> warm;
  std::optional<RawSseSpecification> sse;
};

// One entry of UpdateTable's GlobalSecondaryIndexUpdates.
struct RawIndexUpdate {
  int actions = 0;  // how many of Create, Delete, Update it holds
  std::optional<RawIndex> create;
  std::optional<std::string> delete_name;
  std::optional<std::string> update_name;
  std::optional<RawThroughput> update_throughput;
  std::optional<RawOnDemandThroughput> update_on_demand;
  std::optional<RawWarmThroughput> update_warm;
};

struct UpdateTableRequest {
  std::optional<std::string> table_name;
  std::optional<std::string> billing_mode;
  std::optional<RawThroughput> throughput;
  std::optional<std::string> table_class;
  std::optional<bool> deletion_protection;
  std::optional<std::vector<RawAttributeDefinition>> attribute_definitions;
  std::optional<std::vector<RawIndexUpdate>> index_updates;
  std::optional<RawStreamSpecification> stream;
  std::optional<std::vector<RawVectorIndexUpdate>> vector_index_updates;  // protocol/vector_index.h
  std::optional<RawOnDemandThroughput> on_demand;
  std::optional<RawWarmThroughput> warm;
  std::optional<RawSseSpecification> sse;
  // Parameters of features dynamod lacks: present means "asked for".
  bool has_other_unsupported = false;
  std::string unsupported_parameter;
};

struct TableNameRequest {  // DescribeTable, DeleteTable
  std::optional<std::string> table_name;
};

struct ListTablesRequest {
  std::optional<std::string> exclusive_start_table_name;
  std::optional<std::int64_t> limit;
};

// Pieces shared with other table requests.
RawIndex decode_raw_index(json::value& v);
// A list of indexes (CreateTable's, a restore's overrides); nullopt for null.
std::optional<std::vector<RawIndex>> decode_raw_indexes(json::value& v);
std::optional<RawThroughput> decode_raw_throughput(json::value& v);
RawAttributeDefinition decode_raw_attribute_definition(json::value& v);
// The structure rules every key schema (table or index) obeys; returns the key.
KeyDef check_key_structure(const std::vector<RawKeyElement>& key_schema,
                           const std::vector<AttributeDefinition>& definitions,
                           const std::vector<RawAttributeDefinition>& raw_definitions);
Projection check_projection(const RawProjection& raw);
void check_index_constraints(const std::optional<std::vector<RawIndex>>& indexes, const std::string& family,
                             ConstraintErrors& errors);
// One index's Coral constraints; `member` is its path with a final '.' (e.g.
// "globalSecondaryIndexUpdates.2.member.create.").
// `global`: a global index's (its KeySchema may be a multi-attribute one).
void check_one_index_constraints(const RawIndex& index, const std::string& member, ConstraintErrors& errors,
                                 bool global = false);
void check_throughput_bounds(const RawThroughput& t);
void check_throughput_constraints(const RawThroughput& t, const std::string& path, ConstraintErrors& errors);
// 3..255 characters of [a-zA-Z0-9_.-] (table, index and backup names).
void check_name(const std::string& name, const std::string& path, ConstraintErrors& errors);

std::optional<RawStreamSpecification> decode_raw_stream_specification(json::value& v);
// StreamViewType text -> value; the service's message for anything else.
StreamViewType parse_stream_view_type(const std::string& text);

CreateTableRequest decode_create_table(json::object body);
UpdateTableRequest decode_update_table(json::object body);
TableNameRequest decode_table_name_request(json::object body);
ListTablesRequest decode_list_tables(json::object body);

// Validates a CreateTable request and builds the schema (without storage ids,
// TableId, region or creation time, which the engine assigns).
TableSchema validate_create_table(const CreateTableRequest& request);

// The changes an UpdateTable request asks for, validated against the table.
struct TableUpdate {
  std::optional<StreamSpec> stream;  // enable (with its view type) or disable
  std::optional<BillingMode> billing_mode;
  std::optional<std::pair<std::int64_t, std::int64_t>> throughput;
  std::optional<TableClass> table_class;
  std::optional<bool> deletion_protection;
  std::optional<OnDemandMaximum> on_demand_maximum;
  std::optional<WarmUnits> warm;
  std::optional<std::string> sse_key;  // protocol/capacity_settings.h checked_sse_key
};
// Checks the request on its own (constraints, required members).
void validate_update_table_request(const UpdateTableRequest& request);
bool has_table_changes(const UpdateTableRequest& request);
// Checks it against the current table and returns the changes.
TableUpdate validate_update_table(const UpdateTableRequest& request, const TableSchema& current);

// TableName of the control-plane operations (CreateTable, DescribeTable, ...):
// 3..255 characters of [a-zA-Z0-9_.-], or (except CreateTable) a table ARN.
const std::string& require_table_name(const std::optional<std::string>& name);
void check_table_name_constraints(const std::string& name, ConstraintErrors& errors, bool allow_arn = true);
// The TableName of a request that has only that (DescribeTimeToLive,
// DescribeContinuousBackups): required, then its constraints.
const std::string& checked_table_name(const TableNameRequest& request);

// arn:aws:dynamodb:<region>:<account>:table/<name>
struct TableArn {
  std::string_view region;
  std::string_view account;
  std::string_view name;
};
std::optional<TableArn> parse_table_arn(std::string_view text);
inline bool looks_like_arn(std::string_view text) { return text.rfind("arn:", 0) == 0; }

std::int64_t validate_list_tables_limit(const ListTablesRequest& request);

}  // namespace dynamod
