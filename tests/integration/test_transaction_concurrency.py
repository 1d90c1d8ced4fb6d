"""Transactions under concurrency (works against any endpoint).

For a few seconds, transfer threads move money between accounts with TransactWriteItems (a
condition keeps balances from going negative), other threads make single-item writes to the same
accounts, and reader threads take TransactGetItems snapshots of all accounts. Checked:
- every snapshot is consistent: the balances add up to the initial total and the money sent
  equals the money received (a torn transfer would break both);
- at the end every balance equals the initial one plus the transfers that reported success,
  each applied exactly once (retries reuse the ClientRequestToken where the outcome is unknown).

The real service cancels transactions that meet another ongoing transaction
(TransactionCanceledException with TransactionConflict reasons) and refuses single-item writes to
items of an ongoing transaction (TransactionConflictException); both are retryable and counted.

Catalogue: /work/notes/errors-batch-transact.md ("TransactionConflict").
"""
import random
import threading
import time
import uuid

import dynamo_helpers as h
from batch_txn_helpers import N, S, reasons_of

ACCOUNTS = 8
INITIAL = 1000
DURATION = 3.0
TRANSFER_THREADS = 4
SINGLE_WRITERS = 2
READERS = 2
MAX_ATTEMPTS = 20

# Errors after which the request may be retried. For these the outcome of a TransactWriteItems is
# unknown or it was not applied; the retry keeps the ClientRequestToken so it applies at most once.
RETRYABLE = {"TransactionConflictException", "TransactionInProgressException", "ThrottlingException",
             "ProvisionedThroughputExceededException", "RequestLimitExceeded", "InternalServerError",
             "ServiceUnavailable"}


def acct(i):
    return {"pk": S("ACCOUNT#%d" % i)}


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.applied = []      # (from, to, amount) of transfers that succeeded
        self.torn = []         # inconsistent snapshots
        self.errors = []       # unexpected exceptions

    def bump(self, name, n=1):
        with self.lock:
            self.counts[name] = self.counts.get(name, 0) + n


def classify(exc):
    """'conflict' for retryable conflicts, 'declined' for a failed balance condition, else None."""
    code = h.error_of(exc)[0]
    if code == "TransactionCanceledException":
        codes = [r.get("Code") for r in (reasons_of(exc) or [])]
        if "TransactionConflict" in codes or "ThrottlingError" in codes or "ProvisionedThroughputExceeded" in codes:
            return "conflict"
        if codes and set(codes) <= {"None", "ConditionalCheckFailed"} and "ConditionalCheckFailed" in codes:
            return "declined"
        return None
    if code in RETRYABLE:
        return "retry"
    return None


def transfer_worker(client, table, stats, deadline, seed):
    rnd = random.Random(seed)
    while time.monotonic() < deadline:
        a, b = rnd.sample(range(ACCOUNTS), 2)
        amount = rnd.randint(1, 60)
        token = uuid.uuid4().hex
        items = [
            {"Update": {"TableName": table, "Key": acct(a), "UpdateExpression": "SET balance = balance - :amt ADD sent :amt",
                        "ConditionExpression": "balance >= :amt", "ExpressionAttributeValues": {":amt": N(str(amount))}}},
            {"Update": {"TableName": table, "Key": acct(b), "UpdateExpression": "SET balance = balance + :amt ADD received :amt",
                        "ConditionExpression": "attribute_exists(pk)", "ExpressionAttributeValues": {":amt": N(str(amount))}}},
        ]
        for _ in range(MAX_ATTEMPTS):
            try:
                client.transact_write_items(TransactItems=items, ClientRequestToken=token)
            except h.ClientError as exc:
                kind = classify(exc)
                if kind == "declined":
                    stats.bump("transfers declined (balance too low)")
                    break
                if kind == "conflict":
                    stats.bump("transfers cancelled by a conflict (retried)")
                    token = uuid.uuid4().hex   # cancelled: certainly not applied, a new attempt
                    time.sleep(rnd.uniform(0, 0.01))
                    continue
                if kind == "retry":
                    stats.bump("transfer %s (retried, same token)" % h.error_of(exc)[0])
                    time.sleep(rnd.uniform(0, 0.02))
                    continue
                raise
            with stats.lock:
                stats.applied.append((a, b, amount))
            stats.bump("transfers applied")
            break
        else:
            stats.bump("transfers given up")


