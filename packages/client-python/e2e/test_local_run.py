"""The Python client against the local run (`npm start`), end to end over HTTP: every demo
statement walked in every API version, each error type the partner routes answer on a local run
provoked, and a webhook delivered to a loopback receiver and verified by the guide's handler.

test/e2e/python-client.test.ts starts the local run and names, in CARD_STATEMENTS_E2E, a JSON file
with its base URL, the demo keys, the operator token and the demo's accounts and statements."""

from __future__ import annotations

import importlib
import json
import os
import pathlib
import re
import threading
import time
import unittest
import urllib.request
import uuid
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List

from card_statements import (
    VERSIONS,
    AccountNotFoundError,
    BadRequestError,
    CustomerNotFoundError,
    ForbiddenError,
    IdempotencyKeyReusedError,
    InvalidRequestError,
    NotFoundError,
    RateLimitedError,
    UnauthorizedError,
    WebhookVerificationError,
    create_client,
    verify_webhook,
)
from card_statements._versions import MODULES

if "CARD_STATEMENTS_E2E" not in os.environ:
    raise RuntimeError("run by test/e2e/python-client.test.ts, which starts the local run")
DEMO = json.loads(pathlib.Path(os.environ["CARD_STATEMENTS_E2E"]).read_text())
BASE: str = DEMO["base_url"]
KEYS: Dict[str, str] = DEMO["keys"]
SANDBOX_KEY = KEYS["demo_key"]
GUIDE = pathlib.Path(__file__).resolve().parents[3] / "docs" / "python-client.md"
FIGURES = [
    "currency",
    "statement_balance",
    "minimum_due",
    "previous_balance",
    "purchases",
    "payments",
    "credits",
    "refunds",
    "interest",
    "fees",
    "overdue_amount",
]


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def client(version: str = "2026-10-13", key: str = SANDBOX_KEY, **settings: Any) -> Any:
    return create_client(key, version, base_url=BASE, **settings)


def readable(version: str, account: Dict[str, Any]) -> bool:
    """Whether the account's key may ask for the version: `latest` is for sandbox keys only."""
    return version != "latest" or account["environment"] == "sandbox"


