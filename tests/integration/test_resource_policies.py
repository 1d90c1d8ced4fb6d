"""Resource-based policies: PutResourcePolicy, GetResourcePolicy, DeleteResourcePolicy and
CreateTable's ResourcePolicy, on tables and their streams.

Behaviour and texts: the API reference, the developer guide's "Using resource-based policies for
DynamoDB", and probes of the service published in 2026 (ack-api-quirks,
table-policy-kinesis-autoscaling.md: the canonical form GetResourcePolicy answers; RevisionId, the
change's time in milliseconds; an equivalent re-Put is no change; ExpectedRevisionId and NO_POLICY;
a change refused for 15 s after the last one, with ResourceInUseException and then
ThrottlingException; PolicyNotFoundException and the validation texts). The service applies a
policy eventually: GetResourcePolicy may show the previous state for a second or two, so the tests
poll for the RevisionId they expect. Where the service's text is cut short in the published probes,
only its known beginning is asserted. dynamod keeps and answers policies but does not enforce them.
DynamoDB Local has none of these operations (UnknownOperationException; it accepts CreateTable's
ResourcePolicy and drops it), so every test here is its deviation.
"""
import json
import re
import time

import pytest

import dynamo_helpers as h
import stream_helpers as sh
from dynamo_helpers import expect_error

pytestmark = pytest.mark.dynamodb_local_deviation("the resource policy operations are UnknownOperationException")

NOT_FOUND = "Resource-based policy not found for the provided ResourceArn: "
INVALID = "One or more parameter values were invalid: "
UNBOUNDED = ("Resource-based policy grants unbounded access in one or more elements. Please revise the policy to "
             "ensure least-privilege form of access")
LOCKOUT = "The new resource policy will not allow you to update the resource policy in the future."


def table_arn(client, name):
    return client.describe_table(TableName=name)["Table"]["TableArn"]


def account_of(arn):
    return arn.split(":")[4]


def statement(arn, sid="AllowRead", actions=("dynamodb:GetItem",), effect="Allow", principal=None):
    return {"Sid": sid, "Effect": effect,
            "Principal": principal or {"AWS": "arn:aws:iam::%s:root" % account_of(arn)},
            "Action": list(actions), "Resource": arn}


def document(arn, **kw):
    return {"Version": "2012-10-17", "Statement": [statement(arn, **kw)]}


def canonical(arn, sid="AllowRead", action="dynamodb:GetItem"):
    return ('{"Version":"2012-10-17","Statement":[{"Sid":"%s","Effect":"Allow","Principal":{"AWS":'
            '"arn:aws:iam::%s:root"},"Action":"%s","Resource":"%s"}]}' % (sid, account_of(arn), action, arn))


def put(client, arn, doc, **kw):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return client.put_resource_policy(ResourceArn=arn, Policy=text, **kw)["RevisionId"]


def get_when(client, arn, revision):
    """GetResourcePolicy once it shows `revision` (the service applies a Put in 1-3 s)."""
    return sh.poll(lambda: (lambda r: r if r.get("RevisionId") == revision else None)(
        _get_or_none(client, arn)), 30, "policy revision %s" % revision)


def _get_or_none(client, arn):
    try:
        return client.get_resource_policy(ResourceArn=arn)
    except client.exceptions.PolicyNotFoundException:
        return {}


# ---------------------------------------------------------------- a table's policy


def test_no_policy(dynamodb, table):
    arn = table_arn(dynamodb, table("hash"))
    expect_error(lambda: dynamodb.get_resource_policy(ResourceArn=arn), "PolicyNotFoundException", NOT_FOUND + arn)
    resp = dynamodb.delete_resource_policy(ResourceArn=arn)
    assert "RevisionId" not in resp


