"""Helpers for the test-suite companion's tests (docs/testing-companion.md): calls to the
control endpoints under /dynamod/ (faults, reset, snapshots, consistency), own servers for a
module, and boto3 clients whose retries are counted."""
import json

import boto3
from botocore.config import Config

import dynamo_helpers as h


def control(endpoint, method, path, body=None, sign=False, **kw):
    """(status, parsed JSON or raw text) of one call to /dynamod/<path>; unsigned unless sign."""
    resp = h.raw_request(endpoint, None, body, method=method, path="/dynamod/" + path, sign=sign,
                         content_type="application/json", **kw)
    try:
        return resp.status, json.loads(resp.body) if resp.body else None
    except ValueError:
        return resp.status, resp.body.decode("utf-8", "replace")


def ok(endpoint, method, path, body=None, **kw):
    status, answer = control(endpoint, method, path, body, **kw)
    assert status == 200, "%s /dynamod/%s: HTTP %s %r" % (method, path, status, answer)
    return answer


def add_fault(endpoint, rule):
    return ok(endpoint, "POST", "faults", rule)["id"]


def rules_by_id(endpoint):
    return {r["id"]: r for r in ok(endpoint, "GET", "faults")["rules"]}


def retrying_client(endpoint, mode="standard", total_max_attempts=3):
    """A boto3 client with the SDK's retries on (their count is in ResponseMetadata.RetryAttempts);
    3 attempts in all is the standard mode's default."""
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name=h.REGION,
                        aws_access_key_id=h.DUMMY_KEY, aws_secret_access_key=h.DUMMY_SECRET,
                        config=Config(retries={"mode": mode, "total_max_attempts": total_max_attempts}))


def hash_table(client, name=None, **overrides):
    params = dict(h.HASH_SCHEMA)
    params["BillingMode"] = "PAY_PER_REQUEST"
    params.update(overrides)
    params["TableName"] = name or h.unique_name()
    client.create_table(**params)
    h.wait_active(client, params["TableName"])
    return params["TableName"]
