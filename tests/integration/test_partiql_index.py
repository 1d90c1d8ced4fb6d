"""PartiQL SELECT on an index: when a filter on attributes the index does not project is
refused, and which NextToken a read accepts.

Sources: the public conformance suites measured against the service (nubo-db/paritysuite
dynamodb-conformance, tests/tier2/partiql/indexQualifier.test.ts and
tests/tier3/error-messages/partiqlIndexQualifier.test.ts, eu-west-2, 2026-09), and the
service's NextToken texts ("NextToken does not match request", "Invalid NextToken") as its users
report them (aws-sdk-js-v3 issue 4424). docs/service-fidelity.md lists each.
"""
import base64
from types import SimpleNamespace

import pytest

from dynamo_helpers import expect_error
from partiql_helpers import q, run

dev = pytest.mark.dynamodb_local_deviation
VE = "ValidationException"
S = lambda v: {"S": v}  # noqa: E731
NOT_PROJECTED = "One or more parameter values were invalid: Secondary index %s does not project one or more filter " \
                "attributes: [np]"
MISMATCH = "NextToken does not match request"

# s3 holds no index attribute, so no index holds it; np is projected by no index; s5 is the
# only item of gsi-inc's partition y2.
ITEMS = [
    {"pk": S("p"), "sk": S("s1"), "gpk": S("x"), "gpk2": S("y"), "lsk": S("k1"), "proj": S("a1"), "np": S("n1")},
    {"pk": S("p"), "sk": S("s2"), "gpk": S("z"), "gpk2": S("y"), "lsk": S("k2"), "proj": S("a2"), "np": S("n2")},
    {"pk": S("p"), "sk": S("s3"), "np": S("n3")},
    {"pk": S("p"), "sk": S("s4"), "gpk": S("x"), "gpk2": S("y"), "lsk": S("k4"), "proj": S("a4"), "np": S("n4")},
    {"pk": S("q"), "sk": S("s5"), "gpk2": S("y2"), "proj": S("a5"), "np": S("n5")},
]


def gsi(name, key, projection):
    return {"IndexName": name, "KeySchema": [{"AttributeName": key, "KeyType": "HASH"}], "Projection": projection}


