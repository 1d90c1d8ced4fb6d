"""CloudWatch Contributor Insights settings: UpdateContributorInsights, DescribeContributorInsights
and ListContributorInsights, per table and per global secondary index.

Behaviour and texts: the API reference, the developer guide's "CloudWatch contributor insights for
DynamoDB: how it works" (rule names DynamoDBContributorInsights-{PKC,PKT,SKC,SKT}-<resource>-
<creation timestamp>), and probes of the service published in 2026 (ack-api-quirks,
table-subresources: an ENABLE answers ENABLING and settles ENABLED within seconds; a repeated
ENABLE of the same mode answers ENABLED and changes nothing; a mode change is an ENABLE that keeps
the rules' timestamp; DISABLE answers DISABLING with the setting's own mode; a never-changed
setting describes as {TableName, ContributorInsightsStatus: DISABLED}; ListContributorInsights
leaves out DISABLED settings and lists a table before its indexes; a local or unknown index is
ResourceNotFoundException "Requested resource not found: Index: <i> not found for table: <t>").
The service settles ENABLING/DISABLING in 1-16 s; the tests poll for it, dynamod passes them at
once. The quota of CloudWatch rules per region (100 by default) is tested on a dynamod started with
a small `--contributor-insights-rule-limit`. DynamoDB Local has none of these operations
(UnknownOperationException), so every test here is its deviation.
"""
import re

import pytest

import dynamo_helpers as h
import stream_helpers as sh
from dynamo_helpers import coral_either, expect_error

TABLE_MISSING = "Requested resource not found: Table: %s not found"
INDEX_MISSING = "Requested resource not found: Index: %s not found for table: %s"
RULE_LIMIT = ("Amazon CloudWatch Contributor Insights rule limit reached. Please disable Contributor Insights for "
              "other tables/indexes OR disable other CloudWatch Contributor Insights rules before retrying.")
pytestmark = pytest.mark.dynamodb_local_deviation("the Contributor Insights operations are UnknownOperationException")

BOTH = "ACCESSED_AND_THROTTLED_KEYS"
THROTTLED = "THROTTLED_KEYS"


def update(client, name, action, **kw):
    resp = client.update_contributor_insights(TableName=name, ContributorInsightsAction=action, **kw)
    resp.pop("ResponseMetadata")
    return resp


def describe(client, name, **kw):
    resp = client.describe_contributor_insights(TableName=name, **kw)
    resp.pop("ResponseMetadata")
    return resp


def settled(client, name, status, **kw):
    """Describe once the setting has left ENABLING/DISABLING for `status`."""
    return sh.poll(lambda: (lambda d: d if d["ContributorInsightsStatus"] == status else None)(
        describe(client, name, **kw)), 60, "contributor insights " + status)


def summaries(client, **kw):
    resp = client.list_contributor_insights(**kw)
    return resp["ContributorInsightsSummaries"], resp.get("NextToken")


def rule_kinds(desc, resource):
    """The kinds (PKC, PKT, SKC, SKT) of a description's rules, checking each name's form; and
    their common timestamp."""
    kinds, stamps = [], set()
    for rule in desc["ContributorInsightsRuleList"]:
        m = re.fullmatch(r"DynamoDBContributorInsights-(PKC|PKT|SKC|SKT)-%s-(\d{13})" % re.escape(resource), rule)
        assert m, rule
        kinds.append(m.group(1))
        stamps.add(m.group(2))
    assert len(stamps) == 1, desc
    return kinds, stamps.pop()


