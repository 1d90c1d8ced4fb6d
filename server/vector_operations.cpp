// SearchVectors: similarity search over a table's vector index
// (protocol/vector_search_request, storage/vector_search).

#include <array>
#include <charconv>
#include <cstdlib>
#include <utility>

#include "metering/access_pattern.h"
#include "metering/item_size.h"

#include "protocol/attribute_json.h"
#include "protocol/expr/projection.h"
#include "protocol/json_writer.h"
#include "protocol/responses.h"
#include "protocol/vector_search_request.h"
#include "server/operations.h"
#include "server/usage.h"
#include "storage/item_codec.h"
#include "storage/item_ops.h"
#include "storage/vector_search.h"

namespace dynamod {
namespace {

using boost::asio::awaitable;

// The index's f32 copy of a vector, each number the shortest decimal naming its
// float: a search hands back that copy, not the item's text (tier2
// vectorSearch/search.test.ts, measured 2026-08-11: 16777217 comes back 16777216).
AttributeValue f32_copy(const AttributeValue& vector) {
  List out;
  for (const auto& n : vector.as_list().values) {
    auto f = static_cast<float>(std::strtod(n.as_number().to_string().c_str(), nullptr));
    std::array<char, 32> text{};
    auto end = std::to_chars(text.data(), text.data() + text.size(), f).ptr;
    out.values.push_back(AttributeValue::number(*Number::parse(std::string_view(text.data(), end)).number));
  }
  return AttributeValue::list(std::move(out));
}

// What a result holds: the requested paths, or every projected attribute but
// the vector ("the results from SearchVectors don't include the vector attribute").
Item result_item(const VectorSearchSpec& spec, Item projected) {
  if (!spec.projection) {
    projected.erase(spec.index->attribute);
    return projected;
  }
  // Entries hold only well-formed vectors (a list of numbers within f32's range).
  if (AttributeValue* vector = projected.find(spec.index->attribute)) *vector = f32_copy(*vector);
  return expr::project(projected, *spec.projection);
}

// VectorSearchRequestBytes, dynamod's model of the documented rule ("scales with
// the size of the vector data the search examines and returns"): 4 bytes per
// dimension of every vector scored, plus the metered size of the results.
double search_bytes(const VectorSearchSpec& spec, const vectors::SearchResult& result, std::uint64_t returned) {
  return static_cast<double>(result.examined * 4 * static_cast<std::uint64_t>(spec.index->dimensions) + returned);
}

awaitable<Reply> search_vectors(OperationContext& ctx, json::object body) {
  SearchVectorsRequest request = decode_search_vectors(body);
  ctx.table_name = *request.table_name;
  TablePtr table = ops::resolve_table(ctx.store, ctx.scope, *request.table_name);
  VectorSearchSpec spec = validate_search_vectors(request, table->schema);
  vectors::SearchResult result = vectors::search(ctx.store, ctx.writer, spec);

  JsonWriter out;
  out.begin_object();
  out.key("SearchResults");
  out.begin_array();
  std::uint64_t returned = 0;
  for (const auto& hit : result.hits) {
    Item item = result_item(spec, items::decode(hit.record, ctx.store.names()));
    JsonWriter one;
    one.begin_object();
    one.key("Item");
    encode_item(one, item);
    one.key("Score");
    one.real(hit.score);
    one.end_object();
    // No pagination: an answer stops before it would pass 16 MB.
    if (out.str().size() + one.str().size() + 64 > kMaxSearchResponseBytes) break;
    out.raw(one.str());
    returned += metering::item_size(item);
  }
  out.end_array();
  ConsumedCapacity consumed;
  consumed.table_name = table->schema.name;
  consumed.vector_index(spec.index->name).search_bytes = search_bytes(spec, result, returned);
  if (request.return_consumed_capacity != ReturnConsumedCapacity::None) {
    out.key("ConsumedCapacity");
    out.begin_object();
    out.key("VectorSearchRequestBytes");
    out.real(consumed.vector_indexes.front().search_bytes);
    out.end_object();
  }
  out.end_object();
  account(ctx, "SearchVectors", table.get(), consumed, nullptr);
  if (ctx.ledger.recording()) {
    const SearchSchemaElement* hash = spec.index->hash();
    PatternUse use;
    use.operation = "SearchVectors";
    use.table = table->schema.name;
    use.index = spec.index->name;
    use.shape = metering::vector_search_shape(spec.index->name, hash ? std::string_view(hash->name) : "",
                                              spec.hash_value ? &*spec.hash_value : nullptr, !spec.filters.empty());
    use.items_read = result.examined;
    use.items_returned = result.hits.size();
    ctx.ledger.record_pattern(ctx.scope.ns(), std::move(use), consumed);
  }
  co_return out.take();
}

constexpr std::array<NamedOperation, 1> kOperations{{
    {"SearchVectors", search_vectors},
}};

}  // namespace

std::span<const NamedOperation> vector_operations() { return kOperations; }

}  // namespace dynamod