@pytest.fixture(scope="module")
def t(module_tables, dynamodb):
    name = module_tables(
        tag="pqix",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("pk", "sk", "gpk", "gpk2", "lsk")],
        GlobalSecondaryIndexes=[
            gsi("gsi-all", "gpk", {"ProjectionType": "ALL"}),
            gsi("gsi-inc", "gpk2", {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["proj"]}),
            gsi("gsi-keys", "gpk2", {"ProjectionType": "KEYS_ONLY"}),
        ],
        LocalSecondaryIndexes=[{"IndexName": "lsi-keys",
                                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "lsk", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    for item in ITEMS:
        dynamodb.put_item(TableName=name, Item=item)
    return SimpleNamespace(name=name, q=q(name))


def sks(answer):
    return sorted(i["sk"]["S"] for i in answer["Items"])


# A filter on an unprojected attribute is refused only beside a condition that fixes the
# index's partition key (= or IN, at the top level); GSI and LSI alike.
@dev("accepts the filter, reading the attributes from the table's items")
@pytest.mark.parametrize("index,where", [
    ("gsi-inc", "gpk2 = 'y' AND np = 'n1'"),
    ("lsi-keys", "pk = 'p' AND np = 'n1'"),
    ("gsi-inc", "gpk2 = 'y' AND np IS MISSING"),
    ("gsi-inc", "gpk2 = 'y' AND NOT np = 'n1'"),
    ("gsi-inc", "gpk2 = 'y' AND begins_with(np, 'n')"),
    ("gsi-inc", "gpk2 IN ['y', 'z'] AND np = 'n1'"),
    ("lsi-keys", "pk = 'p' AND lsk BETWEEN 'k1' AND 'k4' AND np = 'n1'"),
], ids=["gsi", "lsi", "is-missing", "not", "begins-with", "in", "between"])
def test_keyed_read_refuses_unprojected_filter(dynamodb, t, index, where):
    expect_error(lambda: run(dynamodb, 'SELECT pk FROM %s."%s" WHERE %s' % (t.q, index, where)), VE,
                 NOT_PROJECTED % index)


# Without such a condition the read is a scan of the index, whose entries lack the attribute:
# the filter matches what it matches there.
LOCAL_TABLE_FILTER = dev("filters on the table's items, which hold the attribute")


@pytest.mark.parametrize("index,where,expected", [
    pytest.param("gsi-inc", "np = 'n1'", [], marks=LOCAL_TABLE_FILTER),
    pytest.param("lsi-keys", "np = 'n1'", [], marks=LOCAL_TABLE_FILTER),
    ("gsi-inc", "np = 'n1' AND np = 'n2'", []),
    pytest.param("gsi-keys", "NOT np = 'n1'", ["s1", "s2", "s4", "s5"], marks=LOCAL_TABLE_FILTER),
    pytest.param("gsi-inc", "(gpk2 = 'y' AND np = 'n1') OR (gpk2 = 'y2')", ["s5"], marks=LOCAL_TABLE_FILTER),
], ids=["gsi", "lsi", "two-filters", "negated-absent", "or-branch"])
def test_unkeyed_read_filters_on_the_index_entries(dynamodb, t, index, where, expected):
    got = run(dynamodb, 'SELECT pk, sk FROM %s."%s" WHERE %s' % (t.q, index, where))
    assert sks(got) == expected


def test_keyed_read_on_a_projected_attribute(dynamodb, t):
    got = run(dynamodb, "SELECT pk, sk FROM %s.\"gsi-inc\" WHERE gpk2 = 'y' AND proj = 'a1'" % t.q)
    assert sks(got) == ["s1"]


def first_page(dynamodb, statement, **kw):
    got = run(dynamodb, statement, Limit=1, **kw)
    assert got.get("NextToken"), got
    return got


def test_token_continues_its_own_read(dynamodb, t):
    statement = "SELECT pk, sk FROM %s.\"gsi-all\" WHERE gpk = 'x'" % t.q
    first = first_page(dynamodb, statement)
    second = run(dynamodb, statement, NextToken=first["NextToken"])
    assert sorted(sks(first) + sks(second)) == ["s1", "s4"]


# A token is good only for the statement and parameters it was given for.
@dev("continues from the token's key whatever the statement")
@pytest.mark.parametrize("minted,replayed", [
    ("SELECT pk, sk FROM {t}.\"gsi-inc\" WHERE gpk2 = 'y'", "SELECT pk, sk FROM {t}.\"gsi-keys\" WHERE gpk2 = 'y'"),
    ("SELECT pk, sk FROM {t} WHERE pk = 'p'", "SELECT pk, sk FROM {t} WHERE pk = 'p' AND sk > 's0'"),
    ("SELECT * FROM {t}", "SELECT pk FROM {t}"),
], ids=["other-index", "other-where", "other-select-list"])
def test_token_from_another_statement(dynamodb, t, minted, replayed):
    token = first_page(dynamodb, minted.format(t=t.q))["NextToken"]
    expect_error(lambda: run(dynamodb, replayed.format(t=t.q), NextToken=token), VE, MISMATCH)


@dev("continues from the token's key whatever the parameters")
def test_token_with_other_parameters(dynamodb, t):
    statement = "SELECT pk, sk FROM %s WHERE pk = ?" % t.q
    token = first_page(dynamodb, statement, Parameters=[S("p")])["NextToken"]
    expect_error(lambda: run(dynamodb, statement, Parameters=[S("q")], NextToken=token), VE, MISMATCH)


@pytest.mark.parametrize("token", [
    base64.b64encode(b"not a token").decode(),
    pytest.param("%%%", marks=dev("500 InternalFailure")),
], ids=["foreign", "not-base64"])
def test_token_not_issued(dynamodb, t, token):
    expect_error(lambda: run(dynamodb, "SELECT * FROM %s" % t.q, NextToken=token), VE, "Invalid NextToken")
