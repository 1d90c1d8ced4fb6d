"""Helpers for test_partiql.py, test_tags.py, test_misc_operations.py and test_http.py.

Catalogue: /work/notes/errors-partiql-tags-misc.md. No fixtures here (see conftest.py).
"""
import time
import uuid

import pytest
from botocore.exceptions import ClientError

NOT_WELL_FORMED = "Statement wasn't well formed, can't be processed: "
WHERE_KEYS = "Where clause does not contain a mandatory equality on all key attributes"
BATCH_SELECT_KEY = "Select statements within BatchExecuteStatement must specify the primary key in the where clause."
TXN_SELECT_KEY = ("Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction "
                  "must specify the primary key in the where clause.")
CCF_MSG = "The conditional request failed"
DUP_ITEM_MSG = "Duplicate primary key exists in table"


def uid(prefix="k"):
    """A fresh key value, so tests sharing a module table never see each other's items."""
    return "%s-%s" % (prefix, uuid.uuid4().hex[:10])


def q(name):
    """A PartiQL quoted identifier."""
    return '"%s"' % name


def run(client, statement, **kw):
    """ExecuteStatement; returns the whole answer."""
    return client.execute_statement(Statement=statement, **kw)


def select_all(client, statement, max_pages=50, **kw):
    """All Items of a SELECT, following NextToken (bounded); returns (items, pages)."""
    items, pages = [], 0
    request = dict(kw)
    for _ in range(max_pages):
        resp = client.execute_statement(Statement=statement, **request)
        pages += 1
        items.extend(resp.get("Items", []))
        if not resp.get("NextToken"):
            return items, pages
        request["NextToken"] = resp["NextToken"]
    raise AssertionError("no last page after %d pages" % max_pages)


def get(client, table, key):
    return client.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")


# ---------------------------------------------------------------- tags


def tags_dict(tags):
    return {t["Key"]: t["Value"] for t in tags}


def list_all_tags(client, arn, max_pages=20):
    """ListTagsOfResource to exhaustion (following NextToken) as a dict."""
    out, request = {}, {"ResourceArn": arn}
    for _ in range(max_pages):
        resp = client.list_tags_of_resource(**request)
        out.update(tags_dict(resp.get("Tags", [])))
        if not resp.get("NextToken"):
            return out
        request["NextToken"] = resp["NextToken"]
    raise AssertionError("ListTagsOfResource did not end")


def wait_tags(client, arn, expected, timeout=60):
    """Since 2024 the service applies TagResource/UntagResource asynchronously (ALT test_tag.py):
    poll ListTagsOfResource until it shows `expected` (instant on emulators)."""
    deadline = time.monotonic() + timeout
    delay = 0.05
    while True:
        got = list_all_tags(client, arn)
        if got == expected:
            return got
        if time.monotonic() > deadline:
            assert got == expected
        time.sleep(delay)
        delay = min(delay * 2, 1.0)


def retry_while(fn, code, timeout=120):
    """Call fn() again while it raises ClientError `code` (e.g. ContinuousBackupsUnavailableException
    right after CreateTable on the real service, or ResourceInUseException while tags settle)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return fn()
        except ClientError as e:
            if e.response["Error"]["Code"] != code or time.monotonic() > deadline:
                raise
        time.sleep(2)


def dynamod_only(target, why):
    """Skip a dynamod-specific test on the real service and on DynamoDB Local."""
    if target in ("aws", "dynamodb-local"):
        pytest.skip("dynamod-specific (%s); target is %s" % (why, target))
