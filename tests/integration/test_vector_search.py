"""Vector indexes (CreateTable VectorIndexes, UpdateTable VectorIndexUpdates, DescribeTable)
and SearchVectors, by raw signed requests: boto3 1.43 knows neither.

Messages the developer guide quotes ("Troubleshooting vector indexes", "Creating and
searching vector indexes") are asserted exactly; dynamod's own wording for cases the guide
gives no text for is asserted by error type only.
"""
import pytest

import dynamo_helpers as h
import vector_helpers as v


@pytest.fixture
def vtable(dynamodb, dynamodb_raw):
    """Factory: vtable(indexes, definitions=()) -> the name of a new on-demand table (pk S)."""
    names = []

    def make(indexes, definitions=(), **extra):
        name = h.unique_name("vec")
        v.ok(dynamodb_raw("CreateTable", v.create_table_body(name, indexes, definitions, **extra)))
        names.append(name)
        return name

    yield make
    for name in names:
        h.drop_table(dynamodb, name)


def put(dynamodb, table, pk, emb=None, **attrs):
    item = {"pk": {"S": pk}}
    if emb is not None:
        item["emb"] = v.vector(*emb)
    item.update(attrs)
    dynamodb.put_item(TableName=table, Item=item)


def scores(answer):
    return [r["Score"] for r in answer["SearchResults"]]


def keys(answer):
    return [r["Item"]["pk"]["S"] for r in answer["SearchResults"]]


# ---------------------------------------------------------------- lifecycle


def test_create_table_describes_the_vector_index(vtable, dynamodb_raw):
    name = vtable([v.vector_index(dimensions=4, distance="EUCLIDEAN",
                                  search_schema=[("cat", "HASH"), ("brand", "INLINE_FILTER")])],
                  definitions=[("cat", "S"), ("brand", "S")])
    [index] = v.describe_vector_indexes(dynamodb_raw, name)
    table = v.ok(dynamodb_raw("DescribeTable", {"TableName": name}))["Table"]
    assert index == {
        "IndexName": "vix",
        "VectorAttribute": {"AttributeName": "emb"},
        "Dimensions": 4,
        "DistanceFunction": "EUCLIDEAN",
        "SearchSchema": [{"AttributeName": "cat", "SearchSchemaElementType": "HASH"},
                         {"AttributeName": "brand", "SearchSchemaElementType": "INLINE_FILTER"}],
        "Projection": {"ProjectionType": "ALL"},
        "IndexStatus": "ACTIVE",
        "IndexSizeBytes": 0,
        "ItemCount": 0,
        "IndexArn": table["TableArn"] + "/index/vix",
    }


def test_vector_indexes_need_an_on_demand_table(dynamodb_raw):
    body = v.create_table_body(h.unique_name("vec"), [v.vector_index()], billing="PROVISIONED")
    v.check(dynamodb_raw("CreateTable", body), "ValidationException", None)


