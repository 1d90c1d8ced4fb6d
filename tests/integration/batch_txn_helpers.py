"""Helpers shared by the batch and transaction suites (test_batch_get.py, test_batch_write.py,
test_transact_write.py, test_transact_get.py, test_transaction_concurrency.py).

Catalogue: /work/notes/errors-batch-transact.md. No fixtures here (see conftest.py).
"""
import re
import time

import pytest
from botocore.exceptions import ClientError

from dynamo_helpers import ENVELOPE, check_error, error_of

S = lambda v: {"S": v}  # noqa: E731
N = lambda v: {"N": v}  # noqa: E731
B = lambda v: {"B": v}  # noqa: E731

TCE = "TransactionCanceledException"
CCF_REASON_MSG = "The conditional request failed"
DUP_TXN = "Transaction request cannot include multiple operations on one item"
DUP_BATCH = "Provided list of item keys contains duplicates"
KEY_SCHEMA = "The provided key element does not match the schema"
EMPTY_S_KEY = ("One or more parameter values are not valid. The AttributeValue for a key attribute "
               "cannot contain an empty string value. Key: pk")
NOT_FOUND = "Requested resource not found"
ENUM_RCC = ("Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: "
            "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]")
ENUM_RICM = ("Value 'BOGUS2' at 'returnItemCollectionMetrics' failed to satisfy constraint: "
             "Member must satisfy enum value set: [SIZE, NONE]")


def cancel_message(codes):
    """The TransactionCanceledException message for reason codes in request order."""
    return "Transaction cancelled, please refer cancellation reasons for specific reasons [%s]" % ", ".join(codes)


def reasons_of(exc):
    """CancellationReasons of a TransactionCanceledException (botocore puts them at the top level)."""
    return exc.response.get("CancellationReasons")


def expect_cancelled(fn, codes, reason_messages=None):
    """fn() must raise TransactionCanceledException with these reason codes (in order).

    reason_messages: optional {index: exact text or list of accepted texts} for reason Messages.
    Returns the ClientError.
    """
    with pytest.raises(ClientError) as info:
        fn()
    exc = info.value
    check_error(exc, TCE, cancel_message(codes))
    reasons = reasons_of(exc)
    assert reasons is not None, "no CancellationReasons in %r" % exc.response
    assert [r.get("Code") for r in reasons] == list(codes)
    for i, r in enumerate(reasons):
        if r.get("Code") == "None":
            assert "Message" not in r and "Item" not in r, r
    for i, msg in (reason_messages or {}).items():
        accepted = [msg] if isinstance(msg, str) else list(msg)
        assert reasons[i].get("Message") in accepted, "reason %d: %r not in %r" % (i, reasons[i], accepted)
    return exc


def coral_regex(old_path, new_path, rule, value_regex=".*"):
    """Full-match regex for a Coral constraint error in the old (value echoed, lowerCamel path)
    and the new (no value, member names as sent) wording."""
    return r"1 validation error detected: (?:Value '%s' at '%s'|Value at '%s') failed to satisfy constraint: %s" % (
        value_regex, re.escape(old_path), re.escape(new_path), re.escape(rule))


def by_table(consumed):
    """ConsumedCapacity list -> {TableName: entry} (the list order is not significant)."""
    out = {}
    for entry in consumed:
        assert entry["TableName"] not in out, "two entries for %s" % entry["TableName"]
        out[entry["TableName"]] = entry
    return out


def batch_get_all(client, request_items, max_rounds=50, **kw):
    """BatchGetItem until UnprocessedKeys is empty; returns ({table: [items]}, [responses])."""
    got, answers = {}, []
    pending = request_items
    for _ in range(max_rounds):
        resp = client.batch_get_item(RequestItems=pending, **kw)
        answers.append(resp)
        assert "UnprocessedKeys" in resp
        for t, items in resp["Responses"].items():
            got.setdefault(t, []).extend(items)
        pending = resp["UnprocessedKeys"]
        if not pending:
            return got, answers
        time.sleep(0.05)
    raise AssertionError("BatchGetItem kept returning UnprocessedKeys")


def batch_write_all(client, request_items, max_rounds=50, **kw):
    """BatchWriteItem until UnprocessedItems is empty; returns the answers."""
    answers = []
    pending = request_items
    for _ in range(max_rounds):
        resp = client.batch_write_item(RequestItems=pending, **kw)
        answers.append(resp)
        assert "UnprocessedItems" in resp
        pending = resp["UnprocessedItems"]
        if not pending:
            return answers
        time.sleep(0.05)
    raise AssertionError("BatchWriteItem kept returning UnprocessedItems")


def key_sorted(items, key=("pk", "sk")):
    """Items sorted by their key attribute values (batch answers have no defined order)."""
    def k(it):
        return tuple(str(it.get(a)) for a in key)
    return sorted(items, key=k)


def pad_item(key, size, name="d"):
    """key + one S attribute `name`, exactly `size` bytes (key values must be S)."""
    base = sum(len(a.encode()) + len(v["S"].encode()) for a, v in key.items()) + len(name)
    assert size >= base
    item = dict(key)
    item[name] = S("x" * (size - base))
    return item


__all__ = ["S", "N", "B", "TCE", "CCF_REASON_MSG", "DUP_TXN", "DUP_BATCH", "KEY_SCHEMA", "EMPTY_S_KEY",
           "NOT_FOUND", "ENUM_RCC", "ENUM_RICM", "ENVELOPE", "cancel_message", "reasons_of", "expect_cancelled",
           "coral_regex", "by_table", "batch_get_all", "batch_write_all", "key_sorted", "pad_item", "error_of"]
