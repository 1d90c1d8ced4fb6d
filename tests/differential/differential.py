#!/usr/bin/env python3
"""Differential test: the same seeded random requests to dynamod and to a reference (DynamoDB
Local, or the service), comparing every answer and, after each write, the items it wrote.

    tests/differential/differential.py --reference http://127.0.0.1:8100 [--seed N] [--ops N]
                                       [--shape composite|hash|binary] [--explain N]
                                       [--reference-kind dynamodb-local|aws]
                                       [--workload json|partiql|both|control]

It starts its own in-memory dynamod (build/dynamod, or --dynamod-bin) unless --dynamod URL is
given. A run creates one table on both servers, of the shape chosen (shapes.py: keys of each
type, with and without a sort key, indexes projecting all, some or only the keys), and sends
PutItem, UpdateItem and DeleteItem with random conditions and return values, GetItem with
projections, Query on the table and each index (every page, with and without Limit), Scan with
filters, BatchWriteItem, BatchGetItem, TransactWriteItems and TransactGetItems
(request_generator.py). With --workload partiql (or both, mixed; the composite table only) it
sends PartiQL instead: ExecuteStatement (SELECT on the table and its indexes, every page; INSERT,
UPDATE, DELETE), BatchExecuteStatement and ExecuteTransaction (partiql_generator.py); after one
that may write it compares the whole table, read by a consistent Scan. With --workload control it
manages tables of its own instead (control_generator.py: CreateTable, UpdateTable, DescribeTable,
DeleteTable, ListTables with paging, TTL, tags, continuous backups, DescribeLimits,
DescribeEndpoints, valid and invalid, on a small pool of table names); it starts by deleting every
table of DynamoDB Local, and after a request that may change a table compares the table's
description on both servers, dropping it on both when they differ. What is the server's own
(times, TableId, the account and region of ARNs, stream labels, its address, the order of a
table's indexes) is not compared.

An answer is the response without request ids, or the error's type and message. Set members are
sorted, and the items of a Scan or an index Query (whose keys may tie) are put in one order, as
are those of a SELECT that is not a Query of the table; a NextToken counts only as present.
DynamoDB Local's recorded deviations are taken out of both answers (local_deviations.py; not
with --reference-kind aws). When a write leaves the two items different, dynamod is given the
reference's item, so that the difference is reported once. --explain N prints, before request
N, the item (or partition) it reads as each server holds it.

Exit status 0 when every answer matched, 1 otherwise; mismatches are grouped by operation and
error, each with its request and where the answers differ. A mismatch is a question, not yet a
bug: see what the documentation says before changing dynamod, and when dynamod follows the
documentation, record the reference's deviation with a test and in local_deviations.py.
"""
import argparse
import copy
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from control_generator import ARN_PREFIX, TABLES as CONTROL_TABLES, ControlRequests
from local_deviations import forgive_local
from local_deviations_control import forgive_control
from partiql_generator import PartiqlRequests, unordered as partiql_unordered
from request_generator import Requests
from shapes import SHAPES

REPO = Path(__file__).resolve().parents[2]
PAGES = 100  # at most, so that a server that always answers a NextToken ends
PARTIQL = ("execute_statement", "batch_execute_statement", "execute_transaction")
WORKLOADS = {"json": ["json"], "partiql": ["partiql"], "both": ["json", "partiql"], "control": ["control"]}


def client(endpoint):
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id="differential", aws_secret_access_key="differential",
                        config=Config(parameter_validation=False, retries={"max_attempts": 0}))


def canonical(value):
    """A value with set members in one order (sets have none), for comparing."""
    if isinstance(value, dict):
        out = {}
        for name, member in value.items():
            if name in ("SS", "NS", "BS") and isinstance(member, list):
                out[name] = sorted(member, key=repr)
            else:
                out[name] = canonical(member)
        return out
    if isinstance(value, list):
        return [canonical(member) for member in value]
    return value


