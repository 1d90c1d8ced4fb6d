"""Random table-control requests for the differential test (--workload control): CreateTable,
UpdateTable, DescribeTable, DeleteTable, ListTables, UpdateTimeToLive/DescribeTimeToLive,
TagResource/UntagResource/ListTagsOfResource, DescribeContinuousBackups/UpdateContinuousBackups,
DescribeLimits and DescribeEndpoints, valid and invalid, with table, index and attribute names
from small pools, so that requests collide (a table created twice, a missing one deleted, an
index created on a table that has it).

A table's ARN is written with ARN_PREFIX, which the tool replaces with each server's own."""

# What stands for a server's "arn:aws:dynamodb:<region>:<account>:" in a request and in answers.
ARN_PREFIX = "arn:aws:dynamodb:REGION:ACCOUNT:"

TABLES = ["ctl-a", "ctl-b", "ctl.c", "ctl_d"]
BAD_TABLES = ["ab", "a" * 256, "bad name!", "", "ctl-a/x"]
HASH_NAMES = ["pk", "id"]
RANGE_NAMES = ["sk", "ts"]
INDEX_KEYS = ["g1", "g2", "l1"]
INDEX_NAMES = ["gsi1", "gsi2", "lsi1", "idx"]
NON_KEY = ["a", "b", "c"]
TYPES = ["S", "N", "B"]
VIEW_TYPES = ["NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"]
CLASSES = ["STANDARD", "STANDARD_INFREQUENT_ACCESS"]
TAG_KEYS = ["k1", "k2", "env", "Owner"]


def element(name, key_type):
    return {"AttributeName": name, "KeyType": key_type}


