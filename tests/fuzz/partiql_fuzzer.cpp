// libFuzzer target: arbitrary bytes as a PartiQL statement, through what
// storage's prepare_statement does before it reads or writes: the parse, the
// checks made once parsed (with parameters drawn from a fixed pool, as many
// as the statement asks for), the WHERE clause and an UPDATE's clauses, and
// the translation into a read plan or a write request against a table with a
// global and a local index; then each translation alone as a batch's and a
// transaction's SELECT would be. Only ApiError may escape the library;
// anything else (another exception, a crash, a sanitizer report) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/api_error.h"
#include "protocol/partiql/parser.h"
#include "protocol/partiql/requests.h"
#include "protocol/partiql/statement_checks.h"
#include "protocol/partiql/translate.h"
#include "protocol/utf8.h"
#include "tests/fuzz/expand.h"
#include "tests/fuzz/guarded.h"

namespace {

using namespace dynamod;
using fuzz::guarded;
using namespace dynamod::partiql;

AttributeValue num(std::string_view t) { return AttributeValue::number(*Number::parse(t).number); }

struct Fixture {
  TableSchema table{.name = "t"};
  std::vector<AttributeValue> pool;

  Fixture() {
    table.key.partition = KeyElement{"pk", ScalarType::S};
    table.key.sort = KeyElement{"sk", ScalarType::N};
    IndexSchema g{.name = "gsi"};
    g.key.partition = KeyElement{"g", ScalarType::S};
    g.key.sort = KeyElement{"sk", ScalarType::N};
    g.projection.type = ProjectionType::KeysOnly;
    table.global_indexes.push_back(g);
    IndexSchema l{.name = "lsi"};
    l.key.partition = KeyElement{"pk", ScalarType::S};
    l.key.sort = KeyElement{"l", ScalarType::B};
    table.local_indexes.push_back(l);
    pool = {AttributeValue::string("a"),
            num("1"),
            AttributeValue::string(""),
            AttributeValue::binary("\x01"),
            AttributeValue::string_set(StringSet{{"a", "b"}}),
            AttributeValue::null(),
            AttributeValue::boolean(true),
            AttributeValue::list(List{{num("2")}})};
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Fixture& fx = fixture();
  const std::string expanded = fuzz::expand(data, size);  // run markers: deep and long inputs
  const std::string_view text(expanded);
  // The server refuses a Statement over 8,192 characters before parsing it
  // (decode_execute_statement), so a longer text reaches none of this: without
  // the cut, run markers grow statements to 16 MB that only time the lexer out.
  if (code_points(text) > kMaxStatementLength) return 0;
  guarded([&] {
    const Statement s = parse(text);
    Inputs inputs;
    for (std::uint32_t i = 0; i < s.parameter_count; ++i) inputs.parameters.push_back(fx.pool[i % fx.pool.size()]);
    inputs.limit = 2;
    check_statement(s, inputs.parameters);
    if (const auto* select = std::get_if<partiql::Select>(&s.body)) {
      (void)translate_select(s, *select, fx.table, inputs);
      for (std::string_view one_item : {kBatchSelectKey, kTransactionSelectKey}) {
        guarded([&] {
          Inputs batch = inputs;
          batch.one_item = one_item;
          (void)translate_select(s, *select, fx.table, batch);
        });
      }
    } else {
      (void)translate_write(s, fx.table, inputs);
    }
  });
  return 0;
}