# The document comes back in the canonical form (minified, members in a fixed order, a list of one
# as its string, an account id as its root ARN); the RevisionId is the change's time in milliseconds.
def test_put_and_get_canonical(dynamodb, table):
    arn = table_arn(dynamodb, table("hash"))
    scrambled = {"Statement": [{"Resource": [arn], "Action": ["dynamodb:GetItem"], "Sid": "AllowRead",
                                "Principal": {"AWS": account_of(arn)}, "Effect": "Allow"}],
                 "Version": "2012-10-17"}
    before = int(time.time() * 1000)
    revision = put(dynamodb, arn, json.dumps(scrambled, indent=4))
    assert re.fullmatch(r"\d{13}", revision) and abs(int(revision) - before) < 300000
    got = get_when(dynamodb, arn, revision)
    assert got["Policy"] == canonical(arn)


# Equivalent documents are the same policy: a re-Put answers the same RevisionId at once (no
# change, so no window is opened either).
def test_equivalent_put_is_no_change(dynamodb, table):
    arn = table_arn(dynamodb, table("hash"))
    revision = put(dynamodb, arn, document(arn))
    assert put(dynamodb, arn, canonical(arn)) == revision
    assert put(dynamodb, arn, json.dumps(document(arn), indent=2)) == revision
    single = document(arn)
    single["Statement"] = single["Statement"][0]  # a statement object: a list of one
    assert put(dynamodb, arn, single) == revision


# Without Version the service reads 2008-10-17 (IAM's old default).
def test_missing_version(dynamodb, table):
    arn = table_arn(dynamodb, table("hash"))
    doc = document(arn)
    del doc["Version"]
    revision = put(dynamodb, arn, doc)
    assert get_when(dynamodb, arn, revision)["Policy"] == canonical(arn).replace("2012-10-17", "2008-10-17")


def test_policy_at_creation(dynamodb, table):
    # The account (for the principal and the ARN) is read from a table made first.
    arn = table_arn(dynamodb, table("hash")).rsplit("/", 1)[0] + "/" + h.unique_name("rp")
    table("hash", TableName=arn.split("/")[-1], ResourcePolicy=json.dumps(document(arn)))
    got = sh.poll(lambda: _get_or_none(dynamodb, arn), 30, "policy of a new table")
    assert got["Policy"] == canonical(arn) and re.fullmatch(r"\d{13}", got["RevisionId"])


# ---------------------------------------------------------------- changes and their window


def too_soon(exc_info_call, name):
    """The service's two answers to a change within 15 s of the last one."""
    with pytest.raises(Exception) as info:
        exc_info_call()
    code, message, status = h.error_of(info.value)
    assert status == 400
    if code == "ResourceInUseException":
        assert message == ("Attempt to change a resource which is still in use: Table is pending previous "
                           "resource-based policy update: %s" % name), message
    else:
        assert code == "ThrottlingException", (code, message)
        assert re.fullmatch(r"Resource-based policy for table %s modified within the previous 15000 milliseconds\. "
                            r"Please try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\." % re.escape(name),
                            message), message


def test_change_right_after_a_change_is_refused(dynamodb, table):
    name = table("hash")
    arn = table_arn(dynamodb, name)
    revision = put(dynamodb, arn, document(arn))
    too_soon(lambda: put(dynamodb, arn, document(arn, sid="Other")), name)
    too_soon(lambda: dynamodb.delete_resource_policy(ResourceArn=arn), name)
    # ExpectedRevisionId is checked first: a stale one is PolicyNotFoundException even now.
    exc = expect_error(lambda: dynamodb.delete_resource_policy(ResourceArn=arn, ExpectedRevisionId="1000000000000"),
                       "PolicyNotFoundException")
    assert h.error_of(exc)[1].startswith(NOT_FOUND + "Requested update for policy with revision id 1000000000000, "
                                                     "but the policy associated to target ta")
    assert get_when(dynamodb, arn, revision)["Policy"] == canonical(arn)


