"""DescribeLimits, DescribeEndpoints, DescribeContinuousBackups / UpdateContinuousBackups,
deletion protection end to end, and operations of the service model that dynamod does not
implement.

Catalogue with sources: /work/notes/errors-partiql-tags-misc.md (part 3).
"""
import datetime
import urllib.parse

import pytest

import dynamo_helpers as h
from dynamo_helpers import expect_error
from partiql_helpers import dynamod_only, retry_while

dev = pytest.mark.dynamodb_local_deviation


# ---------------------------------------------------------------- DescribeLimits


# Account and per-table capacity quotas. The service reports the account's own quotas (default
# 80,000 / 40,000); emulators report the defaults. (The service rate-limits this call: call it once.)
def test_describe_limits(dynamodb, target):
    resp = dynamodb.describe_limits()
    names = ["AccountMaxReadCapacityUnits", "AccountMaxWriteCapacityUnits",
             "TableMaxReadCapacityUnits", "TableMaxWriteCapacityUnits"]
    assert all(isinstance(resp[n], int) and resp[n] > 0 for n in names), resp
    if target != "aws":
        assert [resp[n] for n in names] == [80000, 80000, 40000, 40000]


# ---------------------------------------------------------------- DescribeEndpoints


# One endpoint: the address the client used (host[:port], no scheme), cached for 1440 minutes;
# the address answers DynamoDB requests.
@dev("DescribeEndpoints is an UnknownOperationException")
def test_describe_endpoints(dynamodb, endpoint, target):
    endpoints = dynamodb.describe_endpoints()["Endpoints"]
    assert len(endpoints) == 1
    assert endpoints[0]["CachePeriodInMinutes"] == 1440
    url = urllib.parse.urlsplit(endpoint)
    assert endpoints[0]["Address"] == url.netloc
    again = h.make_client("%s://%s" % (url.scheme, endpoints[0]["Address"]), target)
    assert again.describe_endpoints()["Endpoints"] == endpoints


# ---------------------------------------------------------------- continuous backups / PITR


def enable_pitr(client, name, **spec):
    """UpdateContinuousBackups enabling PITR (the service refuses it for a few seconds after
    CreateTable with ContinuousBackupsUnavailableException "Backups are being enabled for the table")."""
    spec = dict(PointInTimeRecoveryEnabled=True, **spec)
    return retry_while(lambda: client.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification=spec), "ContinuousBackupsUnavailableException")


# A new table: continuous (on-demand) backups ENABLED, point-in-time recovery DISABLED with no dates.
# The real service may report DISABLED for a few seconds after creation (ALT).
@dev("DescribeContinuousBackups is an UnknownOperationException")
def test_describe_continuous_backups_new_table(dynamodb, table, target):
    name = table("hash", tag="pitr")
    desc = dynamodb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    assert desc["ContinuousBackupsStatus"] in (("ENABLED", "DISABLED") if target == "aws" else ("ENABLED",))
    assert desc["PointInTimeRecoveryDescription"] == {"PointInTimeRecoveryStatus": "DISABLED"}
    arn = dynamodb.describe_table(TableName=name)["Table"]["TableArn"]
    assert dynamodb.describe_continuous_backups(TableName=arn)["ContinuousBackupsDescription"][
        "PointInTimeRecoveryDescription"] == {"PointInTimeRecoveryStatus": "DISABLED"}


# Enabling PITR reports the window (35 days by default) and DescribeContinuousBackups follows;
# RecoveryPeriodInDays can be changed; disabling drops the window.
@dev("UpdateContinuousBackups is an UnknownOperationException")
def test_point_in_time_recovery_round_trip(dynamodb, table):
    name = table("hash", tag="pitr")
    before = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=5)
    desc = enable_pitr(dynamodb, name)["ContinuousBackupsDescription"]
    assert desc["ContinuousBackupsStatus"] == "ENABLED"
    pitr = desc["PointInTimeRecoveryDescription"]
    assert pitr["PointInTimeRecoveryStatus"] == "ENABLED"
    assert pitr["RecoveryPeriodInDays"] == 35
    assert before <= pitr["EarliestRestorableDateTime"] <= pitr["LatestRestorableDateTime"]
    described = dynamodb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    assert described["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"
    assert described["PointInTimeRecoveryDescription"]["RecoveryPeriodInDays"] == 35
    pitr = enable_pitr(dynamodb, name, RecoveryPeriodInDays=7)["ContinuousBackupsDescription"][
        "PointInTimeRecoveryDescription"]
    assert pitr["RecoveryPeriodInDays"] == 7
    desc = dynamodb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False})[
        "ContinuousBackupsDescription"]
    assert desc["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "DISABLED"
    assert "EarliestRestorableDateTime" not in desc["PointInTimeRecoveryDescription"]
    assert dynamodb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"][
        "PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "DISABLED"


# A missing table is TableNotFoundException here (not ResourceNotFoundException).
@dev("UnknownOperationException")
def test_continuous_backups_missing_table(dynamodb):
    name = h.unique_name("missing")
    expect_error(lambda: dynamodb.describe_continuous_backups(TableName=name), "TableNotFoundException",
                 "Table not found: %s" % name)
    expect_error(lambda: dynamodb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True}),
        "TableNotFoundException")


