"""Random PartiQL requests for the differential test: ExecuteStatement (SELECT, INSERT, UPDATE,
DELETE), BatchExecuteStatement and ExecuteTransaction against the composite table of shapes.py,
with values from request_generator.py's small pools, so that statements meet stored items, and with
bad input of every kind (syntax, parameters, tables, indexes, keys)."""
import base64

from request_generator import PLAIN_NAMES, Values
from shapes import SHAPES

SHAPE = SHAPES["composite"]
TABLE = SHAPE.table
NAMES = PLAIN_NAMES + [name for name in SHAPE.key_attributes() if name not in SHAPE.key]
PARTITIONS = [value["S"] for value in SHAPE.pools["pk"]]
SORT_KEYS = [value["N"] for value in SHAPE.pools["sk"]]

TABLE_NAME = '"%s"' % TABLE
# ClientRequestTokens from a small pool, so that a token comes back with the same or other statements.
TOKENS = ["t1", "t2", "t3"]


def literal(value):
    """An AttributeValue in PartiQL literal syntax, or None when it has none (binary)."""
    kind, inner = next(iter(value.items()))
    if kind == "S":
        return "'%s'" % inner.replace("'", "''")
    if kind == "N":
        return inner
    if kind == "BOOL":
        return "true" if inner else "false"
    if kind == "NULL":
        return "null"
    if kind in ("SS", "NS"):
        members = [literal({kind[0]: member}) for member in inner]
        return "<<%s>>" % ", ".join(members)
    if kind == "L":
        members = [literal(member) for member in inner]
        return None if None in members else "[%s]" % ", ".join(members)
    if kind == "M":
        members = {name: literal(member) for name, member in inner.items()}
        if None in members.values():
            return None
        return "{%s}" % ", ".join("'%s': %s" % (name, text) for name, text in members.items())
    return None


def unordered(statement):
    """Whether a SELECT's items come in no order to compare: a Scan, several partitions, or an
    index whose keys may tie. Only a SELECT whose WHERE starts with the partition key's equality
    (and has no OR) reads one partition of the table in sort-key order (how this module writes them)."""
    return '."' in statement or " WHERE pk = " not in statement or " OR " in statement


class Statement:
    """A statement being written, with its `?` Parameters in order."""

    def __init__(self, requests):
        self.requests = requests
        self.parameters = []

    def value(self, value, parameter_chance=0.3):
        """The value as a literal, or as a `?` with the value in Parameters."""
        text = literal(value)
        if text is None or self.requests.rng.random() < parameter_chance:
            self.parameters.append(value)
            return "?"
        return text


