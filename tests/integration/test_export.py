"""ExportTableToPointInTime, DescribeExport and ListExports into the local bucket store (--s3-dir).

The layout and the files follow the developer guide's "DynamoDB table export output format"
and what exports of the service hold when downloaded (the manifests' checksums in .md5
files, base64 MD5s, one-part multipart ETags); the constraint messages follow the API
reference's members. DynamoDB Local implements none of these operations, so every test here
is its deviation. Incremental exports need a period of at least 15 minutes of history, so
their files are tested in the unit tests (tests/unit/storage/export_test.cpp), with a clock
that can move; here only their checks.
"""
import base64
import decimal
import gzip
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import time
import uuid

import pytest

import dynamo_helpers as h
from dynamo_helpers import expect_error

pytestmark = pytest.mark.dynamodb_local_deviation("the export operations are UnknownOperationException")

ACCOUNT = "000000000000"


@pytest.fixture(scope="module")
def server(dynamod_bin, tmp_path_factory):
    s3_dir = tmp_path_factory.mktemp("s3")
    proc = h.DynamodProcess(dynamod_bin, in_memory=True, args=["--s3-dir", str(s3_dir)],
                            log_dir=str(tmp_path_factory.mktemp("log")))
    proc.start()
    yield proc, str(s3_dir)
    proc.stop()


@pytest.fixture(scope="module")
def client(server):
    return h.make_client(server[0].endpoint)


@pytest.fixture(scope="module")
def s3_dir(server):
    return server[1]


@pytest.fixture
def bucket(s3_dir):
    name = "bucket-" + uuid.uuid4().hex[:10]
    os.mkdir(os.path.join(s3_dir, name))
    return name