class ControlRequests:
    """Seeded random control-plane requests; next() returns (operation, request)."""

    def __init__(self, rng):
        self.rng = rng

    def chance(self, p):
        return self.rng.random() < p

    # ------------------------------------------------------------ pieces

    def table_name(self, bad=0.04):
        return self.rng.choice(BAD_TABLES) if self.chance(bad) else self.rng.choice(TABLES)

    def arn(self):
        table = self.rng.choice(TABLES)
        return self.rng.choice([
            ARN_PREFIX + "table/" + table,
            ARN_PREFIX + "table/" + table,
            ARN_PREFIX + "table/" + table + "/index/gsi1",
            "arn:aws:dynamodb:eu-west-1:123456789012:table/" + table,
            "not-an-arn",
            ARN_PREFIX + "table/ctl-missing",
        ])

    def throughput(self, bad=0.15):
        units = [1, 2, 5, 10]
        spec = {"ReadCapacityUnits": self.rng.choice(units), "WriteCapacityUnits": self.rng.choice(units)}
        if self.chance(bad):
            broken = self.rng.choice(["ReadCapacityUnits", "WriteCapacityUnits"])
            # (Not above the 40,000-unit table quota: the service's LimitExceededException text is
            # not established, and dynamod does not model quotas.)
            how = self.rng.choice(["zero", "negative", "missing", "huge", "both-zero"])
            if how == "missing":
                del spec[broken]
            elif how == "both-zero":
                spec = {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0}
            else:
                spec[broken] = {"zero": 0, "negative": -1, "huge": 1000000000001}[how]
        return spec

    def projection(self, bad=0.1):
        kind = self.rng.choice(["ALL", "KEYS_ONLY", "INCLUDE"])
        projection = {"ProjectionType": kind}
        if kind == "INCLUDE":
            projection["NonKeyAttributes"] = self.rng.sample(NON_KEY, self.rng.randint(1, 3))
        if self.chance(bad):
            how = self.rng.choice(["no-type", "bad-type", "nonkey-on-all", "include-without", "empty-nonkey",
                                   "duplicate-nonkey", "many-nonkey", "key-in-nonkey"])
            if how == "no-type":
                projection.pop("ProjectionType")
            elif how == "bad-type":
                projection["ProjectionType"] = self.rng.choice(["SOME", "all"])
            elif how == "nonkey-on-all":
                projection = {"ProjectionType": self.rng.choice(["ALL", "KEYS_ONLY"]), "NonKeyAttributes": ["a"]}
            elif how == "include-without":
                projection = {"ProjectionType": "INCLUDE"}
            elif how == "empty-nonkey":
                projection = {"ProjectionType": "INCLUDE", "NonKeyAttributes": []}
            elif how == "duplicate-nonkey":
                projection = {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "a"]}
            elif how == "many-nonkey":
                projection = {"ProjectionType": "INCLUDE",
                              "NonKeyAttributes": ["n%03d" % i for i in range(self.rng.choice([20, 21, 100, 101]))]}
            else:
                projection = {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", self.rng.choice(HASH_NAMES + INDEX_KEYS)]}
        return projection

    def stream(self, bad=0.2):
        if self.chance(bad):
            return self.rng.choice([{"StreamEnabled": False, "StreamViewType": "NEW_IMAGE"}, {"StreamEnabled": True},
                                    {"StreamEnabled": True, "StreamViewType": "new_image"}, {}])
        if self.chance(0.3):
            return {"StreamEnabled": False}
        return {"StreamEnabled": True, "StreamViewType": self.rng.choice(VIEW_TYPES)}

    def sse(self):
        return self.rng.choice([{"Enabled": True}, {"Enabled": False}, {"Enabled": True, "SSEType": "KMS"},
                                {"Enabled": True, "SSEType": "AES256"}, {"SSEType": "KMS"}, {},
                                {"Enabled": False, "SSEType": "KMS", "KMSMasterKeyId": "alias/aws/dynamodb"}])

    def tags(self, bad=0.15):
        tags = [{"Key": key, "Value": self.rng.choice(["", "v", "prod"])}
                for key in self.rng.sample(TAG_KEYS, self.rng.randint(1, 3))]
        if self.chance(bad):
            how = self.rng.choice(["empty", "empty-key", "aws-prefix", "long-key", "long-value", "duplicate", "51",
                                   "no-value"])
            if how == "empty":
                tags = []
            elif how == "empty-key":
                tags[0]["Key"] = ""
            elif how == "aws-prefix":
                tags[0]["Key"] = "aws:x"
            elif how == "long-key":
                tags[0]["Key"] = "k" * 129
            elif how == "long-value":
                tags[0]["Value"] = "v" * 257
            elif how == "duplicate":
                tags.append(dict(tags[0], Value="other"))
            elif how == "51":
                tags = [{"Key": "t%02d" % i, "Value": "v"} for i in range(51)]
            else:
                del tags[0]["Value"]
        return tags

    # ------------------------------------------------------------ CreateTable

    def create_table(self):
        rng = self.rng
        hash_name, range_name = rng.choice(HASH_NAMES), rng.choice(RANGE_NAMES) if self.chance(0.6) else None
        types = {}

        def define(name):
            types.setdefault(name, rng.choice(TYPES))

        keys = [element(hash_name, "HASH")] + ([element(range_name, "RANGE")] if range_name else [])
        for key in keys:
            define(key["AttributeName"])
        billing = rng.choice(["PAY_PER_REQUEST", "PROVISIONED", None])
        provisioned = billing != "PAY_PER_REQUEST"
        request = {"TableName": self.table_name(), "KeySchema": keys}
        if billing:
            request["BillingMode"] = billing
        if provisioned:
            request["ProvisionedThroughput"] = self.throughput()
        gsis = []
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            index_keys = [element(rng.choice(INDEX_KEYS[:2] + [hash_name] + ([range_name] if range_name else [])), "HASH")]
            if self.chance(0.5):
                index_keys.append(element(rng.choice(INDEX_KEYS + RANGE_NAMES), "RANGE"))
            for key in index_keys:
                define(key["AttributeName"])
            gsi = {"IndexName": rng.choice(INDEX_NAMES), "KeySchema": index_keys, "Projection": self.projection()}
            if provisioned:
                gsi["ProvisionedThroughput"] = self.throughput(0.05)
            gsis.append(gsi)
        lsis = []
        if range_name or self.chance(0.1):
            for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
                sort = rng.choice(["l1", "g1"])
                define(sort)
                lsis.append({"IndexName": rng.choice(INDEX_NAMES), "Projection": self.projection(),
                             "KeySchema": [element(hash_name, "HASH"), element(sort, "RANGE")]})
        if gsis:
            request["GlobalSecondaryIndexes"] = gsis
        if lsis:
            request["LocalSecondaryIndexes"] = lsis
        request["AttributeDefinitions"] = [{"AttributeName": name, "AttributeType": kind} for name, kind in types.items()]
        rng.shuffle(request["AttributeDefinitions"])
        for name, chance, make in (("StreamSpecification", 0.25, self.stream), ("SSESpecification", 0.15, self.sse),
                                   ("TableClass", 0.2, lambda: rng.choice(CLASSES)),
                                   ("Tags", 0.2, self.tags),
                                   ("DeletionProtectionEnabled", 0.25, lambda: self.chance(0.5))):
            if self.chance(chance):
                request[name] = make()
        if self.chance(0.35):
            self.break_create(request)
        return request

    def break_create(self, request):
        """One of the ways a CreateTable is refused."""
        rng = self.rng
        keys, definitions = request["KeySchema"], request["AttributeDefinitions"]
        how = rng.choice([
            "keys-empty", "keys-three", "keys-missing", "range-only", "hash-hash", "bad-key-type", "same-key-twice",
            "defs-missing", "def-dropped", "def-extra", "def-duplicate", "def-duplicate-other-type", "def-bad-type",
            "def-no-name", "gsi-empty", "lsi-empty", "index-name-short", "gsi-duplicate-name", "lsi-gsi-same-name",
            "lsi-other-hash", "lsi-no-range", "billing-bad", "ppr-with-throughput", "provisioned-without-throughput",
            "gsi-throughput-on-ppr", "gsi-without-throughput", "table-class-bad", "too-many-gsis", "too-many-lsis",
            "deletion-protection-not-boolean"])
        if how == "keys-empty":
            request["KeySchema"] = []
        elif how == "keys-three":
            keys.extend([element("x1", "RANGE")] * (3 - len(keys)))
        elif how == "keys-missing":
            del request["KeySchema"]
        elif how == "range-only":
            keys[0]["KeyType"] = "RANGE"
        elif how == "hash-hash":
            keys.append(element(rng.choice(RANGE_NAMES), "HASH"))
        elif how == "bad-key-type":
            keys[-1]["KeyType"] = rng.choice(["hash", "PRIMARY"])
        elif how == "same-key-twice":
            request["KeySchema"] = [keys[0], element(keys[0]["AttributeName"], "RANGE")]
        elif how == "defs-missing":
            del request["AttributeDefinitions"]
        elif how == "def-dropped":
            definitions.pop(rng.randrange(len(definitions)))
        elif how == "def-extra":
            definitions.append({"AttributeName": "extra", "AttributeType": rng.choice(TYPES)})
        elif how == "def-duplicate":
            definitions.append(dict(rng.choice(definitions)))
        elif how == "def-duplicate-other-type":
            first = rng.choice(definitions)
            other = [t for t in TYPES if t != first["AttributeType"]]
            definitions.append({"AttributeName": first["AttributeName"], "AttributeType": rng.choice(other)})
        elif how == "def-bad-type":
            rng.choice(definitions)["AttributeType"] = rng.choice(["BOOL", "SS", "s", "M"])
        elif how == "def-no-name":
            rng.choice(definitions).pop("AttributeName")
        elif how == "gsi-empty":
            request["GlobalSecondaryIndexes"] = []
        elif how == "lsi-empty":
            request["LocalSecondaryIndexes"] = []
        elif how == "index-name-short":
            family = "GlobalSecondaryIndexes" if request.get("GlobalSecondaryIndexes") else "LocalSecondaryIndexes"
            if request.get(family):
                request[family][0]["IndexName"] = rng.choice(["ab", "bad name"])
        elif how == "gsi-duplicate-name" and request.get("GlobalSecondaryIndexes"):
            request["GlobalSecondaryIndexes"].append(dict(request["GlobalSecondaryIndexes"][0]))
        elif how == "lsi-gsi-same-name" and request.get("GlobalSecondaryIndexes") and request.get("LocalSecondaryIndexes"):
            request["LocalSecondaryIndexes"][0]["IndexName"] = request["GlobalSecondaryIndexes"][0]["IndexName"]
        elif how == "lsi-other-hash" and request.get("LocalSecondaryIndexes"):
            request["LocalSecondaryIndexes"][0]["KeySchema"][0] = element("l1", "HASH")
        elif how == "lsi-no-range" and request.get("LocalSecondaryIndexes"):
            del request["LocalSecondaryIndexes"][0]["KeySchema"][1:]
        elif how == "billing-bad":
            request["BillingMode"] = rng.choice(["pay_per_request", "ON_DEMAND"])
        elif how == "ppr-with-throughput":
            request["BillingMode"] = "PAY_PER_REQUEST"
            request["ProvisionedThroughput"] = self.throughput(0)
        elif how == "provisioned-without-throughput":
            request.pop("ProvisionedThroughput", None)
            if request.get("BillingMode") == "PAY_PER_REQUEST":
                request["BillingMode"] = "PROVISIONED"
        elif how == "gsi-throughput-on-ppr" and request.get("GlobalSecondaryIndexes"):
            request["BillingMode"] = "PAY_PER_REQUEST"
            request.pop("ProvisionedThroughput", None)
            request["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"] = self.throughput(0)
        elif how == "gsi-without-throughput" and request.get("GlobalSecondaryIndexes") and "ProvisionedThroughput" in request:
            request["GlobalSecondaryIndexes"][0].pop("ProvisionedThroughput", None)
        elif how == "table-class-bad":
            request["TableClass"] = rng.choice(["COLD", "standard"])
        elif how == "too-many-gsis":
            request["AttributeDefinitions"] = [d for d in definitions if d.get("AttributeName") != "g1"] + [
                {"AttributeName": "g1", "AttributeType": "S"}]
            gsis = [{"IndexName": "gsi%02d" % i, "KeySchema": [element("g1", "HASH")], "Projection": {"ProjectionType": "KEYS_ONLY"}}
                    for i in range(21)]
            for gsi in gsis:
                if "ProvisionedThroughput" in request:
                    gsi["ProvisionedThroughput"] = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
            request["GlobalSecondaryIndexes"] = gsis
        elif how == "too-many-lsis" and len(keys) == 2:
            request["AttributeDefinitions"] = [d for d in definitions if d.get("AttributeName") != "l1"] + [
                {"AttributeName": "l1", "AttributeType": "S"}]
            request["LocalSecondaryIndexes"] = [
                {"IndexName": "lsi%d" % i, "KeySchema": [keys[0], element("l1", "RANGE")], "Projection": {"ProjectionType": "ALL"}}
                for i in range(6)]
        elif how == "deletion-protection-not-boolean":
            request["DeletionProtectionEnabled"] = "yes"

    # ------------------------------------------------------------ UpdateTable

    def update_table(self):
        rng = self.rng
        request = {"TableName": self.table_name(0.02)}
        for name, chance, make in (
                ("ProvisionedThroughput", 0.25, self.throughput),
                ("BillingMode", 0.25, lambda: rng.choice(["PAY_PER_REQUEST", "PROVISIONED", "PROVISIONED", "ppr"])),
                ("StreamSpecification", 0.2, self.stream),
                ("TableClass", 0.12, lambda: rng.choice(CLASSES + ["COLD"])),
                ("DeletionProtectionEnabled", 0.25, lambda: self.chance(0.5)),
                ("GlobalSecondaryIndexUpdates", 0.3, self.index_updates)):
            if self.chance(chance):
                request[name] = make()
        if "GlobalSecondaryIndexUpdates" in request and any("Create" in u for u in request["GlobalSecondaryIndexUpdates"]):
            if self.chance(0.9):
                request["AttributeDefinitions"] = [{"AttributeName": name, "AttributeType": rng.choice(TYPES) if self.chance(0.1) else "S"}
                                                   for name in ["g1", "g2", "sk", "pk", "id", "ts"] if self.chance(0.6)]
        return request

    def index_updates(self):
        rng = self.rng
        updates = []
        for _ in range(rng.choice([0, 1, 1, 1, 1, 2])):
            action = rng.choice(["Create", "Create", "Update", "Delete", "Delete", "Empty"])
            name = rng.choice(INDEX_NAMES[:2] + ["gsi%02d" % rng.randrange(3)])
            if action == "Create":
                keys = [element(rng.choice(["g1", "g2", "sk"]), "HASH")]
                if self.chance(0.4):
                    keys.append(element(rng.choice(["g2", "ts", "pk", "id"]), "RANGE"))
                create = {"IndexName": name, "KeySchema": keys, "Projection": self.projection()}
                if self.chance(0.6):
                    create["ProvisionedThroughput"] = self.throughput(0.05)
                updates.append({"Create": create})
            elif action == "Update":
                updates.append({"Update": {"IndexName": name, "ProvisionedThroughput": self.throughput(0.1)}})
            elif action == "Delete":
                updates.append({"Delete": {"IndexName": name}})
            else:
                updates.append({})
        return updates

    # ------------------------------------------------------------ the rest

    def list_tables(self):
        request = {}
        if self.chance(0.6):
            request["Limit"] = self.rng.choice([1, 2, 3, 100, 0, 101])
        if self.chance(0.4):
            request["ExclusiveStartTableName"] = self.rng.choice(TABLES + ["ctl", "ctl-b0", "zzz", "ab"])
        return request

    def update_ttl(self):
        spec = {"Enabled": self.chance(0.6), "AttributeName": self.rng.choice(["ttl", "ttl", "exp", "pk", ""])}
        if self.chance(0.08):
            spec.pop(self.rng.choice(["Enabled", "AttributeName"]))
        return {"TableName": self.table_name(), "TimeToLiveSpecification": spec}

    def update_backups(self):
        spec = {"PointInTimeRecoveryEnabled": self.chance(0.7)}
        if self.chance(0.3):
            spec["RecoveryPeriodInDays"] = self.rng.choice([1, 7, 35, 0, 36])
        if self.chance(0.05):
            spec = {}
        return {"TableName": self.table_name(), "PointInTimeRecoverySpecification": spec}

    def next(self):
        rng = self.rng
        operation = rng.choices(
            ["create_table", "update_table", "describe_table", "delete_table", "list_tables",
             "update_time_to_live", "describe_time_to_live", "tag_resource", "untag_resource",
             "list_tags_of_resource", "describe_continuous_backups", "update_continuous_backups",
             "describe_limits", "describe_endpoints"],
            weights=[24, 20, 10, 10, 8, 5, 3, 4, 3, 3, 2, 2, 1, 1])[0]
        if operation == "create_table":
            return operation, self.create_table()
        if operation == "update_table":
            return operation, self.update_table()
        if operation in ("describe_table", "delete_table", "describe_time_to_live", "describe_continuous_backups"):
            return operation, {"TableName": self.table_name()}
        if operation == "list_tables":
            return operation, self.list_tables()
        if operation == "update_time_to_live":
            return operation, self.update_ttl()
        if operation == "tag_resource":
            return operation, {"ResourceArn": self.arn(), "Tags": self.tags()}
        if operation == "untag_resource":
            keys = rng.sample(TAG_KEYS, rng.randint(1, 2)) if self.chance(0.9) else []
            return operation, {"ResourceArn": self.arn(), "TagKeys": keys}
        if operation == "list_tags_of_resource":
            return operation, {"ResourceArn": self.arn()}
        if operation == "update_continuous_backups":
            return operation, self.update_backups()
        return operation, {}