def gsi_table(table):
    """pk/sk table with a hash-only GSI by_g and an LSI by_l."""
    return table(
        "range", tag="ci",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "g", "AttributeType": "S"},
                              {"AttributeName": "l", "AttributeType": "N"}],
        GlobalSecondaryIndexes=[{"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}],
        LocalSecondaryIndexes=[{"IndexName": "by_l", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                   {"AttributeName": "l", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}])


# ---------------------------------------------------------------- a table's setting


def test_never_changed_setting(dynamodb, table):
    name = table("hash")
    assert describe(dynamodb, name) == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}
    assert summaries(dynamodb, TableName=name) == ([], None)


def test_enable_hash_table(dynamodb, table):
    name = table("hash")
    assert update(dynamodb, name, "ENABLE") == {"TableName": name, "ContributorInsightsStatus": "ENABLING",
                                                "ContributorInsightsMode": BOTH}
    desc = settled(dynamodb, name, "ENABLED")
    assert set(desc) == {"TableName", "ContributorInsightsRuleList", "ContributorInsightsStatus",
                         "LastUpdateDateTime", "ContributorInsightsMode"}
    assert desc["ContributorInsightsMode"] == BOTH
    assert rule_kinds(desc, name)[0] == ["PKC", "PKT"]
    assert summaries(dynamodb, TableName=name) == (
        [{"TableName": name, "ContributorInsightsStatus": "ENABLED", "ContributorInsightsMode": BOTH}], None)


# A sort key adds the partition-and-sort-key rules; the rules carry the time they were made, a
# millisecond timestamp shortly before the update's answer.
def test_enable_range_table(dynamodb, table):
    name = table("range")
    update(dynamodb, name, "ENABLE")
    desc = settled(dynamodb, name, "ENABLED")
    kinds, stamp = rule_kinds(desc, name)
    assert kinds == ["PKC", "PKT", "SKC", "SKT"]
    assert abs(int(stamp) / 1000 - desc["LastUpdateDateTime"].timestamp()) < 300


# An ENABLE of the mode in force changes nothing: answered ENABLED, same rules, same time.
def test_enable_again_changes_nothing(dynamodb, table):
    name = table("range")
    update(dynamodb, name, "ENABLE")
    before = settled(dynamodb, name, "ENABLED")
    assert update(dynamodb, name, "ENABLE") == {"TableName": name, "ContributorInsightsStatus": "ENABLED",
                                                "ContributorInsightsMode": BOTH}
    assert update(dynamodb, name, "ENABLE", ContributorInsightsMode=BOTH)["ContributorInsightsStatus"] == "ENABLED"
    assert describe(dynamodb, name) == before


# THROTTLED_KEYS keeps the throttled-key rules under their old timestamp; an ENABLE without a mode
# goes back to the default mode (it does not keep the current one).
def test_mode_change(dynamodb, table):
    name = table("range")
    update(dynamodb, name, "ENABLE")
    _, stamp = rule_kinds(settled(dynamodb, name, "ENABLED"), name)
    assert update(dynamodb, name, "ENABLE", ContributorInsightsMode=THROTTLED) == {
        "TableName": name, "ContributorInsightsStatus": "ENABLING", "ContributorInsightsMode": THROTTLED}
    desc = settled(dynamodb, name, "ENABLED")
    assert desc["ContributorInsightsMode"] == THROTTLED
    assert rule_kinds(desc, name) == (["PKT", "SKT"], stamp)
    assert update(dynamodb, name, "ENABLE") == {"TableName": name, "ContributorInsightsStatus": "ENABLING",
                                                "ContributorInsightsMode": BOTH}
    assert settled(dynamodb, name, "ENABLED")["ContributorInsightsMode"] == BOTH


# DISABLE answers DISABLING with the setting's mode (not the one sent); the disabled setting keeps
# its mode and time but no rules, and leaves the list; a second DISABLE answers DISABLED.
def test_disable(dynamodb, table):
    name = table("hash")
    update(dynamodb, name, "ENABLE")
    settled(dynamodb, name, "ENABLED")
    assert update(dynamodb, name, "DISABLE", ContributorInsightsMode=THROTTLED) == {
        "TableName": name, "ContributorInsightsStatus": "DISABLING", "ContributorInsightsMode": BOTH}
    desc = settled(dynamodb, name, "DISABLED")
    assert set(desc) == {"TableName", "ContributorInsightsStatus", "LastUpdateDateTime", "ContributorInsightsMode"}
    assert desc["ContributorInsightsMode"] == BOTH
    assert summaries(dynamodb, TableName=name) == ([], None)
    assert update(dynamodb, name, "DISABLE")["ContributorInsightsStatus"] == "DISABLED"
    assert describe(dynamodb, name) == desc


def test_disable_never_changed_setting(dynamodb, table):
    name = table("hash")
    resp = update(dynamodb, name, "DISABLE")
    assert resp["TableName"] == name and resp["ContributorInsightsStatus"] == "DISABLED"
    assert describe(dynamodb, name) == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}


# TableName may be the table's ARN; the answers name the table.
def test_table_arn(dynamodb, table):
    name = table("hash")
    arn = dynamodb.describe_table(TableName=name)["Table"]["TableArn"]
    assert update(dynamodb, arn, "ENABLE")["TableName"] == name
    assert settled(dynamodb, arn, "ENABLED")["TableName"] == name
    assert summaries(dynamodb, TableName=arn)[0][0]["TableName"] == name


# ---------------------------------------------------------------- global indexes


