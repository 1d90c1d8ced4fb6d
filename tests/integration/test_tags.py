"""TagResource / UntagResource / ListTagsOfResource, and Tags on CreateTable.

Catalogue with sources: /work/notes/errors-partiql-tags-misc.md (part 2). DynamoDB Local does not
support tagging at all (every tag operation answers UnknownOperationException "Tagging is not
currently supported in DynamoDB Local."), so nearly every test here carries the deviation mark.

The real service applies tag changes asynchronously (ALT test_tag.py, since 2024): the tests poll
ListTagsOfResource (wait_tags) after each change; emulators answer at once.
"""
import pytest

import dynamo_helpers as h
from dynamo_helpers import expect_error
from partiql_helpers import dynamod_only, list_all_tags, retry_while, wait_tags

dev = pytest.mark.dynamodb_local_deviation
NO_TAGS = "tagging is not supported (UnknownOperationException)"
pytestmark = dev(NO_TAGS)


def tag(client, arn, tags):
    """TagResource with {key: value}, then wait until ListTagsOfResource shows it."""
    expected = list_all_tags(client, arn)
    expected.update(tags)
    client.tag_resource(ResourceArn=arn, Tags=[{"Key": k, "Value": v} for k, v in tags.items()])
    return wait_tags(client, arn, expected)


def untag(client, arn, keys):
    expected = {k: v for k, v in list_all_tags(client, arn).items() if k not in keys}
    client.untag_resource(ResourceArn=arn, TagKeys=list(keys))
    return wait_tags(client, arn, expected)


@pytest.fixture
def tagged(dynamodb, table):
    """A fresh table; returns its ARN."""
    name = table("hash", tag="tag")
    return dynamodb.describe_table(TableName=name)["Table"]["TableArn"]


def other_account_arn(arn):
    parts = arn.split(":")
    parts[4] = "111111111111" if parts[4] != "111111111111" else "222222222222"
    return ":".join(parts)


# ---------------------------------------------------------------- basics


# A new table has no tags; tags are added, listed, overwritten and removed by key.
def test_tag_list_untag(dynamodb, tagged):
    assert dynamodb.list_tags_of_resource(ResourceArn=tagged)["Tags"] == []
    assert tag(dynamodb, tagged, {"env": "test", "project": "dynamod", "7": " ", " ": "9"}) == \
        {"env": "test", "project": "dynamod", "7": " ", " ": "9"}
    assert tag(dynamodb, tagged, {"env": "prod"})["env"] == "prod"
    # Removing keys that are not there is not an error.
    assert untag(dynamodb, tagged, ["project", "no-such-key"]) == {"env": "prod", "7": " ", " ": "9"}
    assert untag(dynamodb, tagged, ["env", "7", " "]) == {}


# TagResource and UntagResource answer HTTP 200 with an empty body (not "{}").
def test_tag_answers_have_empty_body(dynamodb_raw, dynamodb, tagged):
    r = dynamodb_raw("TagResource", {"ResourceArn": tagged, "Tags": [{"Key": "k", "Value": "v"}]})
    assert r.status == 200 and r.body == b"", r
    wait_tags(dynamodb, tagged, {"k": "v"})
    r = dynamodb_raw("UntagResource", {"ResourceArn": tagged, "TagKeys": ["k"]})
    assert r.status == 200 and r.body == b"", r
    r = dynamodb_raw("ListTagsOfResource", {"ResourceArn": tagged})
    assert r.status == 200 and "Tags" in r.json


# Values may be empty; keys up to 128 and values up to 256 characters (counted as characters).
def test_tag_length_limits_accepted(dynamodb, tagged):
    got = tag(dynamodb, tagged, {"empty": "", "k" * 128: "v" * 256})
    assert got["empty"] == "" and got["k" * 128] == "v" * 256


# Tags given to CreateTable are listed by ListTagsOfResource.
def test_create_table_with_tags(dynamodb, table):
    name = table("hash", tag="tagc", Tags=[{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}])
    arn = dynamodb.describe_table(TableName=name)["Table"]["TableArn"]
    wait_tags(dynamodb, arn, {"a": "1", "b": "2"})


