// Import objects: DYNAMODB_JSON lines, JSON arrays of items, CSV, and the
// GZIP/ZSTD decompression, with bad records counted as errors.
#include <doctest/doctest.h>
#include <zlib.h>
#include <zstd.h>

#include "protocol/import_data.h"

using namespace dynamod;
using namespace dynamod::imports;

namespace {

struct Collected final : ItemSink {
  std::vector<Item> items;
  std::vector<std::size_t> item_lines;
  std::size_t bytes = 0;
  std::vector<std::pair<std::size_t, std::string>> errors;
  void item(Item item, std::size_t line, std::size_t source_bytes) override {
    items.push_back(std::move(item));
    item_lines.push_back(line);
    bytes += source_bytes;
  }
  void error(std::size_t line, std::string message) override { errors.emplace_back(line, std::move(message)); }
};

std::string s_of(const Item& item, std::string_view name) {
  const AttributeValue* v = item.find(name);
  REQUIRE(v != nullptr);
  REQUIRE(v->type() == AttributeType::S);
  return v->as_string();
}

std::string gzip(std::string_view text) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string zstd(std::string_view text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const std::size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  REQUIRE(!ZSTD_isError(n));
  out.resize(n);
  return out;
}

}  // namespace

TEST_CASE("DYNAMODB_JSON: one item per line, bad lines counted") {
  const std::string first = "{\"Item\":{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1.50\"},\"ss\":{\"SS\":[\"x\",\"y\"]}}}\n";
  const std::string second = "{\"Item\":{\"pk\":{\"S\":\"b\"}}}\r\n";
  const std::string last = "{\"Item\":{\"pk\":{\"S\":\"last\"}}}";
  const std::string text = first + "\n" + second +
                           "not json\n"
                           "{\"Item\":{\"pk\":{\"Q\":\"c\"}}}\n"
                           "{\"Thing\":{}}\n"
                           "{}\n"
                           "{\"Item\":{\"pk\":{\"N\":\"abc\"}}}\n" +
                           last;
  Collected c;
  read_dynamodb_json(text, c);
  REQUIRE(c.items.size() == 3);
  CHECK(s_of(c.items[0], "pk") == "a");
  CHECK(c.items[0].find("n")->as_number().to_string() == "1.5");
  CHECK(s_of(c.items[1], "pk") == "b");
  CHECK(s_of(c.items[2], "pk") == "last");
  CHECK(c.item_lines == std::vector<std::size_t>{1, 3, 9});
  REQUIRE(c.errors.size() == 5);
  CHECK(c.errors[0] == std::pair<std::size_t, std::string>{4, "The line is not valid JSON"});
  CHECK(c.errors[1].first == 5);
  CHECK(c.errors[1].second.find("Supplied AttributeValue") != std::string::npos);
  CHECK(c.errors[2] == std::pair<std::size_t, std::string>{6, "Unexpected member Thing in the record"});
  CHECK(c.errors[3] == std::pair<std::size_t, std::string>{7, "The record has no Item member"});
  CHECK(c.errors[4].first == 8);
  CHECK(c.bytes == first.size() + second.size() + last.size());  // the items' lines, breaks included
}

TEST_CASE("DYNAMODB_JSON: nesting is bounded") {
  std::string deep = "{\"Item\":{\"pk\":{\"S\":\"a\"},\"m\":";
  for (int i = 0; i < 40; ++i) deep += "{\"L\":[";
  deep += "{\"S\":\"x\"}";
  for (int i = 0; i < 40; ++i) deep += "]}";
  deep += "}}\n";
  std::string very_deep(5000, '[');
  Collected c;
  read_dynamodb_json(deep + very_deep + "\n", c);
  CHECK(c.items.empty());
  REQUIRE(c.errors.size() == 2);
  CHECK(c.errors[0].second.find("Nesting Levels") != std::string::npos);
  CHECK(c.errors[1].second == "The line is not valid JSON");
}

