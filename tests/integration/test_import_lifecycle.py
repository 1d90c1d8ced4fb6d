"""ImportTable's table and records over time: the table is CREATING while its import runs (reads and
writes answer ResourceNotFoundException, DeleteTable and UpdateTable ResourceInUseException, as the
service answers them for a table being created) and ACTIVE once the import is COMPLETED; the
imports' descriptions are kept in the data directory, so DescribeImport and ListImports still show
them after a restart; an import a crash interrupted is FAILED at the next start and its table is
gone, so the same import can be asked for again, and a CREATING table no import fills (a snapshot's)
is dropped at start.

dynamod-only: the bucket store is a local folder and the tests restart the server."""

import botocore.exceptions
import pytest

import companion_helpers as ch
import dynamo_helpers as h

pytestmark = pytest.mark.needs_own_server

BUCKET = "lifecycle-bucket"


def write_items(s3_dir, key, count):
    """One uncompressed DYNAMODB_JSON object of `count` small items."""
    path = s3_dir / BUCKET / key
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        for i in range(count):
            f.write('{"Item":{"pk":{"S":"k%08d"},"v":{"S":"%s"}}}\n' % (i, "x" * 60))


def table_parameters(name):
    return {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}


def start_import(client, prefix, name):
    return client.import_table(S3BucketSource={"S3Bucket": BUCKET, "S3KeyPrefix": prefix},
                               InputFormat="DYNAMODB_JSON",
                               TableCreationParameters=table_parameters(name))["ImportTableDescription"]


def wait_done(client, arn):
    return h.wait_for_import(client, arn, timeout=120)


def refused(call, code, message):
    with pytest.raises(botocore.exceptions.ClientError) as e:
        call()
    h.check_error(e.value, code, message)


def test_table_is_creating_until_its_import_completes(launch_dynamod, tmp_path):
    # 300,000 items take seconds to import, far longer than the calls below take.
    s3_dir = tmp_path / "s3"
    write_items(s3_dir, "big/data.json", 300000)
    server = launch_dynamod(args=["--s3-dir", str(s3_dir)], in_memory=True)
    client = h.make_client(server.endpoint)
    name = "creating"
    arn = start_import(client, "big/", name)["ImportArn"]
    assert client.describe_table(TableName=name)["Table"]["TableStatus"] == "CREATING"
    assert name in client.list_tables()["TableNames"]
    key = {"pk": {"S": "k00000001"}}
    not_found = "Requested resource not found"
    refused(lambda: client.get_item(TableName=name, Key=key), "ResourceNotFoundException", not_found)
    refused(lambda: client.put_item(TableName=name, Item=key), "ResourceNotFoundException", not_found)
    refused(lambda: client.scan(TableName=name), "ResourceNotFoundException", not_found)
    refused(lambda: client.query(TableName=name, KeyConditionExpression="pk = :k",
                                 ExpressionAttributeValues={":k": key["pk"]}),
            "ResourceNotFoundException", not_found)
    refused(lambda: client.batch_write_item(RequestItems={name: [{"PutRequest": {"Item": key}}]}),
            "ResourceNotFoundException", not_found)
    in_use = "Attempt to change a resource which is still in use: Table is being created: " + name
    refused(lambda: client.delete_table(TableName=name), "ResourceInUseException", in_use)
    refused(lambda: client.update_table(TableName=name, BillingMode="PROVISIONED",
                                        ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}),
            "ResourceInUseException", in_use)
    # Every refusal above came while the import ran (COMPLETED is recorded with ACTIVE).
    assert client.describe_import(ImportArn=arn)["ImportTableDescription"]["ImportStatus"] == "IN_PROGRESS"
    done = wait_done(client, arn)
    assert done["ImportStatus"] == "COMPLETED" and done["ImportedItemCount"] == 300000
    table = client.describe_table(TableName=name)["Table"]
    assert table["TableStatus"] == "ACTIVE" and table["ItemCount"] == 300000
    assert client.get_item(TableName=name, Key=key)["Item"]["v"] == {"S": "x" * 60}