def test_a_table_with_vector_indexes_stays_on_demand(vtable, dynamodb_raw):
    name = vtable([v.vector_index()])
    v.check(dynamodb_raw("UpdateTable", {"TableName": name, "BillingMode": "PROVISIONED",
                                         "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}),
            "ValidationException", None)
    table = v.ok(dynamodb_raw("DescribeTable", {"TableName": name}))["Table"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"


def test_at_most_five_vector_indexes(dynamodb_raw):
    indexes = [v.vector_index(name="vix%d" % i) for i in range(6)]
    v.check(dynamodb_raw("CreateTable", v.create_table_body(h.unique_name("vec"), indexes)), "ValidationException",
            "One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of 5")


def test_search_schema_attributes_need_definitions(dynamodb_raw):
    body = v.create_table_body(h.unique_name("vec"), [v.vector_index(search_schema=[("cat", "HASH")])])
    v.check(dynamodb_raw("CreateTable", body), "ValidationException",
            "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute "
            "definitions")


def test_member_constraints(dynamodb_raw):
    index = v.vector_index(dimensions=0, distance="MANHATTAN")
    del index["Projection"]
    got = dynamodb_raw("CreateTable", v.create_table_body(h.unique_name("vec"), [index]))
    code, message, _ = h.error_of(got)
    assert code == "ValidationException"
    # The bad distance function (an enum) is not reported beside them: the service reads enums
    # only once the other constraints hold (docs/service-fidelity.md).
    assert message.startswith("2 validation errors detected: ")
    assert "Value '0' at 'vectorIndexes.1.member.dimensions' failed to satisfy constraint: Member must have " \
           "value greater than or equal to 1" in message
    assert "MANHATTAN" not in message
    assert "Value null at 'vectorIndexes.1.member.projection' failed to satisfy constraint: Member must not be " \
           "null" in message


def test_dimensions_up_to_4096(dynamodb_raw, vtable):
    vtable([v.vector_index(dimensions=4096)])
    body = v.create_table_body(h.unique_name("vec"), [v.vector_index(dimensions=4097)])
    # The service's text (tier3 vectorIndexes.test.ts of nubo-db/dynamodb-conformance).
    v.check(dynamodb_raw("CreateTable", body), "ValidationException",
            "One or more parameter values were invalid: Number of dimensions must be between 1 and 4096 inclusive.")


def test_update_table_adds_an_index_with_backfill_and_deletes_it(vtable, dynamodb, dynamodb_raw):
    name = vtable([v.vector_index(name="first")])
    for i in range(5):
        put(dynamodb, name, "p%d" % i, [1, i, 0])
    put(dynamodb, name, "short", None, other={"L": [{"N": "1"}]})
    answer = v.ok(dynamodb_raw("UpdateTable", {
        "TableName": name,
        "AttributeDefinitions": [{"AttributeName": "cat", "AttributeType": "S"}],
        "VectorIndexUpdates": [{"Create": v.vector_index(name="second", attribute="emb", distance="EUCLIDEAN",
                                                         search_schema=[("cat", "INLINE_FILTER")])}]}))
    created = [i for i in answer["TableDescription"]["VectorIndexes"] if i["IndexName"] == "second"][0]
    assert created["IndexStatus"] == "CREATING"
    index = v.wait_vector_index_active(dynamodb_raw, name, "second")
    assert "Backfilling" not in index
    assert index["ItemCount"] == 5
    found = v.ok(v.search(dynamodb_raw, name, [1, 2, 0], top_k=2, index="second"))
    assert keys(found) == ["p2", "p1"] or keys(found) == ["p2", "p3"]
    assert scores(found)[0] == 0.0
    # One index operation per request.
    v.check(dynamodb_raw("UpdateTable", {"TableName": name, "VectorIndexUpdates": [
        {"Delete": {"IndexName": "first"}}, {"Delete": {"IndexName": "second"}}]}), "LimitExceededException",
        "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")
    v.ok(dynamodb_raw("UpdateTable", {"TableName": name, "VectorIndexUpdates": [{"Delete": {"IndexName": "second"}}]}))
    v.wait_vector_index_gone(dynamodb_raw, name, "second")
    v.check(v.search(dynamodb_raw, name, [1, 2, 0], index="second"), "ValidationException",
            "The table does not have the specified index: second")
    # The definition only the dropped index used goes with it.
    table = v.ok(dynamodb_raw("DescribeTable", {"TableName": name}))["Table"]
    assert [d["AttributeName"] for d in table["AttributeDefinitions"]] == ["pk"]


def test_searching_a_backfilling_index_is_refused(vtable, dynamodb, dynamodb_raw):
    name = vtable([v.vector_index(name="first")])
    for batch in range(200):  # enough items that the backfill takes several writer jobs
        dynamodb.batch_write_item(RequestItems={name: [
            {"PutRequest": {"Item": {"pk": {"S": "b%03d-%02d" % (batch, i)}, "emb": v.vector(1, i, 2)}}}
            for i in range(25)]})
    v.ok(dynamodb_raw("UpdateTable", {"TableName": name, "VectorIndexUpdates": [
        {"Create": v.vector_index(name="second")}]}))
    got = v.search(dynamodb_raw, name, [1, 2, 3], index="second")
    if got.status != 200:  # unless the backfill already finished
        # Not there until the backfill starts, then backfilling (updateLifecycle.test.ts of
        # nubo-db/dynamodb-conformance; tests/unit/protocol/vector_index_phases_test.cpp).
        v.check(got, "ValidationException", ["Cannot search backfilling vector index: second",
                                             "The table does not have the specified index: second"])
    index = v.wait_vector_index_active(dynamodb_raw, name, "second")
    assert index["ItemCount"] == 5000


# ---------------------------------------------------------------- writes


def test_writes_are_checked_against_the_index(vtable, dynamodb, dynamodb_raw):
    name = vtable([v.vector_index(dimensions=3, search_schema=[("cat", "HASH")])], definitions=[("cat", "S")])
    with pytest.raises(Exception) as wrong_dimension:
        put(dynamodb, name, "a", [1, 2], cat={"S": "x"})
    assert h.error_of(wrong_dimension.value)[0] == "ValidationException"
    with pytest.raises(Exception) as not_a_list:
        dynamodb.put_item(TableName=name, Item={"pk": {"S": "a"}, "emb": {"S": "1,2,3"}})
    assert h.error_of(not_a_list.value)[0] == "ValidationException"
    with pytest.raises(Exception) as not_numbers:
        dynamodb.put_item(TableName=name, Item={"pk": {"S": "a"}, "emb": {"L": [{"N": "1"}, {"S": "2"}, {"N": "3"}]}})
    assert h.error_of(not_numbers.value)[0] == "ValidationException"
    with pytest.raises(Exception) as too_large:
        put(dynamodb, name, "a", [1, 2, "1e39"], cat={"S": "x"})
    assert h.error_of(too_large.value)[0] == "ValidationException"
    # The search schema's HASH is an index key: its type is checked (the GSI message).
    h.expect_error(lambda: put(dynamodb, name, "a", [1, 2, 3], cat={"N": "1"}), "ValidationException",
                   "One or more parameter values were invalid: Type mismatch for Index Key cat Expected: S "
                   "Actual: N IndexName: vix")
    # An UpdateItem that leaves a bad vector is refused too.
    put(dynamodb, name, "u", [1, 2, 3], cat={"S": "x"})
    with pytest.raises(Exception) as update:
        dynamodb.update_item(TableName=name, Key={"pk": {"S": "u"}}, UpdateExpression="REMOVE emb[0]")
    assert h.error_of(update.value)[0] == "ValidationException"
    # No vector, or no HASH value: written, but not in the index.
    put(dynamodb, name, "novec", None, cat={"S": "x"})
    put(dynamodb, name, "nohash", [1, 2, 3])
    [index] = v.describe_vector_indexes(dynamodb_raw, name)
    assert index["ItemCount"] == 1
    found = v.ok(v.search(dynamodb_raw, name, [1, 2, 3], SearchConditionExpression="cat = :c",
                          ExpressionAttributeValues={":c": {"S": "x"}}))
    assert keys(found) == ["u"]
    # Removing the vector, or deleting the item, takes it out of the index.
    dynamodb.update_item(TableName=name, Key={"pk": {"S": "u"}}, UpdateExpression="REMOVE emb")
    assert v.describe_vector_indexes(dynamodb_raw, name)[0]["ItemCount"] == 0
    put(dynamodb, name, "u", [1, 2, 3], cat={"S": "x"})
    dynamodb.delete_item(TableName=name, Key={"pk": {"S": "u"}})
    found = v.ok(v.search(dynamodb_raw, name, [1, 2, 3], SearchConditionExpression="cat = :c",
                          ExpressionAttributeValues={":c": {"S": "x"}}))
    assert found["SearchResults"] == []


def test_transactions_and_batches_keep_the_index(vtable, dynamodb, dynamodb_raw):
    name = vtable([v.vector_index(dimensions=2, distance="DOT_PRODUCT")])
    dynamodb.batch_write_item(RequestItems={name: [
        {"PutRequest": {"Item": {"pk": {"S": "a"}, "emb": v.vector(1, 0)}}},
        {"PutRequest": {"Item": {"pk": {"S": "b"}, "emb": v.vector(0, 1)}}}]})
    dynamodb.transact_write_items(TransactItems=[
        {"Put": {"TableName": name, "Item": {"pk": {"S": "c"}, "emb": v.vector(2, 2)}}},
        {"Delete": {"TableName": name, "Key": {"pk": {"S": "a"}}}}])
    found = v.ok(v.search(dynamodb_raw, name, [1, 1]))
    assert keys(found) == ["c", "b"]
    assert scores(found) == [4.0, 1.0]


# ---------------------------------------------------------------- scores and order

QUERY = [0.5, -1.25, 2.0]
STORED = {"a": [1, 0, 0], "b": [0.25, -1.5, 1.75], "c": [-3, 1, 0.5], "d": [0.1, 0.2, 0.3]}


@pytest.mark.parametrize("distance,score,descending", [
    ("COSINE", v.cosine_score, False),
    ("EUCLIDEAN", v.euclidean_score, False),
    ("DOT_PRODUCT", v.dot_score, True),
])
def test_each_distance_against_hand_computed_scores(vtable, dynamodb, dynamodb_raw, distance, score, descending):
    name = vtable([v.vector_index(distance=distance)])
    for pk, emb in STORED.items():
        put(dynamodb, name, pk, emb)
    found = v.ok(v.search(dynamodb_raw, name, QUERY, top_k=4))
    expected = sorted(STORED, key=lambda pk: score(QUERY, STORED[pk]), reverse=descending)
    assert keys(found) == expected
    for pk, got in zip(keys(found), scores(found)):
        assert got == pytest.approx(score(QUERY, STORED[pk]), rel=1e-5, abs=1e-6)


def test_cosine_scores_span_zero_to_two(vtable, dynamodb, dynamodb_raw):
    name = vtable([v.vector_index(dimensions=2)])
    put(dynamodb, name, "same", [2, 0])
    put(dynamodb, name, "opposite", [-1, 0])
    put(dynamodb, name, "orthogonal", [0, 5])
    found = v.ok(v.search(dynamodb_raw, name, [1, 0]))
    assert keys(found) == ["same", "orthogonal", "opposite"]
    assert scores(found) == pytest.approx([0.0, 1.0, 2.0])


def test_top_k_keeps_the_best_and_ties_are_stable(vtable, dynamodb, dynamodb_raw):
    name = vtable([v.vector_index(dimensions=2, distance="EUCLIDEAN")])
    for i in range(30):
        put(dynamodb, name, "p%02d" % i, [i % 10, 0])  # three items at each distance
    found = v.ok(v.search(dynamodb_raw, name, [0, 0], top_k=5))
    assert scores(found) == [0.0, 0.0, 0.0, 1.0, 1.0]
    assert set(keys(found)[:3]) == {"p00", "p10", "p20"}
    assert set(keys(found)[3:]) <= {"p01", "p11", "p21"}
    again = v.ok(v.search(dynamodb_raw, name, [0, 0], top_k=5))
    assert keys(again) == keys(found)
    everything = v.ok(v.search(dynamodb_raw, name, [0, 0], top_k=100))
    assert len(everything["SearchResults"]) == 30
    assert scores(everything) == sorted(scores(everything))


# The request model bounds TopK below; the service's own check bounds it above and names the value
# (validation.test.ts and tier3 searchVectors.test.ts of nubo-db/dynamodb-conformance).
@pytest.mark.parametrize("top_k,message", [
    (0, "1 validation error detected: Value '0' at 'topK' failed to satisfy constraint: Member must have value "
        "greater than or equal to 1"),
    (-1, "1 validation error detected: Value '-1' at 'topK' failed to satisfy constraint: Member must have value "
         "greater than or equal to 1"),
    (101, "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive"),
])
def test_top_k_range(vtable, dynamodb_raw, top_k, message):
    name = vtable([v.vector_index()])
    v.check(v.search(dynamodb_raw, name, [1, 2, 3], top_k=top_k), "ValidationException", message)


def test_request_errors(vtable, dynamodb_raw):
    name = vtable([v.vector_index()], definitions=[("g", "S")],
                  GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                           "Projection": {"ProjectionType": "ALL"}}])
    v.check(dynamodb_raw("SearchVectors", {"TableName": name, "IndexName": "vix", "TopK": 1}), "ValidationException",
            "1 validation error detected: Value null at 'searchVector' failed to satisfy constraint: Member must not "
            "be null")
    v.check(v.search(dynamodb_raw, "no_such_table_here", [1, 2, 3]), "ResourceNotFoundException",
            "Requested resource not found")
    v.check(v.search(dynamodb_raw, name, [1, 2, 3], index="gsi"), "ValidationException",
            "The table does not have the specified index: gsi")
    v.check(v.search(dynamodb_raw, name, [1, 2, 3], index="nothere"), "ValidationException",
            "The table does not have the specified index: nothere")
    v.check(v.search(dynamodb_raw, name, [1, 2]), "ValidationException",
            "Input search vector dimension 2 does not match vector index dimension 3")


def test_query_scan_and_partiql_do_not_read_a_vector_index(vtable, dynamodb_raw):
    name = vtable([v.vector_index()])
    v.check(dynamodb_raw("Scan", {"TableName": name, "IndexName": "vix"}), "ValidationException",
            "The table does not have the specified index: vix")
    v.check(dynamodb_raw("Query", {"TableName": name, "IndexName": "vix", "KeyConditionExpression": "pk = :p",
                                   "ExpressionAttributeValues": {":p": {"S": "a"}}}), "ValidationException",
            "The table does not have the specified index: vix")
    # The service's answer (tier2 vectorSearch/partiql.test.ts of nubo-db/dynamodb-conformance).
    v.check(dynamodb_raw("ExecuteStatement", {"Statement": 'SELECT * FROM "%s"."vix"' % name}), "ValidationException",
            "Scan operation not supported on this index type")


# ---------------------------------------------------------------- filters


@pytest.fixture
def catalogue(vtable, dynamodb):
    name = vtable([v.vector_index(dimensions=2, distance="EUCLIDEAN",
                                  search_schema=[("cat", "HASH"), ("brand", "INLINE_FILTER")])],
                  definitions=[("cat", "S"), ("brand", "S")])
    rows = [("a1", "shoes", "acme", [0, 0]), ("a2", "shoes", "zeta", [0, 1]), ("a3", "shoes", None, [0, 2]),
            ("b1", "hats", "acme", [0, 0.5])]
    for pk, cat, brand, emb in rows:
        attrs = {"cat": {"S": cat}, "title": {"S": "t-" + pk}}
        if brand:
            attrs["brand"] = {"S": brand}
        put(dynamodb, name, pk, emb, **attrs)
    return name


def test_the_hash_condition_is_required(catalogue, dynamodb_raw):
    v.check(v.search(dynamodb_raw, catalogue, [0, 0]), "ValidationException",
            "SearchConditionExpression must be provided when SearchSchema has a HASH key")
    v.check(v.search(dynamodb_raw, catalogue, [0, 0], SearchConditionExpression="brand = :b",
                     ExpressionAttributeValues={":b": {"S": "acme"}}), "ValidationException",
            "SearchConditionExpression must be provided when SearchSchema has a HASH key")


def test_hash_and_inline_filter(catalogue, dynamodb_raw):
    shoes = v.ok(v.search(dynamodb_raw, catalogue, [0, 0], SearchConditionExpression="#c = :c",
                          ExpressionAttributeNames={"#c": "cat"}, ExpressionAttributeValues={":c": {"S": "shoes"}}))
    assert keys(shoes) == ["a1", "a2", "a3"]
    acme = v.ok(v.search(dynamodb_raw, catalogue, [0, 0], SearchConditionExpression="cat = :c AND brand = :b",
                         ExpressionAttributeValues={":c": {"S": "shoes"}, ":b": {"S": "acme"}}))
    assert keys(acme) == ["a1"]
    zeta = v.ok(v.search(dynamodb_raw, catalogue, [0, 0], top_k=1, SearchConditionExpression=":b = brand AND cat = :c",
                         ExpressionAttributeValues={":c": {"S": "shoes"}, ":b": {"S": "zeta"}}))
    assert keys(zeta) == ["a2"]


@pytest.mark.parametrize("expression", ["cat <> :c", "cat = :c OR cat = :c", "begins_with(cat, :c)",
                                        "cat IN (:c)", "NOT cat = :c", "cat = :c AND brand > :c"])
def test_only_equality_is_supported(catalogue, dynamodb_raw, expression):
    v.check(v.search(dynamodb_raw, catalogue, [0, 0], SearchConditionExpression=expression,
                     ExpressionAttributeValues={":c": {"S": "shoes"}}), "ValidationException",
            "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression")


def test_attributes_outside_the_search_schema_are_refused(catalogue, dynamodb_raw):
    v.check(v.search(dynamodb_raw, catalogue, [0, 0], SearchConditionExpression="cat = :c AND title = :t",
                     ExpressionAttributeValues={":c": {"S": "shoes"}, ":t": {"S": "t-a1"}}),
            "ValidationException",
            "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid "
            "attribute: title")


def test_unused_placeholders_are_refused(catalogue, dynamodb_raw):
    v.check(v.search(dynamodb_raw, catalogue, [0, 0], SearchConditionExpression="cat = :c",
                     ExpressionAttributeValues={":c": {"S": "shoes"}, ":x": {"S": "y"}}), "ValidationException",
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}")


# ---------------------------------------------------------------- projections


def test_results_leave_out_the_vector_unless_asked(catalogue, dynamodb_raw):
    found = v.ok(v.search(dynamodb_raw, catalogue, [0, 0], top_k=1, SearchConditionExpression="cat = :c",
                          ExpressionAttributeValues={":c": {"S": "shoes"}}))
    assert found["SearchResults"][0]["Item"] == {"pk": {"S": "a1"}, "cat": {"S": "shoes"}, "brand": {"S": "acme"},
                                                 "title": {"S": "t-a1"}}
    projected = v.ok(v.search(dynamodb_raw, catalogue, [0, 0], top_k=1, SearchConditionExpression="cat = :c",
                              ExpressionAttributeValues={":c": {"S": "shoes"}}, ProjectionExpression="title, emb"))
    assert projected["SearchResults"][0]["Item"] == {"title": {"S": "t-a1"}, "emb": v.vector(0, 0)}


def test_index_projection_limits_what_comes_back(vtable, dynamodb, dynamodb_raw):
    name = vtable([v.vector_index(name="keys", projection={"ProjectionType": "KEYS_ONLY"}),
                   v.vector_index(name="some", projection={"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a"]})])
    put(dynamodb, name, "x", [1, 2, 3], a={"S": "A"}, b={"S": "B"})
    assert v.ok(v.search(dynamodb_raw, name, [1, 2, 3], index="keys"))["SearchResults"][0]["Item"] == \
        {"pk": {"S": "x"}}
    assert v.ok(v.search(dynamodb_raw, name, [1, 2, 3], index="some"))["SearchResults"][0]["Item"] == \
        {"pk": {"S": "x"}, "a": {"S": "A"}}
    # Only projected attributes can be returned.
    assert v.ok(v.search(dynamodb_raw, name, [1, 2, 3], index="some", ProjectionExpression="a, b"))[
        "SearchResults"][0]["Item"] == {"a": {"S": "A"}}


