"""The table shapes the differential test runs on: key schema, indexes, and the pools the key
attributes draw their values from, small so that requests collide. Each shape meets a part of
the service the others do not: number and binary keys, a table without a sort key, indexes that
project keys only or a few attributes, a GSI without a sort key, a GSI whose sort key is the
table's."""
import base64
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Index:
    name: str
    local: bool
    keys: tuple  # (hash,) or (hash, range)
    projection: dict

    def definition(self):
        schema = [{"AttributeName": self.keys[0], "KeyType": "HASH"}]
        if len(self.keys) > 1:
            schema.append({"AttributeName": self.keys[1], "KeyType": "RANGE"})
        return {"IndexName": self.name, "KeySchema": schema, "Projection": self.projection}


@dataclass(frozen=True)
class Shape:
    table: str
    key: tuple  # (hash,) or (hash, range)
    types: dict  # attribute name -> S, N or B, for every key attribute of the table and its indexes
    pools: dict  # attribute name -> the values it takes, as wire values
    indexes: tuple = field(default_factory=tuple)

    def key_attributes(self):
        """The table's and every index's key attributes, table first."""
        names = list(self.key)
        for index in self.indexes:
            names += [name for name in index.keys if name not in names]
        return names

    def index(self, name):
        return next((index for index in self.indexes if index.name == name), None)

    def create_request(self):
        request = {
            "TableName": self.table, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": name, "AttributeType": self.types[name]}
                                     for name in self.key_attributes()],
            "KeySchema": Index("", False, self.key, {}).definition()["KeySchema"]}
        for local, member in ((False, "GlobalSecondaryIndexes"), (True, "LocalSecondaryIndexes")):
            chosen = [index.definition() for index in self.indexes if index.local == local]
            if chosen:
                request[member] = chosen
        return request


def typed(kind, texts):
    if kind == "B":
        return [{"B": base64.b64decode(text)} for text in texts]
    return [{kind: text} for text in texts]


SHAPES = {
    # String partition key, number sort key, a GSI on two string keys, an LSI on a number.
    "composite": Shape(
        table="differential", key=("pk", "sk"),
        types={"pk": "S", "sk": "N", "gpk": "S", "gsk": "S", "lsk": "N"},
        pools={"pk": typed("S", ["p1", "p2", "p3"]),
               "sk": typed("N", ["-1", "0", "1", "2.5", "10", "100", "1E3"]),
               "gpk": typed("S", ["g1", "g2", "x"]), "gsk": typed("S", ["g1", "g2", "x", "g"]),
               "lsk": typed("N", ["1", "2", "3", "0"])},
        indexes=(Index("gsi", False, ("gpk", "gsk"), {"ProjectionType": "ALL"}),
                 Index("lsi", True, ("pk", "lsk"), {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "s"]}))),
    # A number partition key alone; a GSI on a binary and a number projecting keys only, and a
    # GSI without a sort key projecting one attribute.
    "hash": Shape(
        table="differential_hash", key=("pk",),
        types={"pk": "N", "gpk": "B", "gsk": "N", "gh": "S"},
        pools={"pk": typed("N", ["-5", "0", "1", "2", "3.25", "1E2", "77"]),
               "gpk": typed("B", ["AA==", "AAE=", "/w=="]), "gsk": typed("N", ["1", "-1", "2.5", "0"]),
               "gh": typed("S", ["h1", "h2"])},
        indexes=(Index("gsi", False, ("gpk", "gsk"), {"ProjectionType": "KEYS_ONLY"}),
                 Index("gsi_hash", False, ("gh",), {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a"]}))),
    # A binary partition key and a string sort key; an LSI on a string projecting keys only, and
    # a GSI on a number whose sort key is the table's.
    "binary": Shape(
        table="differential_binary", key=("pk", "sk"),
        types={"pk": "B", "sk": "S", "lsk": "S", "gpk": "N"},
        pools={"pk": typed("B", ["AA==", "AAE=", "/w==", "YWJj"]),
               "sk": typed("S", ["a", "ab", "b", "B", "é", "a b", "10", "2"]),
               "lsk": typed("S", ["x", "xy", "y", "é"]), "gpk": typed("N", ["1", "2", "-0.5"])},
        indexes=(Index("lsi", True, ("pk", "lsk"), {"ProjectionType": "KEYS_ONLY"}),
                 Index("gsi", False, ("gpk", "sk"), {"ProjectionType": "ALL"}))),
}