def test_descriptions_survive_a_restart(launch_dynamod, tmp_path, data_dir):
    s3_dir = tmp_path / "s3"
    write_items(s3_dir, "small/data.json", 10)
    (s3_dir / BUCKET / "small" / "bad.json").write_text("not json\n")
    server = launch_dynamod(args=["--s3-dir", str(s3_dir)], data_dir=data_dir)
    client = h.make_client(server.endpoint)
    arn = start_import(client, "small/", "kept")["ImportArn"]
    before = wait_done(client, arn)
    assert before["ImportStatus"] == "COMPLETED" and before["ErrorCount"] == 1
    server.stop()
    again = launch_dynamod(args=["--s3-dir", str(s3_dir)], data_dir=data_dir)
    client = h.make_client(again.endpoint)
    after = client.describe_import(ImportArn=arn)["ImportTableDescription"]
    assert after == before
    summaries = client.list_imports()["ImportSummaryList"]
    assert [s["ImportArn"] for s in summaries] == [arn]
    assert summaries[0]["ImportStatus"] == "COMPLETED"
    assert client.describe_table(TableName="kept")["Table"]["ItemCount"] == 10


def test_an_interrupted_import_is_failed_after_restart(launch_dynamod, tmp_path, data_dir):
    # Killed (-9) while its 300,000 items are being written: IN_PROGRESS on disk.
    s3_dir = tmp_path / "s3"
    write_items(s3_dir, "big/data.json", 300000)
    server = launch_dynamod(args=["--s3-dir", str(s3_dir)], data_dir=data_dir)
    client = h.make_client(server.endpoint)
    arn = start_import(client, "big/", "interrupted")["ImportArn"]
    assert client.describe_import(ImportArn=arn)["ImportTableDescription"]["ImportStatus"] == "IN_PROGRESS"
    server.kill9()
    again = launch_dynamod(args=["--s3-dir", str(s3_dir)], data_dir=data_dir)
    client = h.make_client(again.endpoint)
    d = client.describe_import(ImportArn=arn)["ImportTableDescription"]
    assert d["ImportStatus"] == "FAILED"
    assert d["FailureCode"] == "InternalFailure"
    assert d["FailureMessage"] == "The import was interrupted: dynamod stopped before it completed"
    assert d["EndTime"] >= d["StartTime"]
    assert [s["ImportStatus"] for s in client.list_imports()["ImportSummaryList"]] == ["FAILED"]
    # Its table went with it, so the import can be asked for again.
    refused(lambda: client.describe_table(TableName="interrupted"), "ResourceNotFoundException",
            "Requested resource not found: Table: interrupted not found")
    write_items(s3_dir, "small/data.json", 5)
    retry = start_import(client, "small/", "interrupted")["ImportArn"]
    assert wait_done(client, retry)["ImportStatus"] == "COMPLETED"
    assert client.describe_table(TableName="interrupted")["Table"]["ItemCount"] == 5
    assert [s["ImportArn"] for s in client.list_imports()["ImportSummaryList"]] == [arn, retry]


def test_a_creating_table_without_its_import_is_dropped_at_start(launch_dynamod, tmp_path, data_dir):
    # A snapshot taken during an import holds its table CREATING; restored after the import, nothing
    # ends that CREATING: the next start drops the table, as a FAILED import's table goes.
    s3_dir = tmp_path / "s3"
    write_items(s3_dir, "big/data.json", 300000)
    server = launch_dynamod(args=["--s3-dir", str(s3_dir)], data_dir=data_dir)
    client = h.make_client(server.endpoint)
    arn = start_import(client, "big/", "snapshotted")["ImportArn"]
    ch.ok(server.endpoint, "POST", "snapshots/during")
    assert client.describe_import(ImportArn=arn)["ImportTableDescription"]["ImportStatus"] == "IN_PROGRESS"
    assert wait_done(client, arn)["ImportStatus"] == "COMPLETED"
    ch.ok(server.endpoint, "POST", "snapshots/during/restore")
    assert client.describe_table(TableName="snapshotted")["Table"]["TableStatus"] == "CREATING"
    server.stop()
    again = launch_dynamod(args=["--s3-dir", str(s3_dir)], data_dir=data_dir)
    client = h.make_client(again.endpoint)
    refused(lambda: client.describe_table(TableName="snapshotted"), "ResourceNotFoundException",
            "Requested resource not found: Table: snapshotted not found")
    # The import's record is not a table's: it stays COMPLETED.
    assert client.describe_import(ImportArn=arn)["ImportTableDescription"]["ImportStatus"] == "COMPLETED"
