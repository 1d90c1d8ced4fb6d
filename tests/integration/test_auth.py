"""SigV4 authentication with --credentials FILE, and region namespaces (per-region tables
unless --shared-db).  These tests start their own dynamod processes."""
import datetime
import re

import pytest
from botocore.exceptions import ClientError

import dynamo_helpers as h
from dynamo_helpers import check_error, expect_error

pytestmark = pytest.mark.needs_own_server

KEY, SECRET = "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
OTHER_KEY, OTHER_SECRET = "AKIDSECONDUSER000001", "second/secret+with=symbols"
BAD_TOKEN = ["The security token included in the request is invalid.",
             "The security token included in the request is invalid"]
BAD_SIGNATURE = ("The request signature we calculated does not match the signature you provided. "
                 "Check your AWS Secret Access Key and signing method. Consult the service documentation for details.")
TS = r"(\d{8}T\d{6}Z)"


@pytest.fixture
def strict_server(launch_dynamod, tmp_path):
    creds = tmp_path / "credentials"
    creds.write_text("# access-key-id secret-access-key\n%s %s\n\n%s %s\n" % (KEY, SECRET, OTHER_KEY, OTHER_SECRET))
    return launch_dynamod(args=["--credentials", str(creds)], in_memory=True)


def parse_ts(s):
    return datetime.datetime.strptime(s, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)


# Requests signed with a configured key pair are accepted (every listed pair works).
def test_valid_signature_accepted(strict_server):
    for key, secret in ((KEY, SECRET), (OTHER_KEY, OTHER_SECRET)):
        c = h.make_client(strict_server.endpoint, key=key, secret=secret)
        assert "TableNames" in c.list_tables()


# An access key that is not in the file is an unrecognised client.
def test_unknown_access_key(strict_server):
    c = h.make_client(strict_server.endpoint, key="AKIDNOTINTHEFILE0000", secret=SECRET)
    expect_error(lambda: c.list_tables(), "UnrecognizedClientException", BAD_TOKEN)


# A known key with the wrong secret fails the signature check.
def test_wrong_secret(strict_server):
    c = h.make_client(strict_server.endpoint, key=KEY, secret="not-the-secret")
    expect_error(lambda: c.list_tables(), "InvalidSignatureException", BAD_SIGNATURE)


# Changing the body after signing breaks the signature (the payload hash is signed).
def test_tampered_body(strict_server):
    ok = h.raw_request(strict_server.endpoint, "ListTables", {"Limit": 5}, key=KEY, secret=SECRET)
    assert ok.status == 200
    import botocore.auth
    import botocore.awsrequest
    import botocore.credentials
    req = botocore.awsrequest.AWSRequest(method="POST", url=strict_server.endpoint + "/", data=b'{"Limit": 5}',
                                         headers={"Content-Type": "application/x-amz-json-1.0",
                                                  "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    botocore.auth.SigV4Auth(botocore.credentials.Credentials(KEY, SECRET), "dynamodb", h.REGION).add_auth(req)
    headers = dict(req.headers.items())
    headers.pop("Content-Type", None)
    headers.pop("X-Amz-Target", None)
    r = h.raw_request(strict_server.endpoint, "ListTables", b'{"Limit": 6}', sign=False, headers=headers)
    check_error(r, "InvalidSignatureException", BAD_SIGNATURE)


# A signature dated more than 15 minutes in the past has expired; the message names the
# request time, the earliest acceptable time and the server's clock.
def test_stale_date(strict_server):
    signed_at = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None) - datetime.timedelta(minutes=20)
    r = h.raw_request(strict_server.endpoint, "ListTables", {}, key=KEY, secret=SECRET, sign_time=signed_at)
    code, msg, status = h.error_of(r)
    assert (code, status) == ("InvalidSignatureException", 400), r
    m = re.fullmatch(r"Signature expired: %s is now earlier than %s \(%s - 15 min\.\)" % (TS, TS, TS), msg)
    assert m, msg
    assert m.group(1) == signed_at.strftime("%Y%m%dT%H%M%SZ")
    assert parse_ts(m.group(3)) - parse_ts(m.group(2)) == datetime.timedelta(minutes=15)


# A signature dated more than 15 minutes in the future is not yet current.
def test_future_date(strict_server):
    signed_at = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None) + datetime.timedelta(minutes=20)
    r = h.raw_request(strict_server.endpoint, "ListTables", {}, key=KEY, secret=SECRET, sign_time=signed_at)
    code, msg, status = h.error_of(r)
    assert (code, status) == ("InvalidSignatureException", 400), r
    m = re.fullmatch(r"Signature not yet current: %s is still later than %s \(%s \+ 15 min\.\)" % (TS, TS, TS), msg)
    assert m, msg
    assert m.group(1) == signed_at.strftime("%Y%m%dT%H%M%SZ")


# A few minutes of clock skew is tolerated.
def test_small_skew_accepted(strict_server):
    signed_at = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) - datetime.timedelta(minutes=5)
    r = h.raw_request(strict_server.endpoint, "ListTables", {}, key=KEY, secret=SECRET, sign_time=signed_at)
    assert r.status == 200, r