def single_writer(client, table, stats, deadline, seed):
    rnd = random.Random(seed)
    while time.monotonic() < deadline:
        i = rnd.randrange(ACCOUNTS)
        try:
            if rnd.random() < 0.5:
                client.update_item(TableName=table, Key=acct(i), UpdateExpression="ADD touches :one",
                                   ExpressionAttributeValues={":one": N("1")})
            else:
                client.update_item(TableName=table, Key=acct(i), UpdateExpression="SET note = :n",
                                   ConditionExpression="attribute_exists(pk)",
                                   ExpressionAttributeValues={":n": S("w%d" % rnd.randrange(1000))})
            stats.bump("single-item writes")
        except h.ClientError as exc:
            if h.error_of(exc)[0] in RETRYABLE:
                stats.bump("single-item write %s (retryable)" % h.error_of(exc)[0])
                time.sleep(rnd.uniform(0, 0.01))
                continue
            raise


def reader(client, table, stats, deadline, seed):
    rnd = random.Random(seed)
    while time.monotonic() < deadline:
        try:
            resp = client.transact_get_items(TransactItems=[{"Get": {"TableName": table, "Key": acct(i)}}
                                                            for i in range(ACCOUNTS)])
        except h.ClientError as exc:
            if classify(exc) in ("conflict", "retry"):
                stats.bump("snapshots cancelled by a conflict (retried)")
                time.sleep(rnd.uniform(0, 0.01))
                continue
            raise
        items = [e["Item"] for e in resp["Responses"]]
        balances = [int(it["balance"]["N"]) for it in items]
        sent = sum(int(it.get("sent", N("0"))["N"]) for it in items)
        received = sum(int(it.get("received", N("0"))["N"]) for it in items)
        stats.bump("snapshots")
        if sum(balances) != ACCOUNTS * INITIAL or sent != received or min(balances) < 0:
            with stats.lock:
                stats.torn.append((balances, sent, received))


def run(fn, *args):
    stats = args[2]
    try:
        fn(*args)
    except BaseException as exc:  # noqa: BLE001 - reported by the test
        with stats.lock:
            stats.errors.append(repr(exc))


def test_transfers_conserve_total(dynamodb, table, endpoint, target):
    t = table("hash", tag="bank")
    dynamodb.transact_write_items(TransactItems=[
        {"Put": {"TableName": t, "Item": dict(acct(i), balance=N(str(INITIAL)))}} for i in range(ACCOUNTS)])
    stats = Stats()
    deadline = time.monotonic() + DURATION
    workers = ([(transfer_worker, i) for i in range(TRANSFER_THREADS)]
               + [(single_writer, 100 + i) for i in range(SINGLE_WRITERS)]
               + [(reader, 200 + i) for i in range(READERS)])
    threads = [threading.Thread(target=run, args=(fn, h.make_client(endpoint, target), t, stats, deadline, seed))
               for fn, seed in workers]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=DURATION + 60)
    assert not any(th.is_alive() for th in threads), "a worker did not finish"
    print("\nconcurrency counters:", dict(sorted(stats.counts.items())))

    assert stats.errors == []
    assert stats.torn == [], "inconsistent snapshots: %r" % stats.torn[:5]
    assert stats.counts.get("transfers applied", 0) > 0
    assert stats.counts.get("snapshots", 0) > 0
    assert stats.counts.get("single-item writes", 0) > 0

    expected = [INITIAL] * ACCOUNTS
    for a, b, amount in stats.applied:
        expected[a] -= amount
        expected[b] += amount
    final = [dynamodb.get_item(TableName=t, Key=acct(i), ConsistentRead=True)["Item"] for i in range(ACCOUNTS)]
    assert [int(it["balance"]["N"]) for it in final] == expected
    assert sum(int(it.get("sent", N("0"))["N"]) for it in final) == sum(x[2] for x in stats.applied)
    assert sum(int(it.get("received", N("0"))["N"]) for it in final) == sum(x[2] for x in stats.applied)
