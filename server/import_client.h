#pragma once
// `dynamod import PATH [--table NAME] [--create-from DescribeTable.json]`:
// loads an export folder (AWSDynamoDB/<export id>/data/*.json.gz, as
// ExportTableToPointInTime writes it) or one data file (.json DYNAMODB_JSON
// lines or a JSON array of items, .csv with a header line, either one .gz or
// .zst) into a table of a running server through BatchWriteItem. With
// --create-from, the table is first created from a DescribeTable answer.

namespace dynamod {

// argv[1] is "import". Returns the process exit code.
int run_import_command(int argc, char** argv);

}  // namespace dynamod
