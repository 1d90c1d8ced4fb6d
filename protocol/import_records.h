#pragma once
// An import as dynamod keeps it (storage/import_ops.h): its description and
// what DescribeImport, ListImports and a repeated ClientToken need beside it,
// as one JSON record, so that finished imports are still described after a
// restart.

#include <string>
#include <string_view>

#include "protocol/import_requests.h"

namespace dynamod {

struct ImportRecord {
  std::string ns;       // the table's namespace (region, or empty with --shared-db)
  std::string account;  // for the ARNs
  std::string digest;   // ImportTableRequest::digest(), for its ClientToken
  ImportDescription description;
};

std::string encode_import_record(const ImportRecord& record);
// Throws std::runtime_error for a record that is not one.
ImportRecord decode_import_record(std::string_view json);

}  // namespace dynamod