def item_order(item):
    """Where an item goes when the order of an answer's items is not the server's to choose."""
    return json.dumps(item, sort_keys=True, default=str)


def answer(api, operation, request):
    """Every page of the operation's answer, or its error."""
    pages = []
    request = dict(request)
    for _ in range(PAGES):
        try:
            page = getattr(api, operation)(**request)
        except ClientError as error:
            pages.append({"error": error.response["Error"].get("Code"),
                          "message": error.response["Error"].get("Message"),
                          "item": error.response.get("Item"),
                          "reasons": error.response.get("CancellationReasons")})
            break
        page.pop("ResponseMetadata", None)
        pages.append(page)
        if operation in ("execute_statement", "list_tags_of_resource") and "NextToken" in page:
            # A NextToken is the server's own opaque text: compare that there is one.
            request["NextToken"], page["NextToken"] = page["NextToken"], "<token>"
            continue
        if operation == "list_tables" and "LastEvaluatedTableName" in page:
            request["ExclusiveStartTableName"] = page["LastEvaluatedTableName"]
            continue
        if operation not in ("query", "scan") or "LastEvaluatedKey" not in page:
            break
        request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    pages = canonical(pages)
    for page in pages:
        # A batch's answer holds the items it read in no particular order.
        for table, items in page.get("Responses", {}).items() if isinstance(page.get("Responses"), dict) else []:
            page["Responses"][table] = sorted(items, key=item_order)
    unordered = (operation == "scan" or (operation == "query" and "IndexName" in request)
                 or (operation == "execute_statement" and partiql_unordered(request["Statement"])))
    if unordered and "error" not in pages[-1]:
        # Index keys may tie, and a Scan's order is the server's own: compare what was read.
        items = sorted((item for page in pages for item in page.get("Items", [])), key=item_order)
        count = sum(page.get("Count", 0) for page in pages)
        scanned = sum(page.get("ScannedCount", 0) for page in pages)
        # What each page read and cost, for the deviations that concern one page.
        read = [{name: page[name] for name in ("ScannedCount", "ConsumedCapacity") if name in page} for page in pages]
        return {"Items": items, "Count": count, "ScannedCount": scanned, "Pages": read}
    return pages


def item_key(shape, item):
    return {name: item[name] for name in shape.key}


def request_keys(shape, operation, request):
    """The keys of the items a request names, in order."""
    if operation == "batch_write_item":
        return [r["PutRequest"]["Item"] and item_key(shape, r["PutRequest"]["Item"]) if "PutRequest" in r
                else r["DeleteRequest"]["Key"] for r in request["RequestItems"][shape.table]]
    if operation == "batch_get_item":
        return list(request["RequestItems"][shape.table]["Keys"])
    if operation in ("transact_write_items", "transact_get_items"):
        actions = [next(iter(a.values())) for a in request["TransactItems"]]
        return [a["Key"] if "Key" in a else item_key(shape, a["Item"]) for a in actions]
    return [request["Key"] if "Key" in request else item_key(shape, request["Item"])]


def explain(shape, ours, reference, operation, request):
    print("request: %s(%s)" % (operation, json.dumps(request, default=str)))
    if operation in ("query", "scan"):
        partition = request.get("ExpressionAttributeValues", {}).get(":pk")
        index = shape.index(request.get("IndexName"))
        if operation == "query" and (index is None or index.local):
            for label, api in (("dynamod", ours), ("reference", reference)):
                items = api.query(TableName=shape.table, KeyConditionExpression="#pk = :pk", ConsistentRead=True,
                                  ExpressionAttributeNames={"#pk": shape.key[0]},
                                  ExpressionAttributeValues={":pk": partition})["Items"]
                print("  before, %s holds: %s" % (label, json.dumps(canonical(items), default=str)))
        return
    for label, api in (("dynamod", ours), ("reference", reference)):
        items = stored(shape, api, operation, request)["Items"]
        print("  before, %s holds: %s" % (label, json.dumps(items, default=str)))


