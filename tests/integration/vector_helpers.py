"""Vector indexes and SearchVectors through raw signed requests (boto3 1.43 has neither)."""
import math
import time

import dynamo_helpers as h


def vector(*numbers):
    """A vector attribute: a list (L) of numbers (N)."""
    return {"L": [{"N": repr(float(x)) if isinstance(x, float) else str(x)} for x in numbers]}


def search_vector(*numbers):
    """SearchVector: a plain list of numbers, no L wrapper."""
    return vector(*numbers)["L"]


def vector_index(name="vix", attribute="emb", dimensions=3, distance="COSINE", projection=None, search_schema=None):
    index = {
        "IndexName": name,
        "VectorAttribute": {"AttributeName": attribute},
        "Dimensions": dimensions,
        "DistanceFunction": distance,
        "Projection": projection or {"ProjectionType": "ALL"},
    }
    if search_schema is not None:
        index["SearchSchema"] = [{"AttributeName": n, "SearchSchemaElementType": t} for n, t in search_schema]
    return index


def create_table_body(name, indexes, definitions=(), billing="PAY_PER_REQUEST", **extra):
    body = {
        "TableName": name,
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}] +
                                [{"AttributeName": n, "AttributeType": t} for n, t in definitions],
        "BillingMode": billing,
        "VectorIndexes": indexes,
    }
    if billing == "PROVISIONED":
        body["ProvisionedThroughput"] = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
    body.update(extra)
    return body


def ok(response):
    assert response.status == 200, response
    return response.json


def describe_vector_indexes(raw, name):
    return ok(raw("DescribeTable", {"TableName": name}))["Table"].get("VectorIndexes", [])


def wait_vector_index_active(raw, name, index, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        found = [i for i in describe_vector_indexes(raw, name) if i["IndexName"] == index]
        if found and found[0]["IndexStatus"] == "ACTIVE":
            return found[0]
        assert time.monotonic() < deadline, "vector index %s not ACTIVE" % index
        time.sleep(0.05)


def wait_vector_index_gone(raw, name, index, timeout=60):
    deadline = time.monotonic() + timeout
    while any(i["IndexName"] == index for i in describe_vector_indexes(raw, name)):
        assert time.monotonic() < deadline, "vector index %s still there" % index
        time.sleep(0.05)


def search(raw, table, query, top_k=10, index="vix", **extra):
    body = {"TableName": table, "IndexName": index, "SearchVector": search_vector(*query), "TopK": top_k}
    body.update(extra)
    return raw("SearchVectors", body)


# Hand-computed scores, in double precision over the f32 values the index keeps.
def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def cosine_score(a, b):
    a, b = [f32(x) for x in a], [f32(x) for x in b]
    dot = sum(x * y for x, y in zip(a, b))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return 1.0 - dot / (na * nb)


def euclidean_score(a, b):
    return math.sqrt(sum((f32(x) - f32(y)) ** 2 for x, y in zip(a, b)))


def dot_score(a, b):
    return sum(f32(x) * f32(y) for x, y in zip(a, b))


def check(got, code, message):
    h.check_error(got, code, message)
