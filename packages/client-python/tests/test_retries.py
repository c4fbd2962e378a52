"""Retries of 429 and 503 as `Retry-After` asks, only where a retry cannot act twice; timeouts."""

from __future__ import annotations

import socket
import time
import unittest
import uuid
from email.utils import formatdate
from unittest import mock

from card_statements import (
    ApiConnectionError,
    ApiTimeoutError,
    RateLimitedError,
    ServiceUnavailableError,
    _http,
    create_client,
)

from .stub import StubTest, statement

CUSTOMER = {"customer_id": "cus_1"}
RATE_LIMITED = {"error": {"type": "RATE_LIMITED_ERROR", "message": "Too many requests."}}
UNAVAILABLE = {"error": {"type": "SERVICE_UNAVAILABLE_ERROR", "message": "Storage is busy."}}


class Retries(StubTest):
    def test_a_429_is_retried_after_the_wait_it_asks_for(self) -> None:
        self.stub.reply(429, RATE_LIMITED, headers={"Retry-After": "2"})
        self.stub.reply(200, CUSTOMER)
        self.assertEqual(self.client.customers.retrieve("cus_1").customer_id, "cus_1")
        self.assertEqual(self.waits, [2.0])
        self.assertEqual(len(self.stub.received), 2)

    def test_a_retry_after_date_is_honoured(self) -> None:
        in_ten_seconds = formatdate(time.time() + 10, usegmt=True)
        self.stub.reply(503, UNAVAILABLE, headers={"Retry-After": in_ten_seconds})
        self.stub.reply(200, CUSTOMER)
        self.client.customers.retrieve("cus_1")
        (wait,) = self.waits
        self.assertTrue(8 <= wait <= 10, wait)

    def test_without_retry_after_the_wait_backs_off_exponentially(self) -> None:
        for _ in range(3):
            self.stub.reply(503, UNAVAILABLE)
        self.stub.reply(200, {"data": [statement("st_1")], "has_more": False})
        with mock.patch.object(_http, "_random", return_value=1.0):
            self.assertEqual(len(list(self.client.statements.list("cus_1", "acc_1"))), 1)
        self.assertEqual(self.waits, [0.5, 1.0, 2.0])

    def test_after_the_last_retry_the_error_is_raised(self) -> None:
        for _ in range(4):
            self.stub.reply(503, UNAVAILABLE, headers={"Retry-After": "1"})
        with self.assertRaises(ServiceUnavailableError) as caught:
            self.client.customers.retrieve("cus_1")
        self.assertEqual(len(self.stub.received), 4)
        self.assertEqual(caught.exception.retry_after, 1.0)

    def test_max_retries_is_a_setting(self) -> None:
        client = create_client("sk_test", "2025-05-05", base_url=self.stub.url, max_retries=0)
        self.stub.reply(429, RATE_LIMITED, headers={"Retry-After": "1"})
        with self.assertRaises(RateLimitedError):
            client.customers.retrieve("cus_1")
        self.assertEqual((len(self.stub.received), self.waits), (1, []))

    def test_a_wait_longer_than_allowed_raises_at_once(self) -> None:
        self.stub.reply(429, RATE_LIMITED, headers={"Retry-After": "60"})
        with self.assertRaises(RateLimitedError) as caught:
            self.client.customers.retrieve("cus_1")
        self.assertEqual((caught.exception.retry_after, self.waits), (60.0, []))

    def test_a_write_keeps_its_idempotency_key_across_retries(self) -> None:
        self.stub.reply(503, UNAVAILABLE, headers={"Retry-After": "0"})
        self.stub.reply(200, CUSTOMER)
        self.client.customers.link("cus_1", partner_customer_id="crm-1")
        first, second = self.stub.received
        key = first.headers["idempotency-key"]
        self.assertEqual(uuid.UUID(key).version, 4)
        self.assertEqual(second.headers["idempotency-key"], key)
        self.assertEqual(second.json(), {"partner_customer_id": "crm-1"})

    def test_each_call_gets_a_new_key_unless_one_is_given(self) -> None:
        key = {"key_id": "key_1", "api_key": "sk", "environment": "sandbox", "scopes": []}
        for _ in range(3):
            self.stub.reply(201, {**key, "created_at": "2026-11-25T22:07:01.064Z"})
        self.client.keys.create()
        self.client.keys.create()
        self.client.keys.create(idempotency_key="my-key-1")
        keys = [r.headers["idempotency-key"] for r in self.stub.received]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual(keys[2], "my-key-1")

    def test_a_delete_carries_a_key_and_is_retried_under_it(self) -> None:
        self.stub.reply(503, UNAVAILABLE, headers={"Retry-After": "0"})
        self.stub.reply(204)
        self.client.webhook_endpoints.delete("we_1")
        first, second = self.stub.received
        self.assertEqual(first.headers["idempotency-key"], second.headers["idempotency-key"])

    def test_other_errors_are_not_retried(self) -> None:
        self.stub.reply(500, {"error": {"type": "INTERNAL_ERROR", "message": "x"}})
        with self.assertRaises(Exception):
            self.client.customers.retrieve("cus_1")
        self.assertEqual(len(self.stub.received), 1)


class Timeouts(StubTest):
    def test_a_slow_answer_raises_a_timeout(self) -> None:
        self.stub.reply(200, CUSTOMER, delay=1.0)
        with self.assertRaises(ApiTimeoutError):
            self.client.customers.retrieve("cus_1", timeout=0.1)
        self.assertEqual(self.waits, [])

    def test_the_client_timeout_applies_to_every_call(self) -> None:
        client = create_client("sk_sandbox_test", "2025-05-05", base_url=self.stub.url, timeout=0.1)
        self.stub.reply(200, CUSTOMER, delay=1.0)
        with self.assertRaises(ApiTimeoutError):
            client.customers.retrieve("cus_1")

    def test_an_unreachable_api_is_retried_then_reported(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        client = create_client("sk_sandbox_test", "2025-05-05", base_url=f"http://127.0.0.1:{port}")
        with self.assertRaises(ApiConnectionError) as caught:
            client.customers.retrieve("cus_1")
        self.assertNotIsInstance(caught.exception, ApiTimeoutError)
        self.assertEqual(len(self.waits), 3)


if __name__ == "__main__":
    unittest.main()