# Missing members and an out-of-range recovery period (1..35) are ValidationExceptions.
@dev("UnknownOperationException")
@pytest.mark.parametrize("call", ["describe-no-name", "update-no-spec", "period-0", "period-36"])
def test_continuous_backups_validation(unchecked, table, call):
    name = table("hash", tag="pitrv")
    if call == "describe-no-name":
        fn = lambda: unchecked.describe_continuous_backups()  # noqa: E731
    elif call == "update-no-spec":
        fn = lambda: unchecked.update_continuous_backups(TableName=name)  # noqa: E731
    else:
        days = 0 if call == "period-0" else 36
        fn = lambda: unchecked.update_continuous_backups(  # noqa: E731
            TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True,
                                                              "RecoveryPeriodInDays": days})
    expect_error(fn, "ValidationException")


# ---------------------------------------------------------------- deletion protection end to end


PROTECTED = ("Resource cannot be deleted as it is currently protected against deletion. "
             "Disable deletion protection first.")


# Protection turned on by UpdateTable refuses DeleteTable, keeps table and data, and survives until
# turned off; then the table can be deleted.
def test_deletion_protection_end_to_end(dynamodb, table):
    name = table("hash", tag="dp")
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "keep"}})
    assert dynamodb.describe_table(TableName=name)["Table"].get("DeletionProtectionEnabled", False) is False
    dynamodb.update_table(TableName=name, DeletionProtectionEnabled=True)
    h.wait_active(dynamodb, name)
    for _ in range(2):
        expect_error(lambda: dynamodb.delete_table(TableName=name), "ValidationException", PROTECTED)
    desc = dynamodb.describe_table(TableName=name)["Table"]
    assert desc["TableStatus"] == "ACTIVE" and desc["DeletionProtectionEnabled"] is True
    assert dynamodb.get_item(TableName=name, Key={"pk": {"S": "keep"}}, ConsistentRead=True)["Item"]
    # Other updates leave protection on.
    dynamodb.update_table(TableName=name, BillingMode="PROVISIONED",
                          ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    h.wait_active(dynamodb, name)
    assert dynamodb.describe_table(TableName=name)["Table"]["DeletionProtectionEnabled"] is True
    expect_error(lambda: dynamodb.delete_table(TableName=name), "ValidationException", PROTECTED)
    retry_while(lambda: dynamodb.update_table(TableName=name, DeletionProtectionEnabled=False),
                "LimitExceededException")
    h.wait_active(dynamodb, name)
    assert dynamodb.delete_table(TableName=name)["TableDescription"]["TableName"] == name
    h.wait_gone(dynamodb, name)


# ---------------------------------------------------------------- unimplemented operations


# Operations of the service model that dynamod does not implement answer UnknownOperationException
# (HTTP 400) with a message naming the operation, before any validation of the body; a name outside
# the model gets the bare error, as from the service.
@pytest.mark.parametrize("op", ["DescribeGlobalTable", "ListGlobalTables", "CreateGlobalTable",
                                "UpdateGlobalTable", "EnableKinesisStreamingDestination"])
def test_unimplemented_operation(dynamodb_raw, target, op):
    dynamod_only(target, "the service implements %s" % op)
    for body in ({}, {"TableName": "whatever"}):
        r = dynamodb_raw(op, body)
        assert r.status == 400, r
        assert r.json == {"__type": "com.amazon.coral.service#UnknownOperationException",
                          "message": "dynamod does not implement %s (see the list of supported operations in "
                                     "dynamod's README)" % op}, r


def test_operation_outside_the_model(dynamodb_raw):
    r = dynamodb_raw("NoSuchOperation", {})
    assert r.status == 400, r
    assert r.json["__type"].endswith("#UnknownOperationException"), r


# SDKs see it as a ClientError with code UnknownOperationException.
def test_unimplemented_operation_via_sdk(dynamodb, target):
    dynamod_only(target, "the service implements ListGlobalTables")
    expect_error(lambda: dynamodb.list_global_tables(), "UnknownOperationException",
                 "dynamod does not implement ListGlobalTables (see the list of supported operations in dynamod's "
                 "README)")