def make_table(client, pitr=True, kind="range"):
    name = h.unique_name("exp")
    schema = h.RANGE_SCHEMA if kind == "range" else h.HASH_SCHEMA
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **schema)
    if pitr:
        client.update_continuous_backups(TableName=name,
                                         PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    return name, client.describe_table(TableName=name)["Table"]


def wait_export(client, arn, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        desc = client.describe_export(ExportArn=arn)["ExportDescription"]
        if desc["ExportStatus"] != "IN_PROGRESS":
            return desc
        assert time.monotonic() < deadline, "export %s still IN_PROGRESS" % arn
        time.sleep(0.05)


def read(s3_dir, bucket, key):
    with open(os.path.join(s3_dir, bucket, key), "rb") as f:
        return f.read()


def md5_b64(data):
    return base64.b64encode(hashlib.md5(data).digest()).decode()


def every_type_item(i):
    return {
        "pk": {"S": "p%d" % (i % 3)}, "sk": {"N": str(i)},
        "s": {"S": "text é \" \n %d" % i}, "n": {"N": "-12.5e3"}, "big": {"N": "9.99e125"},
        "b": {"B": bytes([0, 1, 255, i])}, "t": {"BOOL": True}, "f": {"BOOL": False}, "z": {"NULL": True},
        "ss": {"SS": ["a", "b%d" % i]}, "ns": {"NS": ["1", "2.5", "-3"]}, "bs": {"BS": [b"\x01", b"\x02\x03"]},
        "l": {"L": [{"N": "1"}, {"S": "x"}, {"M": {"k": {"BOOL": False}}}]},
        "m": {"M": {"nested": {"M": {"deep": {"L": []}}}, "empty": {"M": {}}}},
    }


def wire(item):
    """A boto3 low-level item in the export's JSON form (B as base64, sets sorted)."""
    def value(av):
        (tag, v), = av.items()
        if tag == "B":
            return {"B": base64.b64encode(v).decode()}
        if tag == "BS":
            return {"BS": sorted(base64.b64encode(x).decode() for x in v)}
        if tag in ("SS", "NS"):
            return {tag: sorted(v)}
        if tag == "L":
            return {"L": [value(x) for x in v]}
        if tag == "M":
            return {"M": wire(v)}
        return {tag: v}
    return {k: value(v) for k, v in item.items()}


def sorted_sets(value):
    if isinstance(value, dict):
        return {k: (sorted(v) if k in ("SS", "NS", "BS") else sorted_sets(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [sorted_sets(v) for v in value]
    return value


def export_files(s3_dir, bucket, desc):
    """(folder key, the summary, the manifest lines, every data line) of a COMPLETED export."""
    manifest_key = desc["ExportManifest"]
    folder = manifest_key[: -len("manifest-summary.json")]
    summary_bytes = read(s3_dir, bucket, manifest_key)
    assert read(s3_dir, bucket, folder + "manifest-summary.md5").decode() == md5_b64(summary_bytes)
    summary = json.loads(summary_bytes)
    files_bytes = read(s3_dir, bucket, summary["manifestFilesS3Key"])
    assert read(s3_dir, bucket, folder + "manifest-files.md5").decode() == md5_b64(files_bytes)
    manifest = [json.loads(line) for line in files_bytes.decode().splitlines()]
    lines = []
    for entry in manifest:
        data = read(s3_dir, bucket, entry["dataFileS3Key"])
        assert entry["md5Checksum"] == md5_b64(data)
        assert entry["etag"] == hashlib.md5(hashlib.md5(data).digest()).hexdigest() + "-1"
        text = gzip.decompress(data).decode()
        file_lines = text.splitlines()
        assert entry["itemCount"] == len(file_lines)
        assert text == "" or text.endswith("\n")
        lines += file_lines
    return folder, summary, manifest, lines


def start(client, table_arn, bucket, **kw):
    return client.export_table_to_point_in_time(TableArn=table_arn, S3Bucket=bucket, **kw)["ExportDescription"]


# ---------------------------------------------------------------- full exports


@pytest.mark.parametrize("prefix", [None, "dira/dirb/dirc", "trailing/"])
def test_full_export_layout_manifests_and_items(client, s3_dir, bucket, prefix):
    name, table = make_table(client)
    items = [every_type_item(i) for i in range(25)]
    for item in items:
        client.put_item(TableName=name, Item=item)
    kw = {"S3Prefix": prefix} if prefix else {}
    first = start(client, table["TableArn"], bucket, **kw)
    assert first["ExportStatus"] in ("IN_PROGRESS", "COMPLETED")
    assert re.fullmatch(re.escape(table["TableArn"]) + r"/export/\d{14}-[0-9a-f]{8}", first["ExportArn"])
    assert first["ExportFormat"] == "DYNAMODB_JSON"
    assert "ExportType" not in first  # echoed only when the request names it
    assert uuid.UUID(first["ClientToken"])  # the service makes one when none is given
    desc = wait_export(client, first["ExportArn"])
    assert desc["ExportStatus"] == "COMPLETED", desc
    assert desc["ItemCount"] == 25
    assert desc["TableId"] == table["TableId"]
    assert desc["StartTime"] <= desc["EndTime"]
    export_id = first["ExportArn"].rsplit("/", 1)[1]
    base = (prefix.rstrip("/") + "/" if prefix else "") + "AWSDynamoDB/" + export_id + "/"
    assert desc["ExportManifest"] == base + "manifest-summary.json"
    listing = sorted(os.listdir(os.path.join(s3_dir, bucket, base)))
    assert listing == ["_started", "data", "manifest-files.json", "manifest-files.md5", "manifest-summary.json",
                       "manifest-summary.md5"]
    assert read(s3_dir, bucket, base + "_started") == b""
    folder, summary, manifest, lines = export_files(s3_dir, bucket, desc)
    assert folder == base
    for entry in manifest:
        assert re.fullmatch(re.escape(base) + r"data/[a-z2-7]{26}\.json\.gz", entry["dataFileS3Key"])
        assert list(entry) == ["itemCount", "md5Checksum", "etag", "dataFileS3Key"]
    assert list(summary) == ["version", "exportArn", "startTime", "endTime", "tableArn", "tableId", "exportTime",
                             "s3Bucket", "s3Prefix", "s3SseAlgorithm", "s3SseKmsKeyId", "manifestFilesS3Key",
                             "billedSizeBytes", "itemCount", "outputFormat"]
    assert summary["version"] == "2020-06-30"
    assert summary["exportArn"] == first["ExportArn"]
    assert summary["tableArn"] == table["TableArn"] and summary["tableId"] == table["TableId"]
    assert summary["s3Bucket"] == bucket and summary["s3Prefix"] == prefix
    assert summary["s3SseAlgorithm"] == "AES256" and summary["s3SseKmsKeyId"] is None
    assert summary["manifestFilesS3Key"] == base + "manifest-files.json"
    assert summary["itemCount"] == 25 and summary["outputFormat"] == "DYNAMODB_JSON"
    assert summary["billedSizeBytes"] == desc["BilledSizeBytes"] > 0
    for stamp in ("startTime", "endTime", "exportTime"):
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", summary[stamp])
    exported = sorted((json.loads(line) for line in lines), key=lambda x: (x["Item"]["pk"]["S"],
                                                                             int(x["Item"]["sk"]["N"])))
    assert all(list(x) == ["Item"] for x in exported)
    stored = client.scan(TableName=name)["Items"]
    want = sorted((sorted_sets(wire(i)) for i in stored), key=lambda x: (x["pk"]["S"], int(x["sk"]["N"])))
    assert [sorted_sets(x["Item"]) for x in exported] == want
    # Every type made it, numbers in the service's canonical text.
    sample = next(x["Item"] for x in exported if x["Item"]["sk"]["N"] == "3")
    assert sample["n"] == {"N": "-12500"} and sample["big"]["N"].startswith("999")
    assert base64.b64decode(sample["b"]["B"]) == bytes([0, 1, 255, 3])


def test_export_of_an_empty_table_has_one_empty_data_file(client, s3_dir, bucket):
    name, table = make_table(client)
    desc = wait_export(client, start(client, table["TableArn"], bucket)["ExportArn"])
    assert desc["ItemCount"] == 0 and desc["BilledSizeBytes"] == 0
    _, summary, manifest, lines = export_files(s3_dir, bucket, desc)
    assert len(manifest) == 1 and manifest[0]["itemCount"] == 0 and lines == []
    assert summary["itemCount"] == 0


def test_export_time_in_the_past_exports_the_items_as_they_were(client, s3_dir, bucket):
    name, table = make_table(client, kind="hash")
    client.put_item(TableName=name, Item={"pk": {"S": "kept"}, "v": {"N": "1"}})
    client.put_item(TableName=name, Item={"pk": {"S": "changed"}, "v": {"N": "1"}})
    client.put_item(TableName=name, Item={"pk": {"S": "deleted"}, "v": {"N": "1"}})
    # botocore sends timestamps in whole seconds: the next second, before the changes below.
    then = math.ceil(time.time() + 0.01)
    time.sleep(then - time.time() + 0.05)
    client.put_item(TableName=name, Item={"pk": {"S": "changed"}, "v": {"N": "2"}})
    client.delete_item(TableName=name, Key={"pk": {"S": "deleted"}})
    client.put_item(TableName=name, Item={"pk": {"S": "created"}, "v": {"N": "2"}})
    desc = wait_export(client, start(client, table["TableArn"], bucket, ExportTime=then)["ExportArn"])
    assert desc["ExportStatus"] == "COMPLETED"
    assert desc["ExportTime"].timestamp() == then
    _, _, _, lines = export_files(s3_dir, bucket, desc)
    got = {json.loads(line)["Item"]["pk"]["S"]: json.loads(line)["Item"]["v"]["N"] for line in lines}
    assert got == {"kept": "1", "changed": "1", "deleted": "1"}
    now = wait_export(client, start(client, table["TableArn"], bucket)["ExportArn"])
    _, _, _, lines = export_files(s3_dir, bucket, now)
    got = {json.loads(line)["Item"]["pk"]["S"]: json.loads(line)["Item"]["v"]["N"] for line in lines}
    assert got == {"kept": "1", "changed": "2", "created": "2"}


def test_ion_export(client, s3_dir, bucket):
    name, table = make_table(client)
    for i in range(5):
        client.put_item(TableName=name, Item=every_type_item(i))
    desc = start(client, table["TableArn"], bucket, ExportFormat="ION", S3SseAlgorithm="KMS", S3SseKmsKeyId="key-1",
                 S3BucketOwner="123456789012")
    assert desc["ExportFormat"] == "ION"
    assert desc["S3SseAlgorithm"] == "KMS" and desc["S3SseKmsKeyId"] == "key-1"
    assert desc["S3BucketOwner"] == "123456789012"
    desc = wait_export(client, desc["ExportArn"])
    assert desc["ExportStatus"] == "COMPLETED" and desc["ItemCount"] == 5
    _, summary, manifest, lines = export_files(s3_dir, bucket, desc)
    assert summary["outputFormat"] == "ION"
    assert summary["s3SseAlgorithm"] == "KMS" and summary["s3SseKmsKeyId"] == "key-1"
    assert all(entry["dataFileS3Key"].endswith(".ion.gz") for entry in manifest)
    assert len(lines) == 5
    line = next(x for x in lines if "sk:3." in x)
    assert line.startswith("$ion_1_0 {Item:{") and line.endswith("}}")
    for fragment in ['pk:"p0"', "n:-125d2", "t:true", "f:false", "z:null", 'ss:$dynamodb_SS::["a","b3"]',
                     "ns:$dynamodb_NS::[-3.,1.,2.5]", "bs:$dynamodb_BS::[{{AQ==}},{{AgM=}}]", "b:{{AAH/Aw==}}",
                     'l:[1.,"x",{k:false}]', "m:{empty:{},nested:{deep:[]}}", r's:"text é \" \n 3"']:
        assert fragment in line, fragment


ION_JS = os.path.join(os.path.dirname(__file__), "..", "ion")


@pytest.fixture(scope="module")
def ion_js():
    """tests/ion's reader, on Amazon's ion-js (npm, lock file pinned)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed (scripts/install-deps.sh test installs it)")
    if not os.path.isdir(os.path.join(ION_JS, "node_modules", "ion-js")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ION_JS, check=True)
    return lambda path: [json.loads(line) for line in subprocess.run(
        ["node", os.path.join(ION_JS, "read.mjs"), path], check=True, capture_output=True, text=True).stdout.splitlines()]


def ion_to_attribute(tagged):
    """ion-js's view of a value (tests/ion/read.mjs) as a DynamoDB AttributeValue in the export's JSON form."""
    number = lambda text: str(decimal.Decimal(text).normalize())  # noqa: E731
    for annotation, tag in (("$dynamodb_SS", "SS"), ("$dynamodb_NS", "NS"), ("$dynamodb_BS", "BS")):
        if annotation in tagged["annotations"]:
            members = [number(m["value"]) if tag == "NS" else m["value"] for m in tagged["value"]]
            return {tag: sorted(members)}
    kind, value = tagged["type"], tagged["value"]
    if kind == "null":
        return {"NULL": True}
    if kind == "struct":
        return {"M": {m["field"]: ion_to_attribute(m) for m in value}}
    if kind == "list":
        return {"L": [ion_to_attribute(m) for m in value]}
    return {{"string": "S", "bool": "BOOL", "blob": "B"}.get(kind, "N"): number(value) if kind in ("decimal", "int")
            else value}


def normalized_numbers(value):
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "N":
                out[k] = str(decimal.Decimal(v).normalize())
            elif k == "NS":
                out[k] = sorted(str(decimal.Decimal(x).normalize()) for x in v)
            else:
                out[k] = normalized_numbers(v)
        return out
    if isinstance(value, list):
        return [normalized_numbers(v) for v in value]
    return value


def test_ion_export_reads_the_same_with_ion_js(client, s3_dir, bucket, ion_js):
    name, table = make_table(client)
    for i in range(8):
        client.put_item(TableName=name, Item=every_type_item(i))
    desc = wait_export(client, start(client, table["TableArn"], bucket, ExportFormat="ION")["ExportArn"])
    _, _, manifest, _ = export_files(s3_dir, bucket, desc)
    exported = []
    for entry in manifest:
        for top in ion_js(os.path.join(s3_dir, bucket, entry["dataFileS3Key"])):
            assert top["type"] == "struct" and [m["field"] for m in top["value"]] == ["Item"]
            exported.append(ion_to_attribute(top["value"][0])["M"])
    key = lambda x: (x["pk"]["S"], decimal.Decimal(x["sk"]["N"]))  # noqa: E731
    want = sorted((normalized_numbers(sorted_sets(wire(i))) for i in client.scan(TableName=name)["Items"]), key=key)
    assert sorted(exported, key=key) == want


def test_export_to_a_bucket_that_does_not_exist_fails(client):
    name, table = make_table(client)
    desc = wait_export(client, start(client, table["TableArn"], "no-such-bucket-" + uuid.uuid4().hex[:8])["ExportArn"])
    assert desc["ExportStatus"] == "FAILED"
    assert desc["FailureCode"] == "S3NoSuchBucket"
    assert "bucket does not exist" in desc["FailureMessage"]
    assert "ExportManifest" not in desc and "ItemCount" not in desc


def test_export_type_is_echoed_when_named(client, bucket):
    name, table = make_table(client)
    desc = start(client, table["TableArn"], bucket, ExportType="FULL_EXPORT")
    assert desc["ExportType"] == "FULL_EXPORT"
    assert wait_export(client, desc["ExportArn"])["ExportType"] == "FULL_EXPORT"


# ---------------------------------------------------------------- ClientToken


def test_client_token_makes_a_request_idempotent(client, bucket):
    name, table = make_table(client)
    token = str(uuid.uuid4())
    one = start(client, table["TableArn"], bucket, ClientToken=token)
    two = start(client, table["TableArn"], bucket, ClientToken=token)
    assert one["ExportArn"] == two["ExportArn"] and two["ClientToken"] == token
    other = start(client, table["TableArn"], bucket)
    assert other["ExportArn"] != one["ExportArn"]
    for change in ({"ExportFormat": "ION"}, {"S3Prefix": "p"}, {"S3BucketOwner": ACCOUNT},
                   {"S3SseAlgorithm": "AES256"}, {"ExportTime": time.time()}):
        expect_error(lambda: start(client, table["TableArn"], bucket, ClientToken=token, **change),
                     "ExportConflictException",
                     "Duplicate request detected with different parameters for ClientToken " + token)
    other_name, other_table = make_table(client)
    expect_error(lambda: start(client, other_table["TableArn"], bucket, ClientToken=token),
                 "ExportConflictException")


def test_a_refused_request_does_not_take_its_client_token(client, bucket):
    name, table = make_table(client)
    token = str(uuid.uuid4())
    expect_error(lambda: start(client, table["TableArn"], "", ClientToken=token), "ValidationException")
    assert start(client, table["TableArn"], bucket, ClientToken=token)["ClientToken"] == token


# ---------------------------------------------------------------- errors


def constraint(value, path, text):
    return "1 validation error detected: Value %s at '%s' failed to satisfy constraint: %s" % (
        "null" if value is None else "'%s'" % value, path, text)


def test_constraint_errors(server):
    raw = h.make_client(server[0].endpoint, parameter_validation=False)
    arn = "arn:aws:dynamodb:us-east-1:%s:table/t" % ACCOUNT
    cases = [
        ({"S3Bucket": "b1"}, "Value null at 'tableArn' failed to satisfy constraint: Member must not be null"),
        ({"TableArn": arn}, "Value null at 's3Bucket' failed to satisfy constraint: Member must not be null"),
        ({"TableArn": "", "S3Bucket": "b1"},
         "Value '' at 'tableArn' failed to satisfy constraint: Member must have length greater than or equal to 1"),
        ({"TableArn": arn, "S3Bucket": "-bad"}, "Value '-bad' at 's3Bucket' failed to satisfy constraint: Member must "
         "satisfy regular expression pattern: ^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$"),
        ({"TableArn": arn, "S3Bucket": "b1", "S3BucketOwner": "12"},
         "Value '12' at 's3BucketOwner' failed to satisfy constraint: Member must satisfy regular expression "
         "pattern: [0-9]{12}"),
        ({"TableArn": arn, "S3Bucket": "b1", "S3Prefix": ""},
         "Value '' at 's3Prefix' failed to satisfy constraint: Member must have length greater than or equal to 1"),
        ({"TableArn": arn, "S3Bucket": "b1", "ClientToken": ""},
         "Value '' at 'clientToken' failed to satisfy constraint: Member must satisfy regular expression "
         "pattern: ^[^\\$]+$"),
        ({"TableArn": arn, "S3Bucket": "b1", "ExportFormat": "CSV"},
         "Value 'CSV' at 'exportFormat' failed to satisfy constraint: Member must satisfy enum value set: "
         "[DYNAMODB_JSON, ION]"),
        ({"TableArn": arn, "S3Bucket": "b1", "ExportType": "QWERTY"},
         "Value 'QWERTY' at 'exportType' failed to satisfy constraint: Member must satisfy enum value set: "
         "[FULL_EXPORT, INCREMENTAL_EXPORT]"),
        ({"TableArn": arn, "S3Bucket": "b1", "S3SseAlgorithm": ""},
         "Value '' at 's3SseAlgorithm' failed to satisfy constraint: Member must satisfy enum value set: "
         "[AES256, KMS]"),
        ({"TableArn": arn, "S3Bucket": "b1", "S3SseAlgorithm": "KMS", "S3SseKmsKeyId": ""},
         "Value '' at 's3SseKmsKeyId' failed to satisfy constraint: Member must have length greater than or "
         "equal to 1"),
        ({"TableArn": arn, "S3Bucket": "b1", "ExportType": "INCREMENTAL_EXPORT",
          "IncrementalExportSpecification": {"ExportFromTime": 1, "ExportViewType": "OLD_IMAGE"}},
         "Value 'OLD_IMAGE' at 'incrementalExportSpecification.exportViewType' failed to satisfy constraint: "
         "Member must satisfy enum value set: [NEW_AND_OLD_IMAGES, NEW_IMAGE]"),
    ]
    for params, message in cases:
        expect_error(lambda: raw.export_table_to_point_in_time(**params), "ValidationException",
                     "1 validation error detected: " + message)
    # Together, except the bad enum: it is read only once the others hold (docs/service-fidelity.md).
    expect_error(lambda: raw.export_table_to_point_in_time(S3Bucket="", ExportFormat="x"), "ValidationException",
                 "2 validation errors detected: Value null at 'tableArn' failed to satisfy constraint: Member must "
                 "not be null; Value '' at 's3Bucket' failed to satisfy constraint: Member must satisfy regular "
                 "expression pattern: ^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$")


def test_request_shape_errors(client, bucket):
    name, table = make_table(client)
    arn = table["TableArn"]
    now = time.time()
    cases = [
        ({"S3SseKmsKeyId": "k"}, "Invalid Request: KMS Key Id is not supported for this encryption type"),
        ({"S3SseAlgorithm": "AES256", "S3SseKmsKeyId": "k"},
         "Invalid Request: KMS Key Id is not supported for this encryption type"),
        ({"IncrementalExportSpecification": {"ExportFromTime": now - 3600}},
         "Invalid Request: IncrementalExportSpecification can only be provided for an INCREMENTAL_EXPORT"),
        ({"ExportType": "INCREMENTAL_EXPORT"},
         "Invalid Request: IncrementalExportSpecification must be provided for an INCREMENTAL_EXPORT"),
        ({"ExportType": "INCREMENTAL_EXPORT", "ExportTime": now,
          "IncrementalExportSpecification": {"ExportFromTime": now - 3600}},
         "Invalid Request: ExportTime can not be provided for an INCREMENTAL_EXPORT"),
        ({"ExportType": "INCREMENTAL_EXPORT", "IncrementalExportSpecification": {"ExportToTime": now}},
         "Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification"),
    ]
    for params, message in cases:
        expect_error(lambda: start(client, arn, bucket, **params), "ValidationException", message)
    expect_error(lambda: start(client, "QWERTY", bucket), "ValidationException",
                 "Invalid TableArn: tableArn is not a valid ARN")


def test_table_and_recovery_errors(client, bucket):
    missing = "arn:aws:dynamodb:us-east-1:%s:table/%s" % (ACCOUNT, h.unique_name("none"))
    expect_error(lambda: start(client, missing, bucket), "TableNotFoundException", "Table not found: " + missing)
    name, table = make_table(client, pitr=False)
    expect_error(lambda: start(client, table["TableArn"], bucket), "PointInTimeRecoveryUnavailableException",
                 "Point in time recovery is not enabled for table '%s'" % name)


def test_export_time_errors(client, bucket):
    name, table = make_table(client)
    window = "ExportTime must be between EarliestRestorableDateTime and LatestRestorableDateTime"
    for when in (time.time() + 120, time.time() - 3600, 0):
        expect_error(lambda: start(client, table["TableArn"], bucket, ExportTime=when), "InvalidExportTimeException",
                     window)
    now = time.time()
    recovery = client.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    # botocore sends timestamps in whole seconds: the first one inside the window.
    earliest = math.ceil(recovery["PointInTimeRecoveryDescription"]["EarliestRestorableDateTime"].timestamp() + 0.001)
    time.sleep(max(0.0, earliest - time.time() + 0.05))

    def incremental(**spec):
        return start(client, table["TableArn"], bucket, ExportType="INCREMENTAL_EXPORT",
                     IncrementalExportSpecification=spec)

    expect_error(lambda: incremental(ExportFromTime=now - 3600), "InvalidExportTimeException",
                 "ExportFromTime must be between EarliestRestorableDateTime and LatestRestorableDateTime")
    # Recovery was just turned on: no 15 minutes of history exist yet.
    expect_error(lambda: incremental(ExportFromTime=earliest), "InvalidExportTimeException",
                 "Difference between export period start and end times must be at least 15 minutes")
    expect_error(lambda: incremental(ExportFromTime=earliest, ExportToTime=now + 600), "InvalidExportTimeException",
                 "ExportToTime must not be after LatestRestorableDateTime")
    expect_error(lambda: incremental(ExportFromTime=earliest, ExportToTime=earliest - 1), "InvalidExportTimeException",
                 "ExportFromTime must be before ExportToTime")


def test_describe_export_errors(client, server):
    raw = h.make_client(server[0].endpoint, parameter_validation=False)
    table_arn = "arn:aws:dynamodb:us-east-1:%s:table/nonexistent_table_xyz" % ACCOUNT
    expect_error(lambda: client.describe_export(ExportArn=table_arn), "ValidationException", "Invalid Export ARN")
    missing = table_arn + "/export/01700000000000-0123abcd"
    expect_error(lambda: client.describe_export(ExportArn=missing), "ExportNotFoundException",
                 "Export not found: " + missing)
    expect_error(lambda: raw.describe_export(ExportArn="arn:short"), "ValidationException",
                 "1 validation error detected: Value 'arn:short' at 'exportArn' failed to satisfy constraint: "
                 "Member must have length greater than or equal to 37")
    expect_error(lambda: raw.describe_export(), "ValidationException",
                 "1 validation error detected: Value null at 'exportArn' failed to satisfy constraint: "
                 "Member must not be null")


# ---------------------------------------------------------------- ListExports


def test_list_exports_pages_newest_first_and_filters_by_table(client, server):
    name, table = make_table(client)
    other_name, other = make_table(client)
    arns = [start(client, table["TableArn"], "missing-bucket")["ExportArn"] for _ in range(5)]
    start(client, other["TableArn"], "missing-bucket")
    for arn in arns:
        wait_export(client, arn)
    seen = []
    kw = {"TableArn": table["TableArn"], "MaxResults": 2}
    pages = 0
    while True:
        page = client.list_exports(**kw)
        pages += 1
        assert len(page["ExportSummaries"]) <= 2
        for summary in page["ExportSummaries"]:
            assert list(summary) == ["ExportArn", "ExportStatus", "ExportType"]
            assert summary["ExportStatus"] == "FAILED" and summary["ExportType"] == "FULL_EXPORT"
            seen.append(summary["ExportArn"])
        if "NextToken" not in page:
            break
        assert re.fullmatch(r"([0-9a-f]{16})+", page["NextToken"])
        kw["NextToken"] = page["NextToken"]
    assert pages == 3
    assert seen == sorted(arns, reverse=True)
    everything = [s["ExportArn"] for s in client.list_exports(MaxResults=25)["ExportSummaries"]]
    assert set(arns) <= set(everything)
    client.delete_table(TableName=name)
    assert client.list_exports(TableArn=table["TableArn"])["ExportSummaries"] == []
    assert client.describe_export(ExportArn=arns[0])["ExportDescription"]["ExportStatus"] == "FAILED"
    raw = h.make_client(server[0].endpoint, parameter_validation=False)
    expect_error(lambda: client.list_exports(NextToken="0123456789abcdef" * 2), "ValidationException",
                 "Invalid Request: Provided nextToken is invalid: " + "0123456789abcdef" * 2)
    expect_error(lambda: raw.list_exports(NextToken="xyz"), "ValidationException",
                 "1 validation error detected: Value 'xyz' at 'nextToken' failed to satisfy constraint: Member "
                 "must satisfy regular expression pattern: ([0-9a-f]{16})+")
    expect_error(lambda: raw.list_exports(MaxResults=26), "ValidationException",
                 "1 validation error detected: Value '26' at 'maxResults' failed to satisfy constraint: Member "
                 "must have value less than or equal to 25")
    expect_error(lambda: raw.list_exports(MaxResults=0), "ValidationException",
                 "1 validation error detected: Value '0' at 'maxResults' failed to satisfy constraint: Member "
                 "must have value greater than or equal to 1")


def test_exports_are_kept_across_restarts(launch_dynamod, data_dir, tmp_path):
    s3 = tmp_path / "s3"
    (s3 / "keep").mkdir(parents=True)
    proc = launch_dynamod(args=["--s3-dir", str(s3)], data_dir=data_dir)
    c = h.make_client(proc.endpoint)
    name, table = make_table(c)
    c.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": "1"}})
    desc = wait_export(c, start(c, table["TableArn"], "keep")["ExportArn"])
    assert desc["ExportStatus"] == "COMPLETED"
    proc.stop()
    proc = launch_dynamod(args=["--s3-dir", str(s3)], data_dir=data_dir)
    c = h.make_client(proc.endpoint)
    again = c.describe_export(ExportArn=desc["ExportArn"])["ExportDescription"]
    assert again == desc


def test_default_bucket_store_is_beside_the_data(launch_dynamod, data_dir):
    os.makedirs(os.path.join(data_dir, "s3", "here"))
    proc = launch_dynamod(data_dir=data_dir)
    c = h.make_client(proc.endpoint)
    name, table = make_table(c)
    desc = wait_export(c, start(c, table["TableArn"], "here")["ExportArn"])
    assert desc["ExportStatus"] == "COMPLETED"
    assert os.path.exists(os.path.join(data_dir, "s3", "here", desc["ExportManifest"]))
