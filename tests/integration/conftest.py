"""pytest configuration for the dynamod black-box integration suite.

Options:
  --endpoint URL       test an already-running server (dynamod, DynamoDB Local or AWS);
                       default: start our own dynamod for the session.
  --dynamod-bin PATH   the dynamod binary to start (default: build/dynamod in the repo root).
  --target NAME        what the endpoint is: dynamod (default), dynamodb-local or aws.
                       With dynamodb-local, tests marked dynamodb_local_deviation are xfailed.

Every test is written to pass against the real DynamoDB service; where AWS's DynamoDB
Local answers differently the test carries @pytest.mark.dynamodb_local_deviation(reason).
"""
import os
from pathlib import Path

import boto3
import botocore
import pytest

import dynamo_helpers as h

REPO_ROOT = Path(__file__).resolve().parents[2]


def pytest_addoption(parser):
    group = parser.getgroup("dynamod")
    group.addoption("--endpoint", default=None,
                    help="URL of an already-running server; default: start our own dynamod")
    group.addoption("--dynamod-bin", default=str(REPO_ROOT / "build" / "dynamod"),
                    help="dynamod binary (default: build/dynamod in the repo root)")
    group.addoption("--target", default="dynamod", choices=["dynamod", "dynamodb-local", "aws"],
                    help="kind of server behind --endpoint (default dynamod)")


def pytest_report_header(config):
    return ["boto3 %s, botocore %s; endpoint: %s; target: %s" % (
        boto3.__version__, botocore.__version__,
        config.getoption("--endpoint") or "own dynamod (%s)" % config.getoption("--dynamod-bin"),
        config.getoption("--target"))]


def pytest_collection_modifyitems(config, items):
    endpoint = config.getoption("--endpoint")
    target = config.getoption("--target")
    skip_own = pytest.mark.skip(reason="needs its own dynamod process; not possible with --endpoint")
    for item in items:
        if endpoint and item.get_closest_marker("needs_own_server"):
            item.add_marker(skip_own)
        mark = item.get_closest_marker("dynamodb_local_deviation")
        if mark is not None and target == "dynamodb-local":
            reason = mark.args[0] if mark.args else mark.kwargs.get("reason", "DynamoDB Local deviation")
            item.add_marker(pytest.mark.xfail(reason="DynamoDB Local deviation: " + reason, strict=True))


# ---------------------------------------------------------------- server


@pytest.fixture(scope="session")
def target(pytestconfig):
    return pytestconfig.getoption("--target")


@pytest.fixture(scope="session")
def dynamod_bin(pytestconfig):
    return os.path.abspath(pytestconfig.getoption("--dynamod-bin"))


@pytest.fixture(scope="session")
def endpoint(pytestconfig, dynamod_bin, tmp_path_factory):
    """URL of the server under test: --endpoint, or a dynamod started for the session."""
    given = pytestconfig.getoption("--endpoint")
    if given:
        yield given.rstrip("/")
        return
    server = h.DynamodProcess(dynamod_bin, in_memory=True,
                              log_dir=str(tmp_path_factory.mktemp("dynamod-log")))
    server.start()
    try:
        yield server.endpoint
    finally:
        server.stop()


@pytest.fixture(scope="session")
def dynamodb(endpoint, target):
    """boto3 DynamoDB client (us-east-1, dummy credentials, no retries)."""
    return h.make_client(endpoint, target)


@pytest.fixture(scope="session")
def unchecked(endpoint, target):
    """Like `dynamodb` but without botocore's client-side parameter validation."""
    return h.make_client(endpoint, target, parameter_validation=False)


@pytest.fixture(scope="session")
def dynamodb_raw(endpoint, target):
    """raw(op, body, **kw) -> RawResponse: one SigV4-signed (unless sign=False) HTTP request.

    body may be a dict (JSON-encoded), str or bytes; see dynamo_helpers.raw_request.
    """
    def raw(op, body=None, **kw):
        if target == "aws" and "key" not in kw:
            creds = boto3.session.Session().get_credentials()
            if creds is not None:
                frozen = creds.get_frozen_credentials()
                kw.setdefault("key", frozen.access_key)
                kw.setdefault("secret", frozen.secret_key)
                kw.setdefault("token", frozen.token)
        return h.raw_request(endpoint, op, body, **kw)
    return raw


# ---------------------------------------------------------------- tables


class TableFactory:
    def __init__(self, client):
        self.client = client
        self.created = []

    def __call__(self, kind="hash", tag="", wait=True, **overrides):
        """Create a uniquely named table and return its name.

        kind: "hash" (pk S) or "range" (pk S, sk N); overrides replace any CreateTable
        parameter (KeySchema, AttributeDefinitions, BillingMode, indexes ...).
        """
        params = dict(h.HASH_SCHEMA if kind == "hash" else h.RANGE_SCHEMA)
        params["BillingMode"] = "PAY_PER_REQUEST"
        params.update(overrides)
        params.setdefault("TableName", h.unique_name(tag))
        self.client.create_table(**params)
        self.created.append(params["TableName"])
        if wait:
            h.wait_active(self.client, params["TableName"])
        return params["TableName"]

    def cleanup(self):
        for name in self.created:
            try:
                h.drop_table(self.client, name)
            except Exception:  # noqa: BLE001 - best-effort cleanup
                pass


@pytest.fixture
def table(dynamodb):
    """Factory: table(kind="hash"|"range", **CreateTable overrides) -> name; deleted afterwards."""
    factory = TableFactory(dynamodb)
    yield factory
    factory.cleanup()


@pytest.fixture(scope="module")
def hash_table(dynamodb):
    """A hash-only table (pk: S) shared by a module's tests."""
    factory = TableFactory(dynamodb)
    yield factory("hash", tag="h")
    factory.cleanup()


@pytest.fixture(scope="module")
def range_table(dynamodb):
    """A hash+range table (pk: S, sk: N) shared by a module's tests."""
    factory = TableFactory(dynamodb)
    yield factory("range", tag="hr")
    factory.cleanup()


@pytest.fixture(scope="module")
def module_tables(dynamodb):
    """Factory for tables shared by one module's tests: module_tables(kind, **CreateTable overrides) -> name.

    Same arguments as the `table` factory; every table is deleted when the module ends.
    """
    factory = TableFactory(dynamodb)
    yield factory
    factory.cleanup()


# ---------------------------------------------------------------- own servers


@pytest.fixture
def launch_dynamod(dynamod_bin, tmp_path):
    """Factory: launch_dynamod(args=[...], data_dir=None, in_memory=False) -> started DynamodProcess.

    Every process started here is stopped at the end of the test.
    """
    procs = []

    def launch(args=(), data_dir=None, in_memory=False):
        p = h.DynamodProcess(dynamod_bin, args=args, data_dir=data_dir, in_memory=in_memory,
                             log_dir=str(tmp_path))
        procs.append(p)
        return p.start()

    yield launch
    for p in procs:
        try:
            p.stop()
        except AssertionError:
            p.kill9()


@pytest.fixture
def data_dir(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    return str(d)


# ---------------------------------------------------------------- DynamoDB Streams
# (added for test_streams.py / test_ttl.py)


@pytest.fixture(scope="session")
def dynamodbstreams(endpoint, target):
    """boto3 DynamoDB Streams client on the same endpoint (no retries, dummy credentials)."""
    return h.make_streams_client(endpoint, target)


@pytest.fixture(scope="session")
def unchecked_streams(endpoint, target):
    """Like `dynamodbstreams` but without botocore's client-side parameter validation."""
    return h.make_streams_client(endpoint, target, parameter_validation=False)