# A global index has a setting of its own, named <table>-<index> in its rules; the table's stays
# DISABLED. The list names the table before its indexes, and MaxResults pages them.
def test_global_index_setting(dynamodb, table):
    name = gsi_table(table)
    assert update(dynamodb, name, "ENABLE", IndexName="by_g") == {
        "TableName": name, "IndexName": "by_g", "ContributorInsightsStatus": "ENABLING",
        "ContributorInsightsMode": BOTH}
    desc = settled(dynamodb, name, "ENABLED", IndexName="by_g")
    assert desc["IndexName"] == "by_g"
    assert rule_kinds(desc, name + "-by_g")[0] == ["PKC", "PKT"]  # the index has no sort key
    assert describe(dynamodb, name) == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}
    index_summary = {"TableName": name, "IndexName": "by_g", "ContributorInsightsStatus": "ENABLED",
                     "ContributorInsightsMode": BOTH}
    assert summaries(dynamodb, TableName=name) == ([index_summary], None)
    update(dynamodb, name, "ENABLE")
    settled(dynamodb, name, "ENABLED")
    table_summary = {"TableName": name, "ContributorInsightsStatus": "ENABLED", "ContributorInsightsMode": BOTH}
    assert summaries(dynamodb, TableName=name) == ([table_summary, index_summary], None)
    first, token = summaries(dynamodb, TableName=name, MaxResults=1)
    assert first == [table_summary] and token
    assert summaries(dynamodb, TableName=name, MaxResults=1, NextToken=token) == ([index_summary], None)


def test_local_and_unknown_index(dynamodb, table):
    name = gsi_table(table)
    for index in ("by_l", "nope"):
        expect_error(lambda: dynamodb.describe_contributor_insights(TableName=name, IndexName=index),
                     "ResourceNotFoundException", INDEX_MISSING % (index, name))
        expect_error(lambda: dynamodb.update_contributor_insights(
            TableName=name, IndexName=index, ContributorInsightsAction="ENABLE"),
            "ResourceNotFoundException", INDEX_MISSING % (index, name))


# Dropping an index drops its setting: no summary is left, and the index is unknown.
def test_dropped_index_leaves_nothing(dynamodb, table):
    name = gsi_table(table)
    update(dynamodb, name, "ENABLE", IndexName="by_g")
    settled(dynamodb, name, "ENABLED", IndexName="by_g")
    dynamodb.update_table(TableName=name, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by_g"}}])
    sh.poll(lambda: not dynamodb.describe_table(TableName=name)["Table"].get("GlobalSecondaryIndexes"), 600,
            "index dropped")
    assert summaries(dynamodb, TableName=name) == ([], None)
    expect_error(lambda: dynamodb.describe_contributor_insights(TableName=name, IndexName="by_g"),
                 "ResourceNotFoundException", INDEX_MISSING % ("by_g", name))


# ---------------------------------------------------------------- tables that are gone


def test_missing_table(dynamodb):
    name = h.unique_name("gone")
    expect_error(lambda: dynamodb.describe_contributor_insights(TableName=name), "ResourceNotFoundException",
                 TABLE_MISSING % name)
    expect_error(lambda: dynamodb.update_contributor_insights(TableName=name, ContributorInsightsAction="ENABLE"),
                 "ResourceNotFoundException", TABLE_MISSING % name)
    expect_error(lambda: dynamodb.list_contributor_insights(TableName=name), "ResourceNotFoundException")


# The setting goes with its table: a table created again under the name starts afresh.
def test_deleted_table_takes_its_setting(dynamodb, table):
    name = table("hash")
    update(dynamodb, name, "ENABLE")
    settled(dynamodb, name, "ENABLED")
    h.drop_table(dynamodb, name)
    table("hash", TableName=name)
    assert describe(dynamodb, name) == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}


# Without TableName the list covers the region's tables; following NextToken visits every
# setting that is not DISABLED once.
def test_list_whole_region(dynamodb, table):
    names = sorted(table("hash") for _ in range(3))
    for name in names:
        update(dynamodb, name, "ENABLE")
    update(dynamodb, names[1], "DISABLE")
    seen, token = [], None
    for _ in range(1000):
        page, token = summaries(dynamodb, MaxResults=1, **({"NextToken": token} if token else {}))
        seen += [(s["TableName"], s.get("IndexName")) for s in page]
        if not token:
            break
    assert len(seen) == len(set(seen))
    mine = [entry for entry in seen if entry[0] in names]
    assert mine == [(names[0], None), (names[2], None)]


# ---------------------------------------------------------------- bad requests


