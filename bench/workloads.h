#pragma once
// What the load generator sends. Each workload is a few request templates
// whose bodies hold fixed-width digit slots (keys, scores); a request is
// made by writing random digits into the slots and re-signing, so the hot
// loop neither formats JSON nor allocates.
//
// Data: table `bench` (pk S) holds items user#00000000 .. user#<keys-1>;
// table `bench_q` (pk S, sk N) holds keys/10 partitions part#NNNNNNNN of 10
// items each (sk 0..9). Items are about 200 bytes in DynamoDB's size
// accounting (attribute names plus values).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/signer.h"

namespace dynamod::bench {

// QueryGsi / QueryGsi3: a partition of bench_q (10 items) read through its GSI `by_name` (HASH
// name, RANGE sk) or its multi-attribute GSI `by_contact` (HASH name, email, created; RANGE sk,
// score, pk), which bench/overhead.sh multi-gsi creates.
enum class WorkloadKind {
  Get,
  Put,
  Update,
  Query,
  CondPut,
  BatchWrite,
  TransactWrite,
  ScanFilter,
  Mix,
  RawGet,
  QueryGsi,
  QueryGsi3
};

std::optional<WorkloadKind> parse_workload(std::string_view name);
std::string_view workload_name(WorkloadKind kind);
std::string_view workload_names();  // for --help

struct DataShape {
  std::string table = "bench";
  std::string query_table = "bench_q";
  std::uint64_t keys = 10000;  // items in each table
  std::uint64_t partitions() const { return keys / 10 == 0 ? 1 : keys / 10; }
};

// A small fast generator (splitmix64); uniform(n) by multiply-shift.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t x = (state_ += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  }
  std::uint64_t uniform(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }

 private:
  std::uint64_t state_;
};

// A JSON body with numbered groups of fixed-width decimal slots.
class BodyTemplate {
 public:
  struct Group {
    int width = 0;
    std::uint64_t low = 0;  // random values are drawn from [low, low + span)
    std::uint64_t span = 0;
    bool unique = false;  // distinct from the other unique groups of the body
    std::vector<std::size_t> offsets;
  };

  int group(int width, std::uint64_t low = 0, std::uint64_t span = 0, bool unique = false);
  BodyTemplate& text(std::string_view s);
  BodyTemplate& slot(int group);
  void set(int group, std::uint64_t value) { write(body.data(), groups[static_cast<std::size_t>(group)], value); }

  static void write(char* body, const Group& group, std::uint64_t value);

  std::string body;
  std::vector<Group> groups;
};

// Appends a bench item whose key digits are group key_group and whose score is group score_group.
void append_item(BodyTemplate& t, int key_group, int score_group);
// Appends a bench_q item (partition group, sort key group of width 1).
void append_query_item(BodyTemplate& t, int partition_group, int sk_group, int score_group);

enum class Expect { Ok, OkOrConditionFailed, BatchOk };
enum class Outcome { Ok, ExpectedFailure, Error };

struct Operation {
  SignedRequest request;
  std::vector<BodyTemplate::Group> groups;  // offsets relative to the body
  Expect expect = Expect::Ok;
};

// The templates of one workload for one connection.
class OperationSet {
 public:
  OperationSet(WorkloadKind kind, const DataShape& shape, const Signer& signer, std::string_view host);
  // Picks an operation and writes fresh random values into its body; the caller signs it.
  Operation& next(Rng& rng);

 private:
  Operation make(const Signer& signer, std::string_view host, std::string_view target, BodyTemplate t, Expect expect);
  WorkloadKind kind_;
  std::vector<Operation> ops_;
  std::vector<std::uint64_t> drawn_;
};

// Classifies an answer. On Error, error_type names the DynamoDB error type
// (or "HTTP <status>", or "UnprocessedItems").
Outcome classify(Expect expect, int status, std::string_view body, std::string& error_type);

// The DynamoDB error type of an error body: the part of "__type" after '#'.
std::string_view error_type_of(std::string_view body);

}  // namespace dynamod::bench
