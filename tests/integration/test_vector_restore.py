"""Vector indexes through backups and restores: DescribeBackup's
SourceTableFeatureDetails.VectorIndexes, and the VectorIndexOverride of
RestoreTableFromBackup and RestoreTableToPointInTime, by raw signed requests
(boto3 1.43 knows neither member).

The API reference says of VectorIndexOverride: "If not specified, all vector indexes
from the backup are restored. The indexes provided must match existing vector indexes
from the backup. You can choose to exclude some or all of the vector indexes at the time
of restore." It quotes no message for an override that does not match: those texts are
dynamod's wording, asserted by type and text here and listed in docs/vector-search.md.
"""
import pytest

import dynamo_helpers as h
import vector_helpers as v

PLAIN = v.vector_index(name="plain", dimensions=2)
BY_CAT = v.vector_index(name="bycat", dimensions=2, distance="EUCLIDEAN", search_schema=[("cat", "HASH")],
                        projection={"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]})
NOT_IN_SOURCE = "One or more parameter values were invalid: Vector index %s in VectorIndexOverride " \
                "does not exist in the source table"
NOT_MATCHING = "One or more parameter values were invalid: Vector index %s in VectorIndexOverride " \
               "does not match its definition in the source table"


@pytest.fixture
def backed_up(dynamodb, dynamodb_raw):
    """A table with two vector indexes and two items, and a backup of it: (table, backup ARN)."""
    name = h.unique_name("vrest")
    v.ok(dynamodb_raw("CreateTable", v.create_table_body(name, [PLAIN, BY_CAT], definitions=[("cat", "S")])))
    h.wait_active(dynamodb, name)
    for pk, emb in (("a", [1, 0]), ("b", [0, 1])):
        dynamodb.put_item(TableName=name, Item={"pk": {"S": pk}, "emb": v.vector(*emb), "cat": {"S": "x"},
                                                "title": {"S": pk.upper()}})
    backup = dynamodb.create_backup(TableName=name, BackupName="vec")["BackupDetails"]["BackupArn"]
    restored = []
    yield name, backup, restored
    for target in restored:
        h.drop_table(dynamodb, target)
    dynamodb.delete_backup(BackupArn=backup)
    h.drop_table(dynamodb, name)


def restore(raw, backup, target, restored, **extra):
    body = {"TargetTableName": target, "BackupArn": backup}
    body.update(extra)
    answer = raw("RestoreTableFromBackup", body)
    if answer.status == 200:
        restored.append(target)
    return answer


def test_describe_backup_lists_the_vector_indexes(backed_up, dynamodb_raw):
    _, backup, _ = backed_up
    details = v.ok(dynamodb_raw("DescribeBackup", {"BackupArn": backup}))["BackupDescription"]
    features = details["SourceTableFeatureDetails"]
    # VectorIndexInfo: the definition, without status, counts or ARN.
    assert features["VectorIndexes"] == [
        {"IndexName": "plain", "VectorAttribute": {"AttributeName": "emb"}, "Dimensions": 2,
         "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}},
        {"IndexName": "bycat", "VectorAttribute": {"AttributeName": "emb"}, "Dimensions": 2,
         "DistanceFunction": "EUCLIDEAN",
         "SearchSchema": [{"AttributeName": "cat", "SearchSchemaElementType": "HASH"}],
         "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]}},
    ]


def test_a_backup_of_a_table_without_vector_indexes_lists_none(dynamodb, dynamodb_raw):
    name = h.unique_name("vrest")
    dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    h.wait_active(dynamodb, name)
    backup = dynamodb.create_backup(TableName=name, BackupName="plain")["BackupDetails"]["BackupArn"]
    try:
        details = v.ok(dynamodb_raw("DescribeBackup", {"BackupArn": backup}))["BackupDescription"]
        assert "VectorIndexes" not in details.get("SourceTableFeatureDetails", {})
    finally:
        dynamodb.delete_backup(BackupArn=backup)
        h.drop_table(dynamodb, name)


def test_without_an_override_every_vector_index_is_restored(backed_up, dynamodb, dynamodb_raw):
    _, backup, restored = backed_up
    target = h.unique_name("vrest_all")
    v.ok(restore(dynamodb_raw, backup, target, restored))
    h.wait_active(dynamodb, target)
    assert [i["IndexName"] for i in v.describe_vector_indexes(dynamodb_raw, target)] == ["plain", "bycat"]


def test_an_override_keeps_only_the_indexes_it_lists(backed_up, dynamodb, dynamodb_raw):
    _, backup, restored = backed_up
    target = h.unique_name("vrest_one")
    v.ok(restore(dynamodb_raw, backup, target, restored, VectorIndexOverride=[BY_CAT]))
    h.wait_active(dynamodb, target)
    [index] = v.describe_vector_indexes(dynamodb_raw, target)
    assert index["IndexName"] == "bycat" and index["IndexStatus"] == "ACTIVE" and index["ItemCount"] == 2
    found = v.ok(v.search(dynamodb_raw, target, [1, 0], index="bycat", SearchConditionExpression="cat = :c",
                          ExpressionAttributeValues={":c": {"S": "x"}}))
    assert [r["Item"]["pk"]["S"] for r in found["SearchResults"]] == ["a", "b"]
    # The index left out is gone: searching it is refused as for any unknown index.
    assert v.search(dynamodb_raw, target, [1, 0], index="plain").status == 400


def test_an_empty_override_restores_no_vector_index(backed_up, dynamodb, dynamodb_raw):
    _, backup, restored = backed_up
    target = h.unique_name("vrest_none")
    v.ok(restore(dynamodb_raw, backup, target, restored, VectorIndexOverride=[]))
    h.wait_active(dynamodb, target)
    assert v.describe_vector_indexes(dynamodb_raw, target) == []
    # The items themselves are all restored, vectors included.
    assert dynamodb.get_item(TableName=target, Key={"pk": {"S": "a"}})["Item"]["emb"] == v.vector(1, 0)


@pytest.mark.parametrize("index, message", [
    (v.vector_index(name="other", dimensions=2), NOT_IN_SOURCE % "other"),
    (v.vector_index(name="plain", dimensions=3), NOT_MATCHING % "plain"),
    (v.vector_index(name="plain", dimensions=2, distance="DOT_PRODUCT"), NOT_MATCHING % "plain"),
    (v.vector_index(name="plain", dimensions=2, projection={"ProjectionType": "KEYS_ONLY"}), NOT_MATCHING % "plain"),
    (v.vector_index(name="bycat", dimensions=2, distance="EUCLIDEAN",
                    projection={"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]}), NOT_MATCHING % "bycat"),
])
def test_an_override_must_repeat_an_index_of_the_backup(backed_up, dynamodb, dynamodb_raw, index, message):
    _, backup, restored = backed_up
    target = h.unique_name("vrest_bad")
    v.check(restore(dynamodb_raw, backup, target, restored, VectorIndexOverride=[index]), "ValidationException",
            message)
    with pytest.raises(dynamodb.exceptions.ResourceNotFoundException):
        dynamodb.describe_table(TableName=target)


def test_an_override_may_not_list_an_index_twice(backed_up, dynamodb_raw):
    _, backup, restored = backed_up
    v.check(restore(dynamodb_raw, backup, h.unique_name("vrest_twice"), restored, VectorIndexOverride=[PLAIN, PLAIN]),
            "ValidationException",
            "One or more parameter values were invalid: Duplicate vector index name in VectorIndexOverride: plain")


def test_override_members_are_checked_like_create_tables(backed_up, dynamodb_raw):
    _, backup, restored = backed_up
    nameless = dict(PLAIN)
    del nameless["IndexName"]
    v.check(restore(dynamodb_raw, backup, h.unique_name("vrest_null"), restored, VectorIndexOverride=[nameless]),
            "ValidationException",
            "1 validation error detected: Value null at 'vectorIndexOverride.1.member.indexName' failed to satisfy "
            "constraint: Member must not be null")


def test_a_provisioned_restore_cannot_keep_a_listed_index(backed_up, dynamodb, dynamodb_raw):
    _, backup, restored = backed_up
    provisioned = {"BillingModeOverride": "PROVISIONED",
                   "ProvisionedThroughputOverride": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}
    v.check(restore(dynamodb_raw, backup, h.unique_name("vrest_prov"), restored, VectorIndexOverride=[PLAIN],
                    **provisioned), "ValidationException",
            "One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables")
    # Without the override a provisioned restore leaves the vector indexes out, as before.
    target = h.unique_name("vrest_prov")
    v.ok(restore(dynamodb_raw, backup, target, restored, **provisioned))
    h.wait_active(dynamodb, target)
    assert v.describe_vector_indexes(dynamodb_raw, target) == []


def test_point_in_time_restore_takes_the_override(backed_up, dynamodb, dynamodb_raw):
    name, _, restored = backed_up
    dynamodb.update_continuous_backups(TableName=name,
                                       PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    target = h.unique_name("vrest_pitr")
    answer = dynamodb_raw("RestoreTableToPointInTime", {"SourceTableName": name, "TargetTableName": target,
                                                        "UseLatestRestorableTime": True,
                                                        "VectorIndexOverride": [PLAIN]})
    v.ok(answer)
    restored.append(target)
    h.wait_active(dynamodb, target)
    assert [i["IndexName"] for i in v.describe_vector_indexes(dynamodb_raw, target)] == ["plain"]
    v.check(dynamodb_raw("RestoreTableToPointInTime", {"SourceTableName": name,
                                                       "TargetTableName": h.unique_name("vrest_pitr"),
                                                       "UseLatestRestorableTime": True,
                                                       "VectorIndexOverride": [v.vector_index(name="gone")]}),
            "ValidationException", NOT_IN_SOURCE % "gone")