# ---------------------------------------------------------------- capacity


def test_search_and_write_capacity(vtable, dynamodb_raw):
    name = vtable([v.vector_index(dimensions=3, projection={"ProjectionType": "KEYS_ONLY"})])
    answer = v.ok(dynamodb_raw("PutItem", {"TableName": name, "Item": {"pk": {"S": "ab"}, "emb": v.vector(1, 2, 3)},
                                           "ReturnConsumedCapacity": "INDEXES"}))
    consumed = answer["ConsumedCapacity"]
    # The entry (KEYS_ONLY: the keys and the vector, billed "emb" + 4 x 3) is below the 1,024-byte
    # floor (test_vector_conformance.py has the formula term by term).
    assert consumed["VectorIndexes"] == {"vix": {"VectorWriteRequestBytes": 1024.0}}
    assert consumed["CapacityUnits"] == 1.0
    total = v.ok(dynamodb_raw("PutItem", {"TableName": name, "Item": {"pk": {"S": "cd"}, "emb": v.vector(1, 2, 3)},
                                          "ReturnConsumedCapacity": "TOTAL"}))
    assert "VectorIndexes" not in total["ConsumedCapacity"]
    # A write that leaves the indexed attributes as they were costs no vector bytes.
    same = v.ok(dynamodb_raw("PutItem", {"TableName": name, "Item": {"pk": {"S": "cd"}, "emb": v.vector(1, 2, 3),
                                                                     "other": {"S": "x"}},
                                         "ReturnConsumedCapacity": "INDEXES"}))
    assert "VectorIndexes" not in same["ConsumedCapacity"]
    found = v.ok(v.search(dynamodb_raw, name, [1, 2, 3], top_k=1, ReturnConsumedCapacity="TOTAL"))
    # Two vectors of 12 bytes scored, one result returned: its item {pk: "ab" or "cd"} is 4 bytes.
    assert found["ConsumedCapacity"] == {"VectorSearchRequestBytes": 2 * 12.0 + 4}
    assert "ConsumedCapacity" not in v.ok(v.search(dynamodb_raw, name, [1, 2, 3], top_k=1))