TEST_CASE("JSON array of items, wrapped or not") {
  const std::string text =
      "[\n  {\"pk\": {\"S\": \"a\"}},\n  {\"Item\": {\"pk\": {\"S\": \"b\"}}},\n  {\"pk\": {\"X\": \"c\"}},\n"
      "  {\"pk\": {\"S\": \"d\"}, \"n\": {\"N\": \"2\"}}\n]";
  Collected c;
  read_item_array(text, c);
  REQUIRE(c.items.size() == 3);
  CHECK(s_of(c.items[0], "pk") == "a");
  CHECK(s_of(c.items[1], "pk") == "b");
  CHECK(s_of(c.items[2], "pk") == "d");
  CHECK(c.item_lines == std::vector<std::size_t>{2, 3, 5});
  REQUIRE(c.errors.size() == 1);
  CHECK(c.errors[0].first == 4);

  Collected bad;
  read_item_array("{\"pk\":{\"S\":\"a\"}}", bad);
  CHECK(bad.items.empty());
  CHECK(bad.errors == std::vector<std::pair<std::size_t, std::string>>{{0, "The file is not a JSON array of items"}});
  Collected scalar;
  read_item_array("[1]", scalar);
  CHECK(scalar.errors.size() == 1);
}

TEST_CASE("CSV with a header line: keys typed, the rest strings") {
  const std::vector<AttributeDefinition> keys{{"id", ScalarType::N}, {"sk", ScalarType::S}, {"bin", ScalarType::B}};
  const std::string text =
      "id,sk,name,bin,note\r\n"
      "1,a,Alice,AAE=,\"says \"\"hi\"\", twice\"\r\n"
      "2,b,Bob,,\"two\nlines\"\n"
      "\n"
      "x,c,Carol,,\n"
      "3,d,too,many,fields,here\n"
      "4,e,Dan,###,\n"
      "5,f,42,,";
  Collected c;
  read_csv(text, CsvOptions{}, keys, c);
  REQUIRE(c.items.size() == 3);
  CHECK(c.items[0].find("id")->as_number().to_string() == "1");
  CHECK(s_of(c.items[0], "sk") == "a");
  CHECK(s_of(c.items[0], "name") == "Alice");
  CHECK(c.items[0].find("bin")->as_binary() == std::string("\0\1", 2));
  CHECK(s_of(c.items[0], "note") == "says \"hi\", twice");
  CHECK(c.items[1].find("bin") == nullptr);  // an empty field sets nothing
  CHECK(s_of(c.items[1], "note") == "two\nlines");
  CHECK(s_of(c.items[2], "name") == "42");  // not a key: a string, even when it looks like a number
  CHECK(c.item_lines == std::vector<std::size_t>{2, 3, 9});
  REQUIRE(c.errors.size() == 3);
  CHECK(c.errors[0].first == 6);
  CHECK(c.errors[0].second.find("numeric value") != std::string::npos);
  CHECK(c.errors[1] == std::pair<std::size_t, std::string>{7, "Line 7 has 6 fields where the header has 5"});
  CHECK(c.errors[2] == std::pair<std::size_t, std::string>{8, "The value of bin is not base64 (its type is B)"});
}

TEST_CASE("CSV with HeaderList and a delimiter: the first line is data") {
  CsvOptions options;
  options.delimiter = '|';
  options.header_list = std::vector<std::string>{"pk", "v"};
  Collected c;
  read_csv("a|1\nb|two, with a comma\n", options, {{"pk", ScalarType::S}}, c);
  REQUIRE(c.items.size() == 2);
  CHECK(s_of(c.items[0], "pk") == "a");
  CHECK(s_of(c.items[0], "v") == "1");
  CHECK(s_of(c.items[1], "v") == "two, with a comma");
  CHECK(c.errors.empty());
  CHECK(c.bytes == 24);
}

