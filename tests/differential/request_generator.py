"""Random requests for the differential test: small pools of names and values, so that requests
meet each other (conditions meet the items they name, update expressions meet attributes of every
type) and many are refused."""
import base64
import decimal

# Attribute names besides the key attributes: few, so that requests meet each other.
PLAIN_NAMES = ["a", "b", "s", "l", "m", "ss", "ns"]


def key_order(value):
    """Where a key value sorts among others of its type: numbers by value, strings by their UTF-8
    bytes, binaries by their bytes."""
    kind, text = next(iter(value.items()))
    if kind == "N":
        return decimal.Decimal(text)
    return text.encode() if kind == "S" else text


class Values:
    """Random attribute values from small pools, so that requests meet each other."""

    def __init__(self, rng):
        self.rng = rng

    def string(self):
        return self.rng.choice(["", "a", "ab", "abc", "b", "B", "é", "zz", "10", "2", "a b"])

    def number(self):
        return self.rng.choice(["0", "1", "-1", "1.50", "2.5", "1e2", "0.001", "-0.0", "10", "99999999999",
                                "12345678901234567890123456789012345678", "1E-130", "3", "7"])

    def binary(self):
        return base64.b64decode(self.rng.choice(["", "AA==", "AAE=", "/w==", "YWJj"]))

    def scalar(self):
        kind = self.rng.choice("SNB")
        if kind == "S":
            return {"S": self.string()}
        if kind == "N":
            return {"N": self.number()}
        return {"B": self.binary()}

    def value(self, depth=0):
        kind = self.rng.choice(["S", "S", "N", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"])
        if kind in ("L", "M") and depth >= 2:
            kind = "S"
        if kind == "S":
            return {"S": self.string()}
        if kind == "N":
            return {"N": self.number()}
        if kind == "B":
            return {"B": self.binary()}
        if kind == "BOOL":
            return {"BOOL": self.rng.random() < 0.5}
        if kind == "NULL":
            return {"NULL": True}
        if kind == "SS":
            return {"SS": self.rng.sample(["a", "b", "c", "", "zz"], self.rng.randint(1, 3))}
        if kind == "NS":
            return {"NS": self.rng.sample(["1", "2", "-3", "0.5", "1e2"], self.rng.randint(1, 3))}
        if kind == "BS":
            return {"BS": [base64.b64decode(x) for x in self.rng.sample(["AA==", "AAE=", "/w=="], self.rng.randint(1, 2))]}
        if kind == "L":
            return {"L": [self.value(depth + 1) for _ in range(self.rng.randint(0, 3))]}
        return {"M": {self.rng.choice(PLAIN_NAMES): self.value(depth + 1) for _ in range(self.rng.randint(0, 3))}}


class Requests:
    """Random requests of each operation."""

    def __init__(self, rng, shape):
        self.rng = rng
        self.shape = shape
        self.table = shape.table
        self.values = Values(rng)
        # The index key attributes are named in paths too: conditions and updates meet them.
        self.names = PLAIN_NAMES + [name for name in shape.key_attributes() if name not in shape.key]

    def pick(self, name):
        return self.rng.choice(self.shape.pools[name])

    def key(self):
        return {name: self.pick(name) for name in self.shape.key}

    def item(self):
        item = self.key()
        for name in self.rng.sample(self.names, self.rng.randint(0, 6)):
            item[name] = self.pick(name) if name in self.shape.pools else self.values.value()
        return item

    def path(self, names):
        """An attribute path with its #name placeholders."""
        name = self.rng.choice(self.names)
        placeholder = "#" + name
        names[placeholder] = name
        roll = self.rng.random()
        if roll < 0.15:
            return placeholder + "[%d]" % self.rng.randint(0, 2)
        if roll < 0.3:
            inner = self.rng.choice(self.names)
            names["#" + inner] = inner
            return placeholder + ".#" + inner
        return placeholder

    def operand_value(self, values):
        placeholder = ":v%d" % len(values)
        values[placeholder] = self.values.value()
        return placeholder

    def condition(self, names, values, depth=0):
        roll = self.rng.random()
        if depth < 2 and roll < 0.15:
            op = self.rng.choice(["AND", "OR"])
            return "(%s) %s (%s)" % (self.condition(names, values, depth + 1), op,
                                     self.condition(names, values, depth + 1))
        if depth < 2 and roll < 0.2:
            return "NOT (%s)" % self.condition(names, values, depth + 1)
        path = self.path(names)
        kind = self.rng.choice(["exists", "not_exists", "compare", "compare", "between", "in", "begins_with",
                                "contains", "size", "type"])
        if kind == "exists":
            return "attribute_exists(%s)" % path
        if kind == "not_exists":
            return "attribute_not_exists(%s)" % path
        if kind == "compare":
            return "%s %s %s" % (path, self.rng.choice(["=", "<>", "<", "<=", ">", ">="]), self.operand_value(values))
        if kind == "between":
            return "%s BETWEEN %s AND %s" % (path, self.operand_value(values), self.operand_value(values))
        if kind == "in":
            return "%s IN (%s, %s)" % (path, self.operand_value(values), self.operand_value(values))
        if kind == "begins_with":
            return "begins_with(%s, %s)" % (path, self.operand_value(values))
        if kind == "contains":
            return "contains(%s, %s)" % (path, self.operand_value(values))
        if kind == "size":
            placeholder = ":v%d" % len(values)
            values[placeholder] = {"N": str(self.rng.randint(0, 3))}
            return "size(%s) %s %s" % (path, self.rng.choice(["=", "<", ">="]), placeholder)
        placeholder = ":v%d" % len(values)
        values[placeholder] = {"S": self.rng.choice(["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"])}
        return "attribute_type(%s, %s)" % (path, placeholder)

    def with_condition(self, request, key="ConditionExpression", chance=0.4):
        if self.rng.random() >= chance:
            return request
        names, values = {}, {}
        request[key] = self.condition(names, values)
        request["ExpressionAttributeNames"] = {**request.get("ExpressionAttributeNames", {}), **names}
        if values:
            request["ExpressionAttributeValues"] = {**request.get("ExpressionAttributeValues", {}), **values}
        return request

    def billing(self, request):
        request["ReturnConsumedCapacity"] = self.rng.choice(["NONE", "TOTAL", "INDEXES"])
        return request

    def put(self):
        request = {"TableName": self.table, "Item": self.item(), "ReturnValues": self.rng.choice(["NONE", "ALL_OLD"]),
                   "ReturnItemCollectionMetrics": self.rng.choice(["NONE", "SIZE"])}
        if self.rng.random() < 0.3:
            request["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        return "put_item", self.billing(self.with_condition(request))

    def update_clause(self, names, values):
        kind = self.rng.choice(["SET", "SET", "SET", "REMOVE", "ADD", "DELETE"])
        path = self.path(names)
        if kind == "SET":
            form = self.rng.choice(["value", "plus", "minus", "if_not_exists", "list_append"])
            if form == "value":
                return kind, "%s = %s" % (path, self.operand_value(values))
            if form in ("plus", "minus"):
                other = self.path(names) if self.rng.random() < 0.5 else self.operand_value(values)
                return kind, "%s = %s %s %s" % (path, path, "+" if form == "plus" else "-", other)
            if form == "if_not_exists":
                return kind, "%s = if_not_exists(%s, %s)" % (path, path, self.operand_value(values))
            placeholder = ":v%d" % len(values)
            values[placeholder] = {"L": [self.values.value(1) for _ in range(self.rng.randint(0, 2))]}
            return kind, "%s = list_append(%s, %s)" % (path, path, placeholder)
        if kind == "REMOVE":
            return kind, path
        placeholder = ":v%d" % len(values)
        values[placeholder] = self.rng.choice([
            {"N": self.values.number()}, {"SS": ["a", "q"]}, {"NS": ["1", "5"]}, self.values.value()])
        return kind, "%s %s" % (path, placeholder)

    def update(self):
        names, values, clauses = {}, {}, {}
        for _ in range(self.rng.randint(1, 3)):
            kind, text = self.update_clause(names, values)
            clauses.setdefault(kind, []).append(text)
        expression = " ".join(kind + " " + ", ".join(texts) for kind, texts in clauses.items())
        request = {"TableName": self.table, "Key": self.key(), "UpdateExpression": expression,
                   "ExpressionAttributeNames": names,
                   "ReturnValues": self.rng.choice(["NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"]),
                   "ReturnItemCollectionMetrics": self.rng.choice(["NONE", "SIZE"])}
        if values:
            request["ExpressionAttributeValues"] = values
        return "update_item", self.billing(self.with_condition(request))

    def delete(self):
        request = {"TableName": self.table, "Key": self.key(), "ReturnValues": self.rng.choice(["NONE", "ALL_OLD"])}
        return "delete_item", self.billing(self.with_condition(request, chance=0.5))

    def projection(self, request):
        if self.rng.random() < 0.4:
            names = {}
            request["ProjectionExpression"] = ", ".join(self.path(names) for _ in range(self.rng.randint(1, 3)))
            request["ExpressionAttributeNames"] = {**request.get("ExpressionAttributeNames", {}), **names}
        return request

    def get(self):
        request = {"TableName": self.table, "Key": self.key(), "ConsistentRead": self.rng.random() < 0.5}
        return "get_item", self.billing(self.projection(request))

    def query(self):
        index = self.index()
        keys = index.keys if index else self.shape.key
        values = {":pk": self.pick(keys[0])}
        condition = "%s = :pk" % keys[0]
        roll = self.rng.random()
        if len(keys) < 2:
            pass
        elif roll < 0.5:
            values[":a"] = self.pick(keys[1])
            operator = self.rng.choice(["=", "<", "<=", ">", ">="])
            condition += " AND %s %s :a" % (keys[1], operator)
        elif roll < 0.7:
            # In key order, and now and then the other way round (refused).
            bounds = sorted(self.rng.sample(self.shape.pools[keys[1]], 2), key=key_order)
            values[":a"], values[":b"] = bounds if self.rng.random() < 0.9 else bounds[::-1]
            condition += " AND %s BETWEEN :a AND :b" % keys[1]
        elif roll < 0.85 and self.shape.types[keys[1]] in "SB":
            # A prefix of a value the key takes, or the empty prefix (refused).
            whole = next(iter(self.pick(keys[1]).items()))
            values[":a"] = {whole[0]: whole[1][:self.rng.randint(0, 2)]}
            condition += " AND begins_with(%s, :a)" % keys[1]
        request = {"TableName": self.table, "KeyConditionExpression": condition, "ExpressionAttributeValues": values,
                   "ScanIndexForward": self.rng.random() < 0.5}
        self.read_target(request, index)
        return "query", self.read_output(request, filter_chance=0.3)

    def index(self):
        """The table (None) or one of its indexes."""
        return self.rng.choice([None, None] + list(self.shape.indexes))

    def read_target(self, request, index):
        """What a Query or Scan reads: the index, the consistency, how many items a page."""
        if index:
            request["IndexName"] = index.name
        if not index or not index.local and self.rng.random() < 0.05 or index.local and self.rng.random() < 0.5:
            # (A GSI refuses strongly consistent reads.)
            request["ConsistentRead"] = self.rng.random() < 0.5
        if self.rng.random() < 0.4:
            request["Limit"] = self.rng.randint(1, 4)

    def scan(self):
        request = {"TableName": self.table}
        self.read_target(request, self.index())
        if self.rng.random() < 0.1:
            # Parallel scan parameters, mostly wrong: which items a valid segment holds is the
            # server's own choice, so only segment 0 of 1 is asked for.
            total = self.rng.choice([None, 0, 1, 1, 1, 1000001])
            segment = self.rng.choice([None, -1, 0, 0, 0, 1, 2])
            if total is not None:
                request["TotalSegments"] = total
            if segment is not None:
                request["Segment"] = segment
        return "scan", self.read_output(request, filter_chance=0.7)

    SELECTS = ["ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "SPECIFIC_ATTRIBUTES", "COUNT"]

    def read_output(self, request, filter_chance):
        """What a Query or Scan returns: a Select, a projection, a filter, the capacity."""
        roll = self.rng.random()
        if roll < 0.2:
            request["Select"] = "COUNT"
        elif roll < 0.35:
            request["Select"] = self.rng.choice(self.SELECTS)
            if self.rng.random() < 0.3:
                self.projection(request)
        else:
            self.projection(request)
        self.with_condition(request, key="FilterExpression", chance=filter_chance)
        return self.billing(request)

    def batch_write(self):
        requests = [{"PutRequest": {"Item": self.item()}} if self.rng.random() < 0.7
                    else {"DeleteRequest": {"Key": self.key()}} for _ in range(self.rng.randint(1, 4))]
        request = {"RequestItems": {self.table: requests},
                   "ReturnItemCollectionMetrics": self.rng.choice(["NONE", "SIZE"])}
        return "batch_write_item", self.billing(request)

    def batch_get(self):
        keys = {"Keys": [self.key() for _ in range(self.rng.randint(1, 4))],
                "ConsistentRead": self.rng.random() < 0.5}
        return "batch_get_item", self.billing({"RequestItems": {self.table: self.projection(keys)}})

    # The members a transaction's action takes from the single-item request it is drawn from.
    ACTION_MEMBERS = ("TableName", "Key", "Item", "UpdateExpression", "ConditionExpression",
                      "ExpressionAttributeNames", "ExpressionAttributeValues", "ReturnValuesOnConditionCheckFailure")

    def transact_write(self):
        actions = []
        for _ in range(self.rng.randint(1, 3)):
            kind = self.rng.choice(["Put", "Update", "Delete", "ConditionCheck"])
            if kind == "ConditionCheck":
                _, single = self.delete()
                if "ConditionExpression" not in single:
                    single = self.with_condition(single, chance=1.0)
            else:
                _, single = getattr(self, kind.lower())()
            actions.append({kind: {k: v for k, v in single.items() if k in self.ACTION_MEMBERS}})
        request = {"TransactItems": actions, "ReturnItemCollectionMetrics": self.rng.choice(["NONE", "SIZE"])}
        return "transact_write_items", self.billing(request)

    def transact_get(self):
        gets = []
        for _ in range(self.rng.randint(1, 3)):
            _, single = self.get()
            gets.append({"Get": {k: v for k, v in single.items()
                                 if k in ("TableName", "Key", "ProjectionExpression", "ExpressionAttributeNames")}})
        return "transact_get_items", self.billing({"TransactItems": gets})

    # ---- the legacy parameters (Expected, AttributeUpdates, AttributesToGet, KeyConditions,
    # QueryFilter, ScanFilter), with arguments of every count and type

    LEGACY_OPERATORS = ["EQ", "NE", "LE", "LT", "GE", "GT", "NOT_NULL", "NULL", "CONTAINS", "NOT_CONTAINS",
                        "BEGINS_WITH", "IN", "BETWEEN"]

    def legacy_conditions(self, exists_allowed):
        conditions = {}
        for _ in range(self.rng.randint(1, 2)):
            name = self.rng.choice(self.names)
            roll = self.rng.random()
            if exists_allowed and roll < 0.2:
                conditions[name] = {"Exists": False}
            elif exists_allowed and roll < 0.35:
                conditions[name] = {"Value": self.values.value()}
            else:
                operator = self.rng.choice(self.LEGACY_OPERATORS)
                count = {"NOT_NULL": 0, "NULL": 0, "BETWEEN": 2, "IN": self.rng.randint(1, 2)}.get(operator, 1)
                if self.rng.random() < 0.1:
                    count += 1  # a wrong count now and then
                conditions[name] = {"ComparisonOperator": operator,
                                    "AttributeValueList": [self.values.scalar() for _ in range(count)]}
        return conditions

    def with_legacy_conditions(self, request, key, exists_allowed=True):
        request[key] = self.legacy_conditions(exists_allowed)
        if len(request[key]) > 1 or self.rng.random() < 0.1:
            request["ConditionalOperator"] = self.rng.choice(["AND", "OR"])
        return request

    def legacy_put(self):
        request = {"TableName": self.table, "Item": self.item(), "ReturnValues": self.rng.choice(["NONE", "ALL_OLD"])}
        return "put_item", self.billing(self.with_legacy_conditions(request, "Expected"))

    def legacy_update(self):
        updates = {}
        for name in self.rng.sample(self.names, self.rng.randint(1, 3)):
            action = self.rng.choice(["PUT", "PUT", "ADD", "DELETE"])
            update = {"Action": action}
            if action != "DELETE" or self.rng.random() < 0.5:
                update["Value"] = self.rng.choice([self.values.value(), {"N": self.values.number()},
                                                   {"SS": ["a", "q"]}])
            updates[name] = update
        request = {"TableName": self.table, "Key": self.key(), "AttributeUpdates": updates,
                   "ReturnValues": self.rng.choice(["NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"])}
        if self.rng.random() < 0.3:
            self.with_legacy_conditions(request, "Expected")
        return "update_item", self.billing(request)

    def legacy_read(self):
        operation = self.rng.choice(["get_item", "query", "scan"])
        request = {"TableName": self.table}
        if self.rng.random() < 0.5:
            request["AttributesToGet"] = self.rng.sample(self.names + list(self.shape.key), self.rng.randint(1, 3))
        if operation == "get_item":
            request["Key"] = self.key()
        elif operation == "query":
            hash_name = self.shape.key[0]
            conditions = {hash_name: {"ComparisonOperator": "EQ", "AttributeValueList": [self.pick(hash_name)]}}
            if len(self.shape.key) > 1 and self.rng.random() < 0.5:
                sort_name = self.shape.key[1]
                operator = self.rng.choice(["EQ", "LE", "LT", "GE", "GT", "BETWEEN", "BEGINS_WITH"])
                count = 2 if operator == "BETWEEN" else 1
                values = sorted((self.pick(sort_name) for _ in range(count)), key=key_order)
                conditions[sort_name] = {"ComparisonOperator": operator, "AttributeValueList": values}
            request["KeyConditions"] = conditions
            if self.rng.random() < 0.4:
                self.with_legacy_conditions(request, "QueryFilter", exists_allowed=False)
        elif self.rng.random() < 0.6:
            self.with_legacy_conditions(request, "ScanFilter", exists_allowed=False)
        return operation, self.billing(request)

    def next(self):
        kind = self.rng.choices(["put", "update", "delete", "get", "query", "scan", "batch_write", "batch_get",
                                 "transact_write", "transact_get", "legacy_put", "legacy_update", "legacy_read"],
                                [30, 30, 8, 12, 15, 5, 6, 4, 6, 3, 4, 5, 5])[0]
        return getattr(self, kind)()