def newest_first(statements: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The list's order: `period_end_date`, then `statement_id`, descending."""
    return sorted(
        statements, key=lambda s: (instant(s["period_end_date"]), s["statement_id"]), reverse=True
    )


class DemoStatements(unittest.TestCase):
    def test_every_demo_statement_in_every_version(self) -> None:
        walked = 0
        for version in VERSIONS:
            for account in filter(lambda a: readable(version, a), DEMO["accounts"]):
                with self.subTest(version=version, account=account["account_id"]):
                    walked += self.walk(version, account)
        expected = sum(
            len(a["statements"]) for v in VERSIONS for a in DEMO["accounts"] if readable(v, a)
        )
        self.assertEqual(walked, expected)

    def walk(self, version: str, account: Dict[str, Any]) -> int:
        """Every statement of the account through the client, checked against the import."""
        reader = client(version, KEYS[account["key"]], merchant_key=account["merchant_key"])
        got = list(reader.statements.list(account["customer_id"], account["account_id"]))
        expected = newest_first(account["statements"])
        self.assertEqual([s.statement_id for s in got], [s["statement_id"] for s in expected])
        for statement, imported in zip(got, expected):
            self.assertEqual(statement.customer_id, account["customer_id"])
            for figure in FIGURES:
                self.assertEqual(getattr(statement, figure), imported.get(figure), figure)
            for date in ("period_start_date", "period_end_date", "due_date"):
                self.assertEqual(instant(getattr(statement, date)), instant(imported[date]))
            # The version's own shape: a PDF link string, or `latest`'s object.
            link = statement.pdf.url if version == "latest" else statement.pdf_url
            self.assertRegex(link, r"^http://localhost:\d+/files/statements/")
            self.assertEqual(statement.extra, {})
        return len(got)

    def test_a_statements_pdf_link_serves_the_document(self) -> None:
        statements = client("2025-05-05").statements.list("cus_demo_ava", "acc_demo_everyday")
        newest = next(iter(statements))
        with urllib.request.urlopen(newest.pdf_url, timeout=30) as response:
            self.assertEqual(response.headers["content-type"], "application/pdf")
            self.assertEqual(response.read(5), b"%PDF-")

    def test_pages_one_at_a_time_carry_the_token(self) -> None:
        reader = client(auth="basic")
        pages = reader.statements.list("cus_demo_ava", "acc_demo_everyday", limit=10).pages()
        first = next(pages)
        self.assertEqual((len(first.data), first.has_more), (10, True))
        self.assertTrue(first.next_page_token)
        self.assertNotEqual(next(pages).data[0].statement_id, first.data[-1].statement_id)

    def test_accounts_and_customers_page_by_id(self) -> None:
        reader = client()
        accounts = [a.account_id for a in reader.accounts.list("cus_demo_ava", limit=1)]
        demo = [a["account_id"] for a in DEMO["accounts"] if a["customer_id"] == "cus_demo_ava"]
        self.assertEqual(accounts, sorted(demo))
        customers = [c.customer_id for c in reader.customers.list(limit=1)]
        self.assertIn("cus_demo_ava", customers)
        self.assertEqual(customers, sorted(customers))
        ava = reader.customers.retrieve("cus_demo_ava")
        self.assertEqual(ava.authorized_users[0].name, "Sam Thompson")


class Errors(unittest.TestCase):
    """Each error type a partner route answers on a healthy local run. (IDEMPOTENCY_KEY_IN_USE,
    CONFLICT, SERVICE_UNAVAILABLE and INTERNAL need a race or an outage: the unit tests cover
    them.)"""

    def test_invalid_requests_in_each_versions_shape(self) -> None:
        for version in VERSIONS:
            with self.subTest(version=version):
                reader = client(version)
                with self.assertRaises(InvalidRequestError) as caught:
                    list(reader.statements.list("cus_demo_ava", "acc_demo_everyday", limit=500))
                error = caught.exception
                self.assertEqual((error.status, error.type), (400, "INVALID_REQUEST_ERROR"))
                self.assertRegex(error.details[0], "limit")
                self.assertTrue(error.request_id)
                # Released versions answer the flat shape, `latest` the envelope.
                self.assertIn("error" if version == "latest" else "path", error.body)
                forged = reader.statements.list(
                    "cus_demo_ava", "acc_demo_everyday", starting_after="forged"
                )
                with self.assertRaises(InvalidRequestError):
                    list(forged)

    def test_customer_and_account_not_found_in_each_version(self) -> None:
        for version in VERSIONS:
            with self.subTest(version=version):
                reader = client(version)
                with self.assertRaises(CustomerNotFoundError) as caught:
                    list(reader.statements.list("cus_nobody", "acc_demo_everyday"))
                self.assertNotIsInstance(caught.exception, AccountNotFoundError)
                self.assertEqual(caught.exception.param, "customer_id")
                with self.assertRaises(AccountNotFoundError) as caught:
                    reader.accounts.retrieve("cus_demo_ava", "acc_nw_lena")
                self.assertEqual(caught.exception.param, "account_id")
                self.assertEqual(caught.exception.status, 404)

    def test_an_unsupported_version_is_a_bad_request(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            client().customers.retrieve("cus_demo_ava", version="2024-01-01")
        self.assertIn(", ".join(VERSIONS), caught.exception.message)
        with self.assertRaises(BadRequestError):
            next(client("latest", KEYS["demo_live_key"]).customers.list().pages())

    def test_several_products_need_the_product_header(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            list(client(key=KEYS["northwind_key"]).statements.list("cus_nw_lena", "acc_nw_lena"))
        self.assertEqual(caught.exception.param, "x-service-merchant-key")

    def test_a_key_without_the_scope_is_forbidden(self) -> None:
        with self.assertRaises(ForbiddenError) as caught:
            list(client().orders.list())
        self.assertEqual(caught.exception.message, "forbidden")

    def test_an_unknown_event_is_not_found(self) -> None:
        with self.assertRaises(NotFoundError) as caught:
            client().events.retrieve("evt_nobody")
        self.assertEqual(caught.exception.type, "NOT_FOUND_ERROR")

    def test_an_accounts_rewards_categories_are_its_products(self) -> None:
        categories = client().rewards_categories.list("cus_demo_ava", "acc_demo_everyday")
        self.assertEqual(
            [(c.category_id, c.earn_rate, c.earn_unit) for c in categories.data],
            [
                ("dining", "3", "POINTS_PER_DOLLAR"),
                ("groceries", "2", "POINTS_PER_DOLLAR"),
                ("everything_else", "1", "POINTS_PER_DOLLAR"),
            ],
        )
        self.assertFalse(categories.has_more)

    def test_an_idempotency_key_replays_its_request_and_refuses_another(self) -> None:
        writer = client()
        key = f"python-e2e-{uuid.uuid4()}"
        first = writer.keys.create(name="python e2e", idempotency_key=key)
        replayed = writer.keys.create(name="python e2e", idempotency_key=key)
        self.assertEqual(replayed.key_id, first.key_id)
        with self.assertRaises(IdempotencyKeyReusedError) as caught:
            writer.keys.create(name="another", idempotency_key=key)
        self.assertEqual(caught.exception.status, 422)

    def test_bad_keys_are_unauthorized_then_rate_limited(self) -> None:
        bad = client(key="sk_sandbox_" + "0" * 38)
        seen: List[type] = []
        for _ in range(60):
            try:
                next(bad.customers.list().pages())
            except UnauthorizedError:
                seen.append(UnauthorizedError)
            except RateLimitedError as error:
                # Retry-After asks for longer than the client waits: raised at once.
                self.assertGreater(error.retry_after, 30)
                seen.append(RateLimitedError)
                break
        self.assertEqual(seen[0], UnauthorizedError)
        self.assertEqual(seen[-1], RateLimitedError)


class Webhooks(unittest.TestCase):
    def test_a_delivered_event_is_verified_by_the_guides_handler(self) -> None:
        deliveries: List[Dict[str, Any]] = []
        printed: List[str] = []
        guide: Dict[str, Any] = {"print": lambda *a: printed.append(" ".join(map(str, a)))}

        class Receiver(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                status = guide["handle_delivery"](self.headers, body)
                headers = dict(self.headers.items())
                deliveries.append({"headers": headers, "body": body, "answered": status})
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)

        sandbox = client("2026-10-13")
        url = f"http://127.0.0.1:{server.server_address[1]}/webhooks"
        endpoint = sandbox.webhook_endpoints.create(url=url, description="Python client e2e")
        self.addCleanup(sandbox.webhook_endpoints.delete, endpoint.webhook_endpoint_id)
        os.environ["WEBHOOK_SECRET"] = endpoint.secret
        exec(guide_snippet("webhook handler"), guide)

        customer = sandbox.simulations.customers.create()
        account_id = customer.accounts[0].account_id
        closed = sandbox.simulations.statements.create(
            customer_id=customer.customer_id, account_id=account_id, purchases=12500
        )
        about = closed.statement_id.encode()
        delivery = wait_for(lambda: next((d for d in deliveries if about in d["body"]), None))
        self.assertEqual(delivery["answered"], 200)
        event = verify_webhook(endpoint.secret, delivery["headers"], delivery["body"])
        models = importlib.import_module(f"card_statements.{MODULES[endpoint.api_version]}")
        typed = models.Event.from_dict(event)
        self.assertEqual(typed.type, "statement.created")
        self.assertEqual(typed.data.statement.statement_id, closed.statement_id)
        self.assertEqual(typed.data.statement.purchases, 12500)
        self.assertIn(f"statement.created {closed.statement_id}", printed)
        # The same event, read back; and a body changed on the way is refused.
        self.assertEqual(sandbox.events.retrieve(typed.event_id).type, "statement.created")
        changed = delivery["body"].replace(b"12500", b"1")
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(endpoint.secret, delivery["headers"], changed)
        self.assertEqual(guide["handle_delivery"](delivery["headers"], changed), 400)


def guide_snippet(name: str) -> str:
    """The Python block under `<!-- name -->` in docs/python-client.md."""
    found = re.search(rf"<!-- {name} -->\n```python\n(.*?)```", GUIDE.read_text(), re.S)
    if not found:
        raise AssertionError(f"docs/python-client.md has no <!-- {name} --> python block")
    return found.group(1)


def wait_for(find: Any, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = find()
        if found is not None:
            return found
        time.sleep(0.1)
    raise AssertionError(f"nothing arrived within {seconds} s")


if __name__ == "__main__":
    unittest.main()