TEST_CASE("CSV that cannot be read on ends with one error") {
  Collected unclosed;
  read_csv("pk,v\na,1\nb,\"open\nc,3\n", CsvOptions{}, {{"pk", ScalarType::S}}, unclosed);
  CHECK(unclosed.items.size() == 1);
  CHECK(unclosed.errors ==
        std::vector<std::pair<std::size_t, std::string>>{{3, "A quoted field that starts on line 3 is never closed"}});
  Collected stray;
  read_csv("pk,v\na,x\"y\nb,2\n", CsvOptions{}, {{"pk", ScalarType::S}}, stray);
  CHECK(stray.items.empty());
  REQUIRE(stray.errors.size() == 1);
  CHECK(stray.errors[0].second == "Line 2 has a quote inside a field that is not quoted (escape it as \"\")");
}

TEST_CASE("GZIP and ZSTD objects, several members or frames, and corrupt ones") {
  const std::string a = "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n";
  const std::string b(300000, 'x');  // past one output chunk
  std::string why;
  CHECK(decompress(gzip(a), Compression::Gzip, why) == a);
  CHECK(decompress(gzip(a) + gzip(b), Compression::Gzip, why) == a + b);
  CHECK(decompress(zstd(a) + zstd(b), Compression::Zstd, why) == a + b);
  CHECK(decompress(a, Compression::None, why) == a);

  CHECK(!decompress(a, Compression::Gzip, why));
  CHECK(why.rfind("not GZIP data", 0) == 0);
  const std::string cut = gzip(b);
  CHECK(!decompress(cut.substr(0, cut.size() / 2), Compression::Gzip, why));
  CHECK(why == "the GZIP data ends early");
  CHECK(!decompress(a, Compression::Zstd, why));
  CHECK(why.rfind("not ZSTD data", 0) == 0);
  const std::string zcut = zstd(b + a);
  CHECK(!decompress(zcut.substr(0, zcut.size() - 4), Compression::Zstd, why));
}

TEST_CASE("format and compression names") {
  CHECK(parse_input_format("CSV") == InputFormat::Csv);
  CHECK(!parse_input_format("csv"));
  CHECK(input_format_name(InputFormat::DynamoDbJson) == "DYNAMODB_JSON");
  CHECK(parse_compression("ZSTD") == Compression::Zstd);
  CHECK(compression_name(Compression::None) == "NONE");
}

TEST_CASE("ION: {Item:{...}} records, one per line, bad ones counted") {
  const std::string text =
      "$ion_1_0 {Item:{pk:\"a\",n:1.50,ss:$dynamodb_SS::[\"x\",\"y\"],b:{{AAE=}}}}\n"
      "{Item:{pk:\"b\"}}\n"
      "{Item:{pk:\n"
      "{Other:{}}\n"
      "{Item:{pk:\"c\"}}";
  Collected c;
  read_ion(text, c);
  REQUIRE(c.items.size() == 3);
  CHECK(s_of(c.items[0], "pk") == "a");
  CHECK(c.items[0].find("n")->as_number().to_string() == "1.5");
  CHECK(c.items[0].find("ss")->type() == AttributeType::SS);
  CHECK(c.items[0].find("b")->as_binary() == std::string("\0\1", 2));
  CHECK(s_of(c.items[2], "pk") == "c");
  CHECK(c.item_lines == std::vector<std::size_t>{1, 2, 5});
  REQUIRE(c.errors.size() == 2);
  CHECK(c.errors[0].first == 3);
  CHECK(c.errors[1] == std::pair<std::size_t, std::string>{4, "The record has no Item member"});
}

TEST_CASE("ION: a record spread over lines reads with the whole object") {
  Collected c;
  read_ion("$ion_1_0\n{\n  Item: {\n    pk: \"a\"\n  }\n}\n{Item:{pk:\"b\"}}\n", c);
  REQUIRE(c.items.size() == 2);
  CHECK(c.errors.empty());
}