def test_bad_requests(unchecked, table):
    name = table("hash")
    expect_error(lambda: unchecked.update_contributor_insights(TableName=name), "ValidationException",
                 [h.ENVELOPE + "Value null at 'contributorInsightsAction' failed to satisfy constraint: "
                               "Member must not be null",
                  h.ENVELOPE + "Value at 'ContributorInsightsAction' failed to satisfy constraint: "
                               "Member must not be null"])
    expect_error(lambda: unchecked.update_contributor_insights(TableName=name, ContributorInsightsAction="enable"),
                 "ValidationException",
                 coral_either("contributorInsightsAction", "ContributorInsightsAction", "enable",
                              "Member must satisfy enum value set: [ENABLE, DISABLE]"))
    expect_error(lambda: unchecked.update_contributor_insights(
        TableName=name, ContributorInsightsAction="ENABLE", ContributorInsightsMode="ALL_KEYS"),
        "ValidationException",
        coral_either("contributorInsightsMode", "ContributorInsightsMode", "ALL_KEYS",
                     "Member must satisfy enum value set: [ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS]"))
    expect_error(lambda: unchecked.describe_contributor_insights(TableName=name, IndexName="ab"),
                 "ValidationException",
                 coral_either("indexName", "IndexName", "ab", "Member must have length greater than or equal to 3"))
    expect_error(lambda: unchecked.list_contributor_insights(MaxResults=101), "ValidationException",
                 coral_either("maxResults", "MaxResults", "101", "Member must have value less than or equal to 100"))
    # Nothing was changed by the refused requests.
    assert describe(unchecked, name) == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}


# ---------------------------------------------------------------- the quota of rules (dynamod's flag)


# Past the quota an ENABLE still answers ENABLING, then the setting is FAILED with
# LimitExceededException and no rules; FAILED stays when rules are freed, until an ENABLE finds
# room (new rules) or a DISABLE clears it. A narrower mode fits where a wider one did not.
@pytest.mark.needs_own_server
def test_rule_quota(launch_dynamod):
    server = launch_dynamod(["--contributor-insights-rule-limit", "6"], in_memory=True)
    client = h.make_client(server.endpoint)
    wide, narrow = h.unique_name("wide"), h.unique_name("narrow")
    client.create_table(TableName=wide, BillingMode="PAY_PER_REQUEST", **h.RANGE_SCHEMA)
    client.create_table(TableName=narrow, BillingMode="PAY_PER_REQUEST", **h.RANGE_SCHEMA)
    update(client, wide, "ENABLE")  # 4 rules
    assert update(client, narrow, "ENABLE")["ContributorInsightsStatus"] == "ENABLING"
    failed = describe(client, narrow)
    assert failed["ContributorInsightsStatus"] == "FAILED"
    assert set(failed) == {"TableName", "ContributorInsightsStatus", "LastUpdateDateTime", "FailureException",
                           "ContributorInsightsMode"}
    assert failed["FailureException"] == {"ExceptionName": "LimitExceededException",
                                          "ExceptionDescription": RULE_LIMIT}
    assert summaries(client, TableName=narrow)[0][0]["ContributorInsightsStatus"] == "FAILED"
    # THROTTLED_KEYS needs 2 rules: it fits.
    update(client, narrow, "ENABLE", ContributorInsightsMode=THROTTLED)
    assert describe(client, narrow)["ContributorInsightsStatus"] == "ENABLED"
    # Widening past the quota fails the setting; freeing rules does not mend it.
    update(client, narrow, "ENABLE")
    assert describe(client, narrow)["ContributorInsightsStatus"] == "FAILED"
    update(client, wide, "DISABLE")
    assert describe(client, narrow)["ContributorInsightsStatus"] == "FAILED"
    assert update(client, narrow, "ENABLE")["ContributorInsightsStatus"] == "ENABLING"
    assert rule_kinds(describe(client, narrow), narrow)[0] == ["PKC", "PKT", "SKC", "SKT"]
    # A DISABLE of a FAILED setting clears its failure.
    update(client, wide, "ENABLE")
    assert describe(client, wide)["ContributorInsightsStatus"] == "FAILED"
    assert update(client, wide, "DISABLE")["ContributorInsightsStatus"] == "DISABLING"
    assert "FailureException" not in describe(client, wide)


@pytest.mark.needs_own_server
def test_settings_survive_a_restart(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    client = h.make_client(server.endpoint)
    name = h.unique_name("ci")
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **h.RANGE_SCHEMA)
    update(client, name, "ENABLE", ContributorInsightsMode=THROTTLED)
    before = describe(client, name)
    server.stop()
    client = h.make_client(launch_dynamod(data_dir=data_dir).endpoint)
    assert describe(client, name) == before