def test_expected_revision_without_policy(dynamodb, table):
    name = table("hash")
    arn = table_arn(dynamodb, name)
    for call in (lambda: put(dynamodb, arn, document(arn), ExpectedRevisionId="123456789"),
                 lambda: dynamodb.delete_resource_policy(ResourceArn=arn, ExpectedRevisionId="123456789")):
        exc = expect_error(call, "PolicyNotFoundException")
        assert h.error_of(exc)[1].startswith(
            NOT_FOUND + "Requested update for policy with revision id 123456789, but table %s has no associated" % name)
    # NO_POLICY: only where there is none.
    revision = put(dynamodb, arn, document(arn), ExpectedRevisionId="NO_POLICY")
    assert get_when(dynamodb, arn, revision)


# The whole life of a policy, with the service's 15-second windows between changes: a change with
# the right ExpectedRevisionId, a delete answering the deleted RevisionId, then a second delete
# answering the deletion's own.
def test_policy_lifecycle(dynamodb, table):
    name = table("hash")
    arn = table_arn(dynamodb, name)
    first = put(dynamodb, arn, document(arn))
    time.sleep(15.5)
    second = put(dynamodb, arn, document(arn, sid="Other"), ExpectedRevisionId=first)
    assert int(second) > int(first)
    assert get_when(dynamodb, arn, second)["Policy"] == canonical(arn, sid="Other")
    time.sleep(15.5)
    assert dynamodb.delete_resource_policy(ResourceArn=arn, ExpectedRevisionId=second)["RevisionId"] == second
    sh.poll(lambda: not _get_or_none(dynamodb, arn), 30, "policy gone")
    tombstone = dynamodb.delete_resource_policy(ResourceArn=arn)["RevisionId"]
    assert int(tombstone) > int(second)
    too_soon(lambda: put(dynamodb, arn, document(arn)), name)


# ---------------------------------------------------------------- streams


