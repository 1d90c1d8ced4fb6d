"""HTTP/1.1 framing as clients produce it on the wire: a request that arrives in pieces,
requests pipelined on one connection, Expect: 100-continue (the JavaScript SDK sends it for
large bodies), and keep-alive across requests. Raw sockets, SigV4-signed headers.
"""
import json
import socket
import time
import urllib.parse

import botocore.auth
import botocore.awsrequest
import botocore.credentials

import dynamo_helpers as h


def signed_request(endpoint, op, body, extra_headers=()):
    """The bytes of one signed POST: (head, body)."""
    url = urllib.parse.urlsplit(endpoint)
    data = json.dumps(body).encode()
    headers = {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op}
    req = botocore.awsrequest.AWSRequest(method="POST", url="%s://%s/" % (url.scheme, url.netloc),
                                         data=data, headers=headers)
    botocore.auth.SigV4Auth(botocore.credentials.Credentials(h.DUMMY_KEY, h.DUMMY_SECRET), "dynamodb",
                            h.REGION).add_auth(req)
    lines = ["POST / HTTP/1.1", "Host: %s" % url.netloc, "Content-Length: %d" % len(data)]
    lines += ["%s: %s" % (k, v) for k, v in req.headers.items() if k.lower() != "host"]
    lines += ["%s: %s" % kv for kv in extra_headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode(), data


class ResponseReader:
    """Reads HTTP/1.1 responses (Content-Length framed) off one socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def _fill(self):
        chunk = self.sock.recv(65536)
        assert chunk, "connection closed by the server"
        self.buffer += chunk

    def read(self):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(status_line.split()[1]), headers, body


def connect(endpoint):
    url = urllib.parse.urlsplit(endpoint)
    sock = socket.create_connection((url.hostname, url.port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def list_tables_ok(status, body):
    assert status == 200, body
    assert "TableNames" in json.loads(body)


# A request whose header and body arrive in several pieces, with pauses between them.
def test_request_in_pieces(endpoint):
    head, body = signed_request(endpoint, "ListTables", {"Limit": 5})
    with connect(endpoint) as sock:
        for piece in (head[:10], head[10:40], head[40:], body[:3], body[3:]):
            sock.sendall(piece)
            time.sleep(0.05)
        status, _, answer = ResponseReader(sock).read()
        list_tables_ok(status, answer)


# Requests pipelined in one send are answered in order on the same connection.
def test_pipelined_requests(endpoint):
    first = b"".join(signed_request(endpoint, "ListTables", {"Limit": 1}))
    second = b"".join(signed_request(endpoint, "DescribeTable", {"TableName": "framing-missing-table"}))
    third = b"".join(signed_request(endpoint, "ListTables", {"Limit": 2}))
    with connect(endpoint) as sock:
        sock.sendall(first + second + third)
        reader = ResponseReader(sock)
        status1, headers1, body1 = reader.read()
        status2, headers2, body2 = reader.read()
        status3, headers3, body3 = reader.read()
    list_tables_ok(status1, body1)
    assert status2 == 400
    assert json.loads(body2)["__type"].endswith("#ResourceNotFoundException")
    list_tables_ok(status3, body3)
    ids = {headers1["x-amzn-requestid"], headers2["x-amzn-requestid"], headers3["x-amzn-requestid"]}
    assert len(ids) == 3


# Expect: 100-continue: the server says 100 Continue after the header, then answers the body.
def test_expect_continue(endpoint):
    head, body = signed_request(endpoint, "ListTables", {}, extra_headers=[("Expect", "100-continue")])
    with connect(endpoint) as sock:
        sock.sendall(head)
        reader = ResponseReader(sock)
        status, _, _ = reader.read()
        assert status == 100
        sock.sendall(body)
        status, _, answer = reader.read()
        list_tables_ok(status, answer)


# Keep-alive: many requests, one connection, each answer complete and framed by Content-Length.
def test_keep_alive_many_requests(endpoint):
    with connect(endpoint) as sock:
        reader = ResponseReader(sock)
        for i in range(50):
            sock.sendall(b"".join(signed_request(endpoint, "ListTables", {"Limit": 1 + i % 5})))
            status, headers, answer = reader.read()
            list_tables_ok(status, answer)
            assert headers["content-type"] == "application/x-amz-json-1.0"
            assert headers["content-length"] == str(len(answer))