def stored(shape, api, operation, request):
    """The items a request names, as the server now holds them; for PartiQL, whose keys may be
    in literals, parameters or nowhere, the whole table (at most 21 items), which also shows a
    write that lands on another key than the one meant."""
    if operation in PARTIQL:
        items = [item for page in api.get_paginator("scan").paginate(TableName=shape.table, ConsistentRead=True)
                 for item in page["Items"]]
        return {"Items": sorted(canonical(items), key=lambda item: json.dumps(item_key(shape, item), sort_keys=True))}
    return {"Items": [canonical(api.get_item(TableName=shape.table, Key=key, ConsistentRead=True).get("Item"))
                      for key in request_keys(shape, operation, request)]}


def align(shape, ours, reference, keys):
    """After a write that went differently, give dynamod the reference's items (or the reference
    dynamod's, where dynamod refuses them), so that one difference is reported once rather than
    in every later read of them."""
    refused = []
    for key in keys:
        item = reference.get_item(TableName=shape.table, Key=key, ConsistentRead=True).get("Item")
        try:
            if item is None:
                ours.delete_item(TableName=shape.table, Key=key)
            else:
                ours.put_item(TableName=shape.table, Item=item)
        except ClientError as error:
            # The reference holds an item dynamod refuses (DynamoDB Local lets a wrong-typed LSI
            # key through an update): say so, and give the reference dynamod's, so that the
            # item's later reads do not differ too.
            refused.append("dynamod refuses the reference's item %s: %s" % (
                json.dumps(canonical(item), default=str), error.response["Error"].get("Message")))
            mine = ours.get_item(TableName=shape.table, Key=key, ConsistentRead=True).get("Item")
            if mine is None:
                reference.delete_item(TableName=shape.table, Key=key)
            else:
                reference.put_item(TableName=shape.table, Item=mine)
    return "; ".join(refused) or None


def differences(ours, reference, path="", out=None):
    """Where two answers differ, as (path, ours, reference), at most 6."""
    out = [] if out is None else out
    if len(out) >= 6:
        return out
    if isinstance(ours, dict) and isinstance(reference, dict):
        for name in sorted(set(ours) | set(reference)):
            differences(ours.get(name, "<absent>"), reference.get(name, "<absent>"), path + "." + name, out)
    elif isinstance(ours, list) and isinstance(reference, list) and len(ours) == len(reference):
        for i, (a, b) in enumerate(zip(ours, reference)):
            differences(a, b, "%s[%d]" % (path, i), out)
    elif ours != reference:
        out.append((path or ".", ours, reference))
    return out