# Tags belong to the table, not its name: a re-created table starts untagged.
def test_tags_do_not_survive_recreation(dynamodb, table):
    name = table("hash", tag="tagr", Tags=[{"Key": "stale", "Value": "x"}])
    arn = dynamodb.describe_table(TableName=name)["Table"]["TableArn"]
    wait_tags(dynamodb, arn, {"stale": "x"})
    retry_while(lambda: dynamodb.delete_table(TableName=name), "ResourceInUseException")
    h.wait_gone(dynamodb, name)
    dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **h.HASH_SCHEMA)
    h.wait_active(dynamodb, name)
    assert dynamodb.list_tags_of_resource(ResourceArn=arn)["Tags"] == []


# ListTagsOfResource may page; following NextToken yields every tag once.
def test_list_tags_paging(dynamodb, tagged):
    tags = {"key%02d" % i: "v%d" % i for i in range(12)}
    tag(dynamodb, tagged, tags)
    assert list_all_tags(dynamodb, tagged) == tags


# ---------------------------------------------------------------- validation


# At most 50 tags per resource (counting the ones already there).
def test_tag_count_limit(dynamodb, tagged):
    tag(dynamodb, tagged, {"t%02d" % i: "v" for i in range(30)})
    tag(dynamodb, tagged, {"t%02d" % i: "v" for i in range(20, 50)})        # 50 in all
    expect_error(lambda: dynamodb.tag_resource(ResourceArn=tagged, Tags=[{"Key": "one-more", "Value": "v"}]),
                 "ValidationException")
    assert len(list_all_tags(dynamodb, tagged)) == 50


# CreateTable checks its Tags (an empty key, a key of AWS's own, a missing Value, named by its
# place as TagResource names it) and creates no table.
@dev("accepted (CreateTable's Tags are not checked)")
@pytest.mark.parametrize("tags,message", [
    pytest.param([{"Key": "", "Value": "v"}], "1 validation error detected: Value '' at 'tags.1.member.key' failed to "
                 "satisfy constraint: Member must have length greater than or equal to 1", id="empty-key"),
    pytest.param([{"Key": "aws:x", "Value": "v"}], "One or more parameter values were invalid: Tag keys beginning with "
                 "'aws:' are reserved for AWS use: aws:x", id="aws-prefix"),
    pytest.param([{"Key": "k", "Value": "v"}, {"Key": "k2"}], "1 validation error detected: Value null at "
                 "'tags.2.member.value' failed to satisfy constraint: Member must not be null", id="no-value"),
])
def test_create_table_invalid_tag(unchecked, dynamodb, tags, message):
    name = h.unique_name("tagx")
    try:
        expect_error(lambda: unchecked.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                                    Tags=tags, **h.HASH_SCHEMA),
                     "ValidationException", message)
    finally:
        h.drop_table(dynamodb, name)


# CreateTable with more than 50 tags fails and creates no table.
def test_create_table_too_many_tags(dynamodb):
    name = h.unique_name("tagx")
    try:
        expect_error(lambda: dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                                   Tags=[{"Key": str(i), "Value": str(i)} for i in range(51)],
                                                   **h.HASH_SCHEMA),
                     "ValidationException")
        expect_error(lambda: dynamodb.describe_table(TableName=name), "ResourceNotFoundException")
    finally:
        h.drop_table(dynamodb, name)


# Key 1..128 characters, value 0..256, both required; only letters, digits, whitespace and + - = . _ : / @.
@pytest.mark.parametrize("tags", [
    [{"Key": "x" * 129, "Value": "v"}],
    [{"Key": "k", "Value": "v" * 257}],
    [{"Key": "", "Value": "v"}],
    [{"Key": "k"}],
    [{"Key": "hi!", "Value": "v"}],
    [{"Key": "k", "Value": "d%g"}],
    [{"Key": '"quoted"', "Value": "v"}],
], ids=["key-129", "value-257", "empty-key", "no-value", "bang-in-key", "percent-in-value", "quote-in-key"])
def test_tag_invalid(unchecked, tagged, tags):
    expect_error(lambda: unchecked.tag_resource(ResourceArn=tagged, Tags=tags), "ValidationException")


