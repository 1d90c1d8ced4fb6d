// request_object: the whole body must be JSON, including the members no
// decoder reads (simdjson's on-demand API checks a value only when it is read).
#include <doctest/doctest.h>
#include <simdjson.h>

#include <string>

#include "protocol/json_reader.h"

namespace dynamod {
namespace {

// Opens `text` as the server does, then reads the object from its start.
bool well_formed(const std::string& text) {
  simdjson::ondemand::parser parser;
  std::string body = text;
  simdjson::ondemand::document doc;
  json::object object;
  try {
    object = json::request_object(parser, body, doc);
  } catch (const ApiError& e) {
    CHECK(e.code() == ErrorCode::SerializationException);
    CHECK(e.message().empty());
    return false;
  }
  std::string_view first_key;
  for (auto field : object) {  // rewound for the decoders
    REQUIRE(field.unescaped_key().get(first_key) == simdjson::SUCCESS);
    break;
  }
  CHECK(first_key == "TableName");
  return true;
}

std::string with_member(const std::string& value) { return R"({"TableName":"t","Unknown":)" + value + "}"; }

}  // namespace

TEST_CASE("json reader: valid JSON passes and is rewound") {
  for (const char* value :
       {R"("")", R"("é \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00")", "0", "-0", "1", "-12", "0.5", "-0.5e+7", "1E400",
        "1e-400", "123456789012345678901234567890", "true", "false", "null", "[]", "{}",
        R"([1, "a", [true, {"b": [null]}], -2.5E3])", R"({"a": {"b": {"c": 1}}})", " 7 "}) {
    INFO(value);
    CHECK(well_formed(with_member(value)));
  }
}

TEST_CASE("json reader: a malformed value anywhere is a SerializationException") {
  for (const char* value : {R"("\x")",
                            R"("\u12")",
                            R"("\u12G4")",
                            "tru",
                            "nul",
                            "falsey",
                            "01",
                            "-01",
                            "1.",
                            ".5",
                            "+1",
                            "1e",
                            "1e+",
                            "-",
                            "--1",
                            "1.5.5",
                            "0x10",
                            "[1,,2]",
                            "[1,]",
                            R"({"a":1,})",
                            R"({"a" 1})",
                            R"([{"a": tru}])",
                            R"({"k": {"deep": ["\q"]}})"}) {
    INFO(value);
    CHECK_FALSE(well_formed(with_member(value)));
  }
}

TEST_CASE("json reader: nesting is bounded at Jackson's 1,000 levels, before any walk goes deeper") {
  // The body is level 1, so a member's value may nest 999 more levels.
  auto arrays = [](int n) { return std::string(n, '[') + std::string(n, ']'); };
  auto objects = [](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += R"({"a":)";
    return s + "1" + std::string(n, '}');
  };
  CHECK(well_formed(with_member(arrays(999))));
  CHECK_FALSE(well_formed(with_member(arrays(1000))));
  CHECK(well_formed(with_member(objects(999))));
  CHECK_FALSE(well_formed(with_member(objects(1000))));
  // Far past the limit: refused as quickly, with no stack to spare for it (a walk
  // of 1,000,000 levels would overflow any thread's stack).
  CHECK_FALSE(well_formed(with_member(arrays(1'000'000))));
  CHECK_FALSE(well_formed(with_member(objects(1'000'000))));
}

}  // namespace dynamod