def test_stream_policy(dynamodb, table):
    name = table("hash", StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    desc = dynamodb.describe_table(TableName=name)["Table"]
    stream_arn = desc["LatestStreamArn"]
    doc = {"Version": "2012-10-17", "Statement": [{
        "Sid": "ReadStream", "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % account_of(stream_arn)},
        "Action": ["dynamodb:DescribeStream", "dynamodb:GetRecords"], "Resource": stream_arn}]}
    revision = put(dynamodb, stream_arn, doc)
    got = get_when(dynamodb, stream_arn, revision)
    assert json.loads(got["Policy"])["Statement"][0]["Action"] == ["dynamodb:DescribeStream", "dynamodb:GetRecords"]
    # The table's own policy is another one.
    expect_error(lambda: dynamodb.get_resource_policy(ResourceArn=desc["TableArn"]), "PolicyNotFoundException",
                 NOT_FOUND + desc["TableArn"])


# ---------------------------------------------------------------- bad requests


def test_missing_table(dynamodb, table):
    arn = table_arn(dynamodb, table("hash")) + "x"
    name = arn.split("/")[-1]
    for call in (lambda: dynamodb.get_resource_policy(ResourceArn=arn),
                 lambda: dynamodb.delete_resource_policy(ResourceArn=arn),
                 lambda: put(dynamodb, arn, document(arn))):
        expect_error(call, "ResourceNotFoundException", "Requested resource not found: Table: %s not found" % name)


# A bare table name and an index's ARN are no resource a policy can be attached to.
def test_not_a_policy_resource(dynamodb, table):
    name = table("hash")
    arn = table_arn(dynamodb, name)
    for bad in (name, arn + "/index/by_x"):
        expect_error(lambda: dynamodb.get_resource_policy(ResourceArn=bad), "ValidationException")


@pytest.mark.parametrize("change,message", [
    (lambda s: s.pop("Resource"), INVALID + "Invalid policy document: Missing required field Resource"),
    (lambda s: s.update(Principal="*"), UNBOUNDED),
    (lambda s: s.update(Principal={"AWS": "*"}), UNBOUNDED),
], ids=["no-resource", "everyone", "aws-everyone"])
def test_refused_documents(dynamodb, table, change, message):
    arn = table_arn(dynamodb, table("hash"))
    doc = document(arn)
    change(doc["Statement"][0])
    expect_error(lambda: put(dynamodb, arn, doc), "ValidationException", message)
    expect_error(lambda: dynamodb.get_resource_policy(ResourceArn=arn), "PolicyNotFoundException", NOT_FOUND + arn)


def test_repeated_sids_and_size(dynamodb, table):
    arn = table_arn(dynamodb, table("hash"))
    doc = document(arn)
    doc["Statement"].append(statement(arn, actions=("dynamodb:Query",)))
    expect_error(lambda: put(dynamodb, arn, doc), "ValidationException",
                 INVALID + "Invalid policy document: The Statement Ids in the policy are not unique")
    padded = json.dumps(document(arn)) + " " * 21000
    expect_error(lambda: put(dynamodb, arn, padded), "ValidationException",
                 INVALID + "Maximum policy size of 20480 bytes exceeded")


# A policy that denies everyone PutResourcePolicy would lock its writer out: refused unless
# ConfirmRemoveSelfResourceAccess says so.
def test_lockout_needs_confirmation(dynamodb, table):
    arn = table_arn(dynamodb, table("hash"))
    deny = {"Version": "2012-10-17", "Statement": [statement(arn, sid="NoMore", effect="Deny", principal="*",
                                                             actions=("dynamodb:PutResourcePolicy",))]}
    expect_error(lambda: put(dynamodb, arn, deny), "AccessDeniedException", LOCKOUT)
    expect_error(lambda: put(dynamodb, arn, deny, ConfirmRemoveSelfResourceAccess=False), "AccessDeniedException",
                 LOCKOUT)
    assert put(dynamodb, arn, deny, ConfirmRemoveSelfResourceAccess=True)


def test_required_members(unchecked):
    expect_error(lambda: unchecked.get_resource_policy(), "ValidationException",
                 [h.ENVELOPE + "Value null at 'resourceArn' failed to satisfy constraint: Member must not be null",
                  h.ENVELOPE + "Value at 'ResourceArn' failed to satisfy constraint: Member must not be null"])
    expect_error(lambda: unchecked.put_resource_policy(ResourceArn="arn:aws:dynamodb:us-east-1:000000000000:table/t"),
                 "ValidationException",
                 [h.ENVELOPE + "Value null at 'policy' failed to satisfy constraint: Member must not be null",
                  h.ENVELOPE + "Value at 'Policy' failed to satisfy constraint: Member must not be null"])


# ---------------------------------------------------------------- dynamod's window flag, restarts


@pytest.mark.needs_own_server
def test_window_flag(launch_dynamod):
    client = h.make_client(launch_dynamod(["--resource-policy-cooldown", "2"], in_memory=True).endpoint)
    name = h.unique_name("rp")
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **h.HASH_SCHEMA)
    arn = table_arn(client, name)
    put(client, arn, document(arn))
    expect_error(lambda: put(client, arn, document(arn, sid="B")), "ResourceInUseException")
    time.sleep(1.1)
    exc = expect_error(lambda: put(client, arn, document(arn, sid="B")), "ThrottlingException")
    assert "within the previous 2000 milliseconds" in h.error_of(exc)[1]
    time.sleep(1.0)
    assert put(client, arn, document(arn, sid="B"))


@pytest.mark.needs_own_server
def test_policies_survive_a_restart(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    client = h.make_client(server.endpoint)
    name = h.unique_name("rp")
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **h.HASH_SCHEMA)
    arn = table_arn(client, name)
    revision = put(client, arn, document(arn))
    server.stop()
    client = h.make_client(launch_dynamod(data_dir=data_dir).endpoint)
    got = client.get_resource_policy(ResourceArn=arn)
    assert (got["Policy"], got["RevisionId"]) == (canonical(arn), revision)