def create_table(shape, api):
    api.create_table(**shape.create_request())
    api.get_waiter("table_exists").wait(TableName=shape.table, WaiterConfig={"Delay": 0.2, "MaxAttempts": 50})


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_dynamod(binary):
    port = free_port()
    process = subprocess.Popen([binary, "--in-memory", "--port", str(port), "--log-level", "warn"],
                               stdout=subprocess.DEVNULL)
    endpoint = "http://127.0.0.1:%d" % port
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return process, endpoint
        except OSError:
            time.sleep(0.02)
    process.kill()
    sys.exit("dynamod did not start on %s" % endpoint)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", required=True, help="URL of DynamoDB Local (or the service)")
    parser.add_argument("--dynamod", help="URL of a running dynamod (default: start one in memory)")
    parser.add_argument("--dynamod-bin", default=str(REPO / "build" / "dynamod"))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("DIFFERENTIAL_SEED", "1")))
    parser.add_argument("--ops", type=int, default=int(os.environ.get("DIFFERENTIAL_OPS", "2000")))
    parser.add_argument("--shape", choices=sorted(SHAPES), default="composite",
                        help="the table's keys and indexes (shapes.py)")
    parser.add_argument("--reference-kind", choices=["dynamodb-local", "aws"], default="dynamodb-local",
                        help="with dynamodb-local (default), its recorded deviations are not reported")
    parser.add_argument("--explain", type=int, default=-1, metavar="N",
                        help="before request N, print the item it names as each server holds it")
    parser.add_argument("--show", type=int, default=20, help="mismatches to print in full")
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="json",
                        help="the JSON API's operations (default), PartiQL's (composite table), both mixed, "
                             "or table control (tables of its own)")
    args = parser.parse_args()
    if args.workload in ("partiql", "both") and args.shape != "composite":
        parser.error("the PartiQL workload runs on the composite table")
    control = args.workload == "control"
    print("boto3 %s; seed %d; %d operations on the %s; workload %s" % (
        boto3.__version__, args.seed, args.ops, "control tables" if control else args.shape + " table", args.workload))
    shape = SHAPES[args.shape]
    local = args.reference_kind == "dynamodb-local"

    process = None
    endpoint = args.dynamod
    if endpoint is None:
        process, endpoint = start_dynamod(args.dynamod_bin)
    ours, reference = client(endpoint), client(args.reference)
    try:
        rng = random.Random(args.seed)
        if control:
            servers = ControlServers(ours, reference, local, ours_scratch=process is not None)
            sources = [ControlRequests(rng)]
        else:
            for api in (ours, reference):
                try:
                    api.delete_table(TableName=shape.table)
                    api.get_waiter("table_not_exists").wait(TableName=shape.table, WaiterConfig={"Delay": 0.2})
                except ClientError:
                    pass
                create_table(shape, api)
            sources = [Requests(rng, shape) if kind == "json" else PartiqlRequests(rng) for kind in WORKLOADS[args.workload]]
        mismatches = {}
        for number in range(args.ops):
            # (One source draws nothing for the choice, so a seed's JSON run stays as it was.)
            source = sources[0] if len(sources) == 1 else rng.choice(sources)
            operation, request = source.next()
            if control:
                mismatch = servers.compare(operation, request)
            else:
                if number == args.explain:
                    explain(shape, ours, reference, operation, request)
                mismatch = compare(shape, ours, reference, operation, request, local)
            if mismatch:
                kind, got, expected = mismatch
                mismatches.setdefault(kind, []).append((number, request, got, expected))
        total = sum(len(v) for v in mismatches.values())
        for kind, cases in sorted(mismatches.items(), key=lambda kv: -len(kv[1])):
            print("\n== %s: %d mismatches" % (kind, len(cases)))
            for number, request, got, expected in cases[:args.show]:
                print("-- request %d: %s(%s)" % (number, operation_name(kind), json.dumps(request, default=str)[:1500]))
                for where, a, b in differences(got, expected):
                    print("   at %s\n     dynamod:   %s\n     reference: %s" % (
                        where, json.dumps(a, default=str)[:600], json.dumps(b, default=str)[:600]))
        print("\n%d of %d answers differ" % (total, args.ops))
        return 1 if total else 0
    finally:
        if process:
            process.kill()
            process.wait()


WRITES = ("put_item", "update_item", "delete_item", "batch_write_item", "transact_write_items")


def is_write(operation, request):
    """Whether the request may change items (a PartiQL read may be a bad write in disguise)."""
    if operation in PARTIQL:
        return not (operation == "execute_statement" and request["Statement"].lstrip().upper().startswith("SELECT"))
    return operation in WRITES


