"""A scripted API on 127.0.0.1 for unit tests: it answers the responses queued on it, in order,
and records every request it received."""

from __future__ import annotations

import json
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, NamedTuple, Optional
from unittest import mock

from card_statements import _http, create_client


class Received(NamedTuple):
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Stub:
    def __init__(self) -> None:
        self.received: List[Received] = []
        self._answers: List[Dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                stub.received.append(Received(self.command, self.path, headers, body))
                answer = stub._answers.pop(0) if stub._answers else {"status": 599}
                time.sleep(answer.get("delay", 0))
                raw = answer.get("raw")
                if raw is None and answer.get("json") is not None:
                    raw = json.dumps(answer["json"]).encode()
                self.send_response(answer["status"])
                for name, value in answer.get("headers", {}).items():
                    self.send_header(name, value)
                if raw is not None:
                    self.send_header("content-type", answer.get("type", "application/json"))
                self.send_header("content-length", str(len(raw or b"")))
                self.end_headers()
                self.wfile.write(raw or b"")

            do_GET = do_POST = do_PUT = do_DELETE = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()

    def reply(
        self,
        status: int = 200,
        json: Any = None,
        *,
        headers: Optional[Dict[str, str]] = None,
        raw: Optional[bytes] = None,
        type: str = "application/json",
        delay: float = 0,
    ) -> "Stub":
        """Queues the next answer."""
        answer = {"status": status, "json": json, "headers": headers or {}, "raw": raw}
        self._answers.append({**answer, "type": type, "delay": delay})
        return self

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def statement(statement_id: str, **fields: Any) -> Dict[str, Any]:
    """A statement as the API answers it."""
    return {
        "statement_id": statement_id,
        "customer_id": "cus_1",
        "account_id": "acc_1",
        "as_of": "2026-11-25T22:07:01.064Z",
        **fields,
    }


class StubTest(unittest.TestCase):
    """A test with a Stub, a client of `version` talking to it, and retries that record their
    waits (`self.waits`) instead of sleeping."""

    version = "2025-05-05"

    def setUp(self) -> None:
        self.stub = Stub()
        self.addCleanup(self.stub.close)
        self.client = create_client("sk_sandbox_test", self.version, base_url=self.stub.url)
        sleep = mock.patch.object(_http, "_sleep")
        self.sleep = sleep.start()
        self.addCleanup(sleep.stop)

    @property
    def waits(self) -> List[float]:
        return [c.args[0] for c in self.sleep.call_args_list]