# ---------------------------------------------------------------- durability, backups


@pytest.mark.needs_own_server
def test_vectors_survive_a_restart(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    raw = lambda op, body: h.raw_request(server.endpoint, op, body)  # noqa: E731
    v.ok(raw("CreateTable", v.create_table_body("vec_restart", [v.vector_index(dimensions=2)])))
    for pk, emb in {"a": [1, 0], "b": [0, 1], "c": [1, 1]}.items():
        v.ok(raw("PutItem", {"TableName": "vec_restart", "Item": {"pk": {"S": pk}, "emb": v.vector(*emb)}}))
    before = v.ok(v.search(raw, "vec_restart", [1, 0.1]))
    server.stop()
    server = launch_dynamod(data_dir=data_dir)
    raw = lambda op, body: h.raw_request(server.endpoint, op, body)  # noqa: E731
    after = v.ok(v.search(raw, "vec_restart", [1, 0.1]))
    assert after == before
    assert keys(after) == ["a", "c", "b"]
    assert v.describe_vector_indexes(raw, "vec_restart")[0]["ItemCount"] == 3


def test_backup_and_restore_keep_the_vector_index(vtable, dynamodb, dynamodb_raw):
    name = vtable([v.vector_index(dimensions=2, search_schema=[("cat", "HASH")])], definitions=[("cat", "S")])
    put(dynamodb, name, "a", [1, 0], cat={"S": "x"})
    put(dynamodb, name, "b", [0, 1], cat={"S": "x"})
    backup = dynamodb.create_backup(TableName=name, BackupName="vec")["BackupDetails"]["BackupArn"]
    target = name + "_restored"
    dynamodb.restore_table_from_backup(TargetTableName=target, BackupArn=backup)
    try:
        h.wait_active(dynamodb, target)
        [index] = v.describe_vector_indexes(dynamodb_raw, target)
        assert index["IndexStatus"] == "ACTIVE" and index["ItemCount"] == 2
        assert index["SearchSchema"] == [{"AttributeName": "cat", "SearchSchemaElementType": "HASH"}]
        found = v.ok(v.search(dynamodb_raw, target, [1, 0], SearchConditionExpression="cat = :c",
                              ExpressionAttributeValues={":c": {"S": "x"}}))
        assert keys(found) == ["a", "b"]
    finally:
        h.drop_table(dynamodb, target)
        dynamodb.delete_backup(BackupArn=backup)


def test_delete_table_drops_the_vectors(vtable, dynamodb, dynamodb_raw):
    name = vtable([v.vector_index(dimensions=2)])
    put(dynamodb, name, "a", [1, 0])
    h.drop_table(dynamodb, name)
    h.wait_gone(dynamodb, name)
    v.ok(dynamodb_raw("CreateTable", v.create_table_body(name, [v.vector_index(dimensions=2)])))
    assert v.ok(v.search(dynamodb_raw, name, [1, 0]))["SearchResults"] == []