def compare(shape, ours, reference, operation, request, local):
    """One request to both servers: None when they agree, else (kind, dynamod's, the reference's)."""
    writes = is_write(operation, request)
    before = stored(shape, ours, operation, request)["Items"] if writes else []
    got, expected = answer(ours, operation, request), answer(reference, operation, request)
    after = stored(shape, ours, operation, request) if writes else None
    theirs = stored(shape, reference, operation, request) if writes else None
    # Whether one server refused what the other accepted, before deviations are forgiven.
    split_outcome = (outcome(got) is None) != (outcome(expected) is None)
    if local:
        got, expected = forgive_local(shape, operation, request, got, expected, before,
                                      after["Items"] if after else [])
        for put_together in (got, expected):
            # Taking a deviation out can change an item's text, and so where it sorts.
            if isinstance(put_together, dict) and "Pages" in put_together:
                put_together["Items"].sort(key=item_order)
    forgiven_split = got == expected and split_outcome
    if got == expected and writes and not forgiven_split:
        # The same answer, but are they the same items? (Writes that answer nothing can differ.)
        # Not after a forgiven deviation where one server refused what the other accepted: its
        # items differ because of it, and are aligned below.
        state = operation + " state"
        answered = expected
        got, expected = copy.deepcopy(after), copy.deepcopy(theirs)
        if local:
            got, expected = forgive_local(shape, state, request, got, expected, before, after["Items"],
                                          answered=answered)
        operation = state
    refused = None
    if writes and after != theirs:
        # Reported or forgiven, the items differ: give dynamod the reference's, so that later
        # reads compare what they read, not this difference again.
        if operation.split(" ")[0] in PARTIQL:
            keys = {json.dumps(item_key(shape, item), sort_keys=True) for item in after["Items"] + theirs["Items"]}
            keys = [json.loads(key) for key in sorted(keys)]
        else:
            keys = request_keys(shape, operation.split(" ")[0], request)
        refused = align(shape, ours, reference, keys)
    if got == expected:
        return None
    if refused:
        got = {"dynamod": got, "then": refused}
    error = expected[-1].get("error") if isinstance(expected, list) else None
    return (operation + (" " + error if error else "")), got, expected


def outcome(answer):
    """An answer's error type, or None for a success."""
    return answer[-1].get("error") if isinstance(answer, list) and answer else None


def operation_name(kind):
    return kind.split(" ")[0]



# ------------------------------------------------------------------ the control workload

CONTROL_WRITES = ("create_table", "update_table", "delete_table", "update_time_to_live", "tag_resource",
                  "untag_resource", "update_continuous_backups")
# The server's own values in a table's description and the other control answers.
OWN_TIMES = ("CreationDateTime", "LastIncreaseDateTime", "LastDecreaseDateTime", "LastUpdateToPayPerRequestDateTime",
             "LastUpdateDateTime", "EarliestRestorableDateTime", "LatestRestorableDateTime")
SETTLING = ("CREATING", "UPDATING", "DELETING")
INDEX_LISTS = ("GlobalSecondaryIndexes", "LocalSecondaryIndexes")