# With credentials configured, an unsigned request is still "missing authentication".
def test_unsigned_request_with_credentials(strict_server):
    r = h.raw_request(strict_server.endpoint, "ListTables", {}, sign=False)
    check_error(r, "MissingAuthenticationTokenException", "Request is missing Authentication Token")


# ---------------------------------------------------------------- regions


def region_client(server, region):
    return h.make_client(server.endpoint, region=region)


# Tables live per region (from the credential scope): a table made in us-east-1 is not
# visible from eu-west-1, and the same name can exist in both.
def test_regions_are_separate_namespaces(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    east, west = region_client(server, "us-east-1"), region_client(server, "eu-west-1")
    name = h.unique_name("region")
    east.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **h.HASH_SCHEMA)
    h.wait_active(east, name)
    assert name in east.list_tables()["TableNames"]
    assert name not in west.list_tables()["TableNames"]
    with pytest.raises(ClientError) as e:
        west.describe_table(TableName=name)
    assert e.value.response["Error"]["Code"] == "ResourceNotFoundException"
    west.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **h.HASH_SCHEMA)
    h.wait_active(west, name)
    east.put_item(TableName=name, Item={"pk": {"S": "only-east"}})
    assert "Item" not in west.get_item(TableName=name, Key={"pk": {"S": "only-east"}}, ConsistentRead=True)
    assert ":us-east-1:" in east.describe_table(TableName=name)["Table"]["TableArn"]
    assert ":eu-west-1:" in west.describe_table(TableName=name)["Table"]["TableArn"]


# --shared-db puts every region in one namespace (like DynamoDB Local's -sharedDb).
def test_shared_db(launch_dynamod):
    server = launch_dynamod(args=["--shared-db"], in_memory=True)
    east, west = region_client(server, "us-east-1"), region_client(server, "eu-west-1")
    name = h.unique_name("shared")
    east.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **h.HASH_SCHEMA)
    h.wait_active(east, name)
    east.put_item(TableName=name, Item={"pk": {"S": "x"}})
    assert name in west.list_tables()["TableNames"]
    assert west.get_item(TableName=name, Key={"pk": {"S": "x"}}, ConsistentRead=True)["Item"] == {"pk": {"S": "x"}}


# Temporary credentials: a line "KEY SECRET SESSION_TOKEN" makes the token part of the key.
TEMP_KEY, TEMP_SECRET, TEMP_TOKEN = "ASIATEMPORARYKEY0001", "temporary/secret", "FwoGZXIvYXdzEJr//////////token+/="


def session_client(server, key, secret, token):
    import boto3
    from botocore.config import Config
    return boto3.client("dynamodb", endpoint_url=server.endpoint, region_name=h.REGION, aws_access_key_id=key,
                        aws_secret_access_key=secret, aws_session_token=token,
                        config=Config(retries={"max_attempts": 0}))


@pytest.fixture
def token_server(launch_dynamod, tmp_path):
    creds = tmp_path / "credentials"
    creds.write_text("%s %s\n%s %s %s\n" % (KEY, SECRET, TEMP_KEY, TEMP_SECRET, TEMP_TOKEN))
    return launch_dynamod(args=["--credentials", str(creds)], in_memory=True)


def test_session_token_listed_is_required(token_server):
    ok = h.raw_request(token_server.endpoint, "ListTables", {}, key=TEMP_KEY, secret=TEMP_SECRET, token=TEMP_TOKEN)
    assert ok.status == 200, ok
    assert "TableNames" in session_client(token_server, TEMP_KEY, TEMP_SECRET, TEMP_TOKEN).list_tables()
    for token in (None, "another-token", TEMP_TOKEN + "x"):
        r = h.raw_request(token_server.endpoint, "ListTables", {}, key=TEMP_KEY, secret=TEMP_SECRET, token=token)
        check_error(r, "UnrecognizedClientException", BAD_TOKEN)


# A token the file does not list is refused, on a key that has none (the service's STS
# would not recognise it either); the same key without a token is fine.
def test_session_token_not_listed_is_refused(token_server):
    r = h.raw_request(token_server.endpoint, "ListTables", {}, key=KEY, secret=SECRET, token="made-up-token")
    check_error(r, "UnrecognizedClientException", BAD_TOKEN)
    c = session_client(token_server, KEY, SECRET, "made-up-token")
    expect_error(lambda: c.list_tables(), "UnrecognizedClientException", BAD_TOKEN)
    assert h.raw_request(token_server.endpoint, "ListTables", {}, key=KEY, secret=SECRET).status == 200


def test_credentials_file_with_too_many_fields_is_refused(dynamod_bin, tmp_path):
    import subprocess
    creds = tmp_path / "credentials"
    creds.write_text("%s %s token extra\n" % (KEY, SECRET))
    run = subprocess.run([dynamod_bin, "--in-memory", "--port", "0", "--credentials", str(creds)],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode != 0
    assert "expected 'ACCESS_KEY_ID SECRET_ACCESS_KEY [SESSION_TOKEN]'" in run.stderr, run.stderr