# A tag without its Key or Value is named by its place (Coral's "Member must not be null").
def test_tag_member_required(unchecked, tagged):
    expect_error(lambda: unchecked.tag_resource(ResourceArn=tagged, Tags=[{"Key": "k", "Value": "v"}, {"Value": "v"}]),
                 "ValidationException", "1 validation error detected: Value null at 'tags.2.member.key' failed to "
                 "satisfy constraint: Member must not be null")


# Tags / TagKeys missing or empty (DYN/DNX texts, recorded against the service).
def test_tag_lists_required(unchecked, tagged):
    expect_error(lambda: unchecked.tag_resource(ResourceArn=tagged), "ValidationException",
                 "1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null")
    expect_error(lambda: unchecked.tag_resource(ResourceArn=tagged, Tags=[]), "ValidationException",
                 "Atleast one Tag needs to be provided as Input.")
    expect_error(lambda: unchecked.untag_resource(ResourceArn=tagged, TagKeys=[]), "ValidationException",
                 "Atleast one Tag Key needs to be provided as Input.")


# A well-formed ARN of this account and region naming no table: ResourceNotFoundException
# (UntagResource says only "Requested resource not found"). The service long spelt it "ResourcArn"
# (dynalite's tests, DynamoDB Local); probes of it in 2026 read "ResourceArn" (ack-api-quirks
# DDB-TABLE-014), which dynamod answers.
def test_unknown_table_arn(dynamodb, tagged):
    arn = tagged + "x"
    texts = ["Requested resource not found: %s: %s not found" % (word, arn) for word in ("ResourceArn", "ResourcArn")]
    expect_error(lambda: dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k", "Value": "v"}]),
                 "ResourceNotFoundException", texts)
    expect_error(lambda: dynamodb.list_tags_of_resource(ResourceArn=arn), "ResourceNotFoundException", texts)
    expect_error(lambda: dynamodb.untag_resource(ResourceArn=arn, TagKeys=["k"]),
                 "ResourceNotFoundException", "Requested resource not found")


# Index ARNs cannot be tagged; only table (and stream) ARNs are accepted.
def test_index_arn_rejected(dynamodb, table):
    name = table("hash", tag="tagi",
                 AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                       {"AttributeName": "g", "AttributeType": "S"}],
                 GlobalSecondaryIndexes=[{"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                          "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    gsi_arn = dynamodb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"][0]["IndexArn"]
    expect_error(lambda: dynamodb.list_tags_of_resource(ResourceArn=gsi_arn), "ValidationException",
                 regex=r".*[Rr]esource ?[Aa]rn.*")
    expect_error(lambda: dynamodb.tag_resource(ResourceArn=gsi_arn, Tags=[{"Key": "k", "Value": "v"}]),
                 "ValidationException", regex=r".*[Rr]esource ?[Aa]rn.*")


# Something that is not an ARN at all is a ValidationException.
def test_not_an_arn(dynamodb):
    expect_error(lambda: dynamodb.tag_resource(ResourceArn="not-a-valid-arn", Tags=[{"Key": "k", "Value": "v"}]),
                 "ValidationException")


# An ARN of another account is not disclosed: AccessDeniedException.
def test_other_account_arn(dynamodb, tagged):
    arn = other_account_arn(tagged)
    for call in (lambda: dynamodb.list_tags_of_resource(ResourceArn=arn),
                 lambda: dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k", "Value": "v"}]),
                 lambda: dynamodb.untag_resource(ResourceArn=arn, TagKeys=["k"])):
        expect_error(call, "AccessDeniedException")


# dynamod rejects keys starting with "aws:" (reserved by AWS); the service's answer is not established.
def test_aws_prefix_reserved(unchecked, tagged, target):
    dynamod_only(target, "the service's answer to an aws: key is not established")
    expect_error(lambda: unchecked.tag_resource(ResourceArn=tagged, Tags=[{"Key": "aws:x", "Value": "v"}]),
                 "ValidationException")