class PartiqlRequests:
    """Random PartiQL requests of each operation."""

    def __init__(self, rng):
        self.rng = rng
        self.values = Values(rng)

    def sort_key(self):
        return {"N": self.rng.choice(SORT_KEYS)}

    def partition(self):
        return {"S": self.rng.choice(PARTITIONS)}

    def attribute_value(self, name):
        if name in ("gpk", "gsk"):
            return {"S": self.rng.choice(["g1", "g2", "x"])}
        if name == "lsk":
            return {"N": self.rng.choice(["1", "2", "3"])}
        return self.values.value()

    def path(self):
        name = self.rng.choice(NAMES)
        roll = self.rng.random()
        if roll < 0.15:
            return "%s[%d]" % (name, self.rng.randint(0, 2))
        if roll < 0.3:
            return "%s.%s" % (name, self.rng.choice(NAMES))
        if roll < 0.4:
            return '"%s"' % name
        return name

    def key_condition(self, statement, full=True):
        """pk = v AND sk = v, with now and then a wrong type, a missing or a ranged sort key."""
        roll = self.rng.random()
        pk = self.partition() if roll > 0.03 else {"N": "1"}
        text = "pk = %s" % statement.value(pk)
        if not full or roll < 0.06:
            return text
        if roll < 0.09:
            return text + " AND sk > %s" % statement.value(self.sort_key())
        return text + " AND sk = %s" % statement.value(self.sort_key() if roll > 0.11 else {"S": "1"})

    def condition(self, statement, depth=0):
        roll = self.rng.random()
        if depth < 2 and roll < 0.12:
            return "(%s %s %s)" % (self.condition(statement, depth + 1), self.rng.choice(["AND", "OR"]),
                                   self.condition(statement, depth + 1))
        if depth < 2 and roll < 0.17:
            return "NOT %s" % self.condition(statement, depth + 1)
        path = self.path()
        if roll < 0.185:  # now and then the first operand repeated (refused)
            return self.rng.choice(["%s = %s", "contains(%s, %s)", "%s IN [1, %s]", "size(%s) > size(%s)"]) % (
                path, path)
        if roll < 0.2:  # IS of a literal, or of what IS may not test
            return "%s IS %s%s" % (self.rng.choice(["'x'", "1", "true", "NULL", "[1]", "size(%s)" % path]),
                                   self.rng.choice(["", "NOT "]),
                                   self.rng.choice(["MISSING", "NULL", "STRING", "NUMERIC", "INT"]))
        kind = self.rng.choice(["exists", "not_exists", "missing", "not_missing", "compare", "compare", "between",
                                "in", "begins_with", "contains", "size", "type", "is_null"])
        if kind == "exists":
            return "attribute_exists(%s)" % path
        if kind == "not_exists":
            return "attribute_not_exists(%s)" % path
        if kind == "missing":
            return "%s IS MISSING" % path
        if kind == "not_missing":
            return "%s IS NOT MISSING" % path
        if kind == "is_null":
            return "%s IS %sNULL" % (path, self.rng.choice(["", "NOT "]))
        value = lambda: statement.value(self.values.value())  # noqa: E731
        if kind == "compare":
            return "%s %s %s" % (path, self.rng.choice(["=", "<>", "<", "<=", ">", ">="]), value())
        if kind == "between":
            return "%s BETWEEN %s AND %s" % (path, value(), value())
        if kind == "in":
            return "%s IN [%s, %s]" % (path, value(), value())
        if kind == "begins_with":
            return "begins_with(%s, %s)" % (path, value())
        if kind == "contains":
            return "contains(%s, %s)" % (path, value())
        if kind == "size":
            return "size(%s) %s %d" % (path, self.rng.choice(["=", "<", ">="]), self.rng.randint(0, 3))
        kinds = ["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M", "X"]
        return "attribute_type(%s, %s)" % (path, statement.value({"S": self.rng.choice(kinds)}))

    def projection(self):
        if self.rng.random() < 0.5:
            return "*"
        return ", ".join(self.rng.choice([self.path(), "pk", "sk"]) for _ in range(self.rng.randint(1, 3)))

    def select_where(self, statement, source):
        """The WHERE clause of a SELECT on the table or one of its indexes."""
        roll = self.rng.random()
        if source == "gsi":
            text = "gpk = %s" % statement.value({"S": self.rng.choice(["g1", "g2", "x"])})
            if roll < 0.4:
                text += " AND begins_with(gsk, %s)" % statement.value({"S": self.rng.choice(["g", "x", ""])})
        elif source == "lsi":
            text = "pk = %s" % statement.value(self.partition())
            if roll < 0.5:
                text += " AND lsk %s %s" % (self.rng.choice(["=", "<", ">="]),
                                            statement.value({"N": self.rng.choice(["1", "2", "3"])}))
        elif roll < 0.3:
            text = self.key_condition(statement)
        elif roll < 0.55:
            text = "pk = %s" % statement.value(self.partition())
            sort = self.rng.random()
            if sort < 0.3:
                text += " AND sk %s %s" % (self.rng.choice(["=", "<", "<=", ">", ">="]),
                                           statement.value(self.sort_key()))
            elif sort < 0.5:
                low, high = sorted((self.rng.choice(SORT_KEYS) for _ in range(2)), key=float)
                text += " AND sk BETWEEN %s AND %s" % (statement.value({"N": low}), statement.value({"N": high}))
        elif roll < 0.65:
            members = [statement.value(self.partition()) for _ in range(self.rng.randint(1, 3))]
            text = "pk IN [%s]" % ", ".join(members)
        elif roll < 0.95:
            return " WHERE " + self.condition(statement)
        else:
            return ""
        if self.rng.random() < 0.4:
            text += " AND " + self.condition(statement)
        return " WHERE " + text

    def select(self, statement):
        source = self.rng.choice([None, None, None, None, "gsi", "lsi", "nope"])
        table = TABLE_NAME if source is None else '%s."%s"' % (TABLE_NAME, source)
        if self.rng.random() < 0.03:
            table = '"nothere"'
        text = "SELECT %s FROM %s%s" % (self.projection(), table, self.select_where(statement, source))
        if " WHERE pk = " in text and self.rng.random() < 0.1:
            text += " ORDER BY sk %s" % self.rng.choice(["ASC", "DESC"])
        return text

    def item_literal(self, statement):
        members = []
        for name in ["pk", "sk"] + self.rng.sample(NAMES, self.rng.randint(0, 5)):
            if name == "pk":
                value = self.partition() if self.rng.random() > 0.03 else {"N": "1"}
            elif name == "sk":
                if self.rng.random() < 0.03:
                    continue
                value = self.sort_key()
            else:
                value = self.attribute_value(name)
            members.append("'%s': %s" % (name, statement.value(value, parameter_chance=0.15)))
        return "{%s}" % ", ".join(members)

    def insert(self, statement):
        return "INSERT INTO %s VALUE %s" % (TABLE_NAME, self.item_literal(statement))

    def assignment(self, statement):
        path = self.path()
        form = self.rng.choice(["value", "value", "plus", "list_append", "set_add", "set_delete"])
        if form == "value":
            # Index keys mostly get their own type, so that items stay in the indexes.
            typed = path in ("gpk", "gsk", "lsk") and self.rng.random() < 0.8
            value = self.attribute_value(path) if typed else self.values.value()
            return "%s = %s" % (path, statement.value(value))
        if form == "plus":
            return "%s = %s %s %s" % (path, path, self.rng.choice("+-"), statement.value({"N": self.values.number()}))
        if form == "list_append":
            return "%s = list_append(%s, %s)" % (path, path, statement.value({"L": [self.values.value(1)]}))
        members = self.rng.choice([{"SS": ["a", "q"]}, {"NS": ["1", "5"]}, {"S": "a"}])
        return "%s = %s(%s, %s)" % (path, form, path, statement.value(members))

    def update(self, statement):
        clauses = []
        for _ in range(self.rng.randint(1, 3)):
            if clauses and self.rng.random() < 0.3:
                # One clause continued: SET a = 1, b = 2 (or REMOVE a, b)
                clauses[-1] += ", " + (self.assignment(statement) if clauses[-1].startswith("SET")
                                       else self.path())
            elif self.rng.random() < 0.7:
                clauses.append("SET " + self.assignment(statement))
            else:
                clauses.append("REMOVE " + self.path())
        where = self.key_condition(statement, full=self.rng.random() > 0.03)
        if self.rng.random() < 0.4:
            where += " AND " + self.condition(statement)
        text = "UPDATE %s %s WHERE %s" % (TABLE_NAME, " ".join(clauses), where)
        if self.rng.random() < 0.3:
            text += " RETURNING %s *" % self.rng.choice(["ALL OLD", "MODIFIED OLD", "ALL NEW", "MODIFIED NEW"])
        return text

    def delete(self, statement):
        where = self.key_condition(statement, full=self.rng.random() > 0.03)
        if self.rng.random() < 0.5:
            where += " AND " + self.condition(statement)
        text = "DELETE FROM %s WHERE %s" % (TABLE_NAME, where)
        if self.rng.random() < 0.25:
            text += " RETURNING %s *" % self.rng.choice(["ALL OLD", "ALL OLD", "ALL NEW"])
        return text

    def exists_check(self, statement):
        """A transaction's condition check."""
        where = self.key_condition(statement)
        if self.rng.random() < 0.9:
            where += " AND " + self.condition(statement)
        return "EXISTS(SELECT * FROM %s WHERE %s)" % (TABLE_NAME, where)

    def spoil(self, text):
        """The statement made unparsable, or its table or form wrong."""
        words = text.split(" ")
        at = self.rng.randrange(len(words))
        roll = self.rng.random()
        if roll < 0.3:
            del words[at]
        elif roll < 0.5:
            words[at] = words[at][:-1] or "'"
        elif roll < 0.6:
            words.insert(at, self.rng.choice(["SELECT", "WHERE", ",", "(", "'", "#", "--", "?", "AND", "value"]))
        elif roll < 0.8:
            return text.replace(TABLE_NAME, self.rng.choice(['"nothere"', TABLE, '"differential"."gsi"', '""']), 1)
        else:
            return self.rng.choice(["SLECT * FROM %s", "SELECT * FROM %s WHERE pk = 'p1' foo",
                                    "UPSERT INTO %s VALUE {'pk': 'p1', 'sk': 1}", "DROP TABLE %s", "",
                                    "SELECT VALUE pk FROM %s", "SELECT COUNT(*) FROM %s",
                                    "INSERT INTO %s VALUE {'pk': 'p1', 'sk': 1} RETURNING ALL OLD *",
                                    "SELECT * FROM %s WHERE pk = 'p1' AND sk = 1; SELECT * FROM %s"]).replace(
                "%s", TABLE_NAME)
        return " ".join(words)

    def statement(self, kind):
        """A statement of the kind with its Parameters, now and then spoiled or with Parameters
        too few, too many or invalid."""
        statement = Statement(self)
        text = getattr(self, kind)(statement)
        if self.rng.random() < 0.08:
            text = self.spoil(text)
        parameters = statement.parameters
        roll = self.rng.random()
        if parameters and roll < 0.04:
            parameters = parameters[:-1]
        elif roll < 0.06:
            parameters = parameters + [{"S": "extra"}]
        elif parameters and roll < 0.08:
            parameters = parameters[:-1] + [self.rng.choice([{}, {"S": "a", "N": "1"}, {"N": "x"}, {"SS": []}])]
        request = {"Statement": text}
        if parameters:
            request["Parameters"] = parameters
        return request

    def execute(self):
        kind = self.rng.choices(["select", "insert", "update", "delete"], [35, 25, 28, 12])[0]
        request = self.statement(kind)
        if kind == "select":
            # (Not often on an index: a GSI refuses it.)
            request["ConsistentRead"] = self.rng.random() < (0.1 if '."' in request["Statement"] else 0.5)
            if self.rng.random() < 0.4:
                request["Limit"] = self.rng.randint(1, 4)
            if self.rng.random() < 0.03:
                request["NextToken"] = base64.b64encode(b"made up").decode()
        elif self.rng.random() < 0.4:
            request["ReturnValuesOnConditionCheckFailure"] = self.rng.choice(["ALL_OLD", "NONE"])
        return "execute_statement", self.billing(request)

    def billing(self, request):
        request["ReturnConsumedCapacity"] = self.rng.choice(["NONE", "TOTAL", "INDEXES"])
        return request

    def batch(self):
        reads = self.rng.random() < 0.4
        statements = []
        for _ in range(self.rng.randint(1, 4)):
            if reads:
                kind = "select" if self.rng.random() < 0.95 else "insert"
            else:
                kind = self.rng.choice(["insert", "update", "update", "delete"])
            member = self.statement(kind)
            if kind == "select":
                member["ConsistentRead"] = self.rng.random() < 0.5
            elif self.rng.random() < 0.3:
                member["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
            statements.append(member)
        return "batch_execute_statement", self.billing({"Statements": statements})

    def transaction(self):
        reads = self.rng.random() < 0.3
        statements = []
        for _ in range(self.rng.randint(1, 3)):
            if reads:
                statement = Statement(self)
                member = {"Statement": "SELECT %s FROM %s WHERE %s" % (
                    self.projection(), TABLE_NAME, self.key_condition(statement))}
                if statement.parameters:
                    member["Parameters"] = statement.parameters
            else:
                kind = self.rng.choice(["insert", "update", "update", "delete", "exists_check"])
                member = self.statement(kind)
                if self.rng.random() < 0.3:
                    member["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
            statements.append(member)
        request = {"TransactStatements": statements}
        if not reads and self.rng.random() < 0.3:
            request["ClientRequestToken"] = self.rng.choice(TOKENS)
        return "execute_transaction", self.billing(request)

    def next(self):
        kind = self.rng.choices(["execute", "batch", "transaction"], [70, 15, 15])[0]
        return getattr(self, kind)()
