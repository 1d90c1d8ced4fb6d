#pragma once
// The objects of one export, written into the bucket store as the service
// writes them to S3 (the developer guide's "DynamoDB table export output
// format"), from one LMDB read transaction: a consistent snapshot that never
// holds the writer.
//
//   <prefix>/AWSDynamoDB/<id>/_started                 empty, first
//   <data folder>/<26 base32 characters>.json.gz|.ion.gz  gzip, one item a line
//   <prefix>/AWSDynamoDB/<id>/manifest-files.json      one line per data file
//   <prefix>/AWSDynamoDB/<id>/manifest-files.md5       base64 MD5 of it
//   <prefix>/AWSDynamoDB/<id>/manifest-summary.json    last: the export is complete
//   <prefix>/AWSDynamoDB/<id>/manifest-summary.md5
//
// A FULL export holds the table's items as they were at ExportTime (the items
// now, each changed since as point-in-time recovery's history recorded it); an
// INCREMENTAL one, every item changed in [ExportFromTime, ExportToTime): its
// keys, its image at the end and (NEW_AND_OLD_IMAGES) at the start, and the
// time of its last write in the period.

#include <atomic>
#include <functional>
#include <string>

#include "protocol/exports.h"
#include "storage/bucket_store.h"
#include "storage/catalog.h"
#include "storage/store.h"

namespace dynamod::exports {

// How an export failed, as DescribeExport reports it (FailureCode, FailureMessage).
struct ExportFailure {
  std::string code;
  std::string message;
};

// Thrown when the runner stops in the middle of an export.
struct Stopped {};

// Data files hold at most this many items (the service writes at least one
// file per partition; dynamod has no partitions to follow).
inline constexpr std::int64_t kItemsPerDataFile = 100000;

// Writes every object of `record`'s export and fills in its manifest key,
// ItemCount and BilledSizeBytes. `clock` gives the endTime of the summary.
// Throws ExportFailure (S3NoSuchBucket when the bucket's folder does not
// exist, as S3 answers for a bucket that does not), or Stopped once `stopping`
// is set.
void write_export(Store& store, const storage::BucketStore& buckets, const TableSchema& table, Export& record,
                  const std::function<double()>& clock, const std::atomic<bool>& stopping);

}  // namespace dynamod::exports