class ControlServers:
    """The two servers of the control workload (--workload control): tables of its own
    (control_generator.TABLES), each server's ARN prefix, and the comparison of one request."""

    def __init__(self, ours, reference, local, ours_scratch):
        self.ours, self.reference, self.local = ours, reference, local
        self.scratch = {id(ours): ours_scratch, id(reference): local}
        self.prefixes = {}
        for api in (ours, reference):
            self.clear(api)
            # The server's "arn:aws:dynamodb:<region>:<account>:", from a table made to ask it.
            probe = api.create_table(TableName="ctl-probe", BillingMode="PAY_PER_REQUEST",
                                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
            self.prefixes[id(api)] = probe["TableDescription"]["TableArn"].split("table/")[0]
            self.drop(api, "ctl-probe")

    def clear(self, api):
        names = [name for page in api.get_paginator("list_tables").paginate() for name in page["TableNames"]]
        foreign = [name for name in names if name not in CONTROL_TABLES]
        if foreign and not self.scratch[id(api)]:
            # (Only DynamoDB Local's tables, and those of the dynamod it started, are scratch.)
            sys.exit("the control workload needs servers without other tables; %s holds %s" % (
                "dynamod" if api is self.ours else "the reference", foreign[:5]))
        for name in names:
            self.drop(api, name)

    def drop(self, api, name):
        """Deletes a table, protected or not, once its changes are done (a few tries: a server
        refuses while an index is built; DynamoDB Local's index may stay CREATING for good)."""
        for _ in range(2):
            self.settle(api, name)
            try:
                api.update_table(TableName=name, DeletionProtectionEnabled=False)
            except ClientError:
                pass
            try:
                api.delete_table(TableName=name)
            except ClientError as error:
                if error.response["Error"]["Code"] == "ResourceNotFoundException":
                    return
                continue
            api.get_waiter("table_not_exists").wait(TableName=name, WaiterConfig={"Delay": 0.1, "MaxAttempts": 300})
            return
        print("could not drop %s: the later answers about it may differ" % name)

    def localise(self, api, request):
        """The request as sent to one server: its own ARNs."""
        return json.loads(json.dumps(request).replace(ARN_PREFIX, self.prefixes[id(api)]))

    def normalise(self, api, value, name=None):
        """An answer without what is the server's own: times, TableId, the account and region of
        its ARNs, its stream labels, its address."""
        if isinstance(value, list):
            value = [self.normalise(api, member) for member in value]
            # (The order of a table's indexes is the server's own.)
            return sorted(value, key=lambda i: i.get("IndexName", "")) if name in INDEX_LISTS else value
        if isinstance(value, dict):
            return {key: self.normalise(api, member, key) for key, member in value.items()}
        if name in OWN_TIMES:
            return "<time>"
        if name == "TableId":
            return "<id>"
        if name == "LatestStreamLabel":
            return "<label>"
        if name == "Address":
            return "<address>"
        if isinstance(value, str):
            value = value.replace(self.prefixes[id(api)], ARN_PREFIX)
            if "/stream/" in value:
                value = value.split("/stream/")[0] + "/stream/<label>"
        return value

    def answer(self, api, operation, request):
        return self.normalise(api, answer(api, operation, self.localise(api, request)))

    def settle(self, api, name):
        """Waits until the table is ACTIVE with every index ACTIVE, or gone, so that what the
        servers hold is compared, not how fast they get there."""
        for _ in range(200):
            try:
                table = api.describe_table(TableName=name)["Table"]
            except ClientError:
                return
            statuses = [table["TableStatus"]] + [i.get("IndexStatus") for i in table.get("GlobalSecondaryIndexes", [])]
            if not any(status in SETTLING for status in statuses):
                return
            time.sleep(0.05)

    def state(self, api, name):
        """What a server holds of a table: its description and its TTL."""
        self.settle(api, name)
        return [self.normalise(api, answer(api, operation, {"TableName": name}))
                for operation in ("describe_table", "describe_time_to_live")]

    def compare(self, operation, request):
        """One request to both servers: None when they agree, else (kind, dynamod's, the reference's).
        After a request that may change a table, the tables are compared too, and when they differ
        the table is dropped on both, so that one difference is reported once."""
        got = self.answer(self.ours, operation, request)
        expected = self.answer(self.reference, operation, request)
        raw = copy.deepcopy((got, expected))
        if self.local:
            got, expected = forgive_control(operation, request, got, expected)
        kind = operation + (" " + outcome(expected) if outcome(expected) else "")
        if operation in CONTROL_WRITES:
            name = request.get("TableName") or request.get("ResourceArn", "").split("table/")[-1].split("/")[0]
            if name in CONTROL_TABLES:
                mine, theirs = self.state(self.ours, name), self.state(self.reference, name)
                if self.local:
                    for i, reader in enumerate(("describe_table", "describe_time_to_live")):
                        mine[i], theirs[i] = forgive_control(reader, {"TableName": name}, mine[i], theirs[i])
                if mine != theirs:
                    for api in (self.ours, self.reference):
                        self.drop(api, name)
                    if got == expected and outcome(raw[0]) == outcome(raw[1]):
                        # (Where one server refused what the other did, the state differs
                        # because the answers do, reported or forgiven.)
                        got, expected, kind = mine, theirs, operation + " state"
        return None if got == expected else (kind, got, expected)

if __name__ == "__main__":
    sys.exit(main())
