"""Typed errors: a class per error type, from the released versions' flat bodies and from the
envelope of `latest` alike, with the request id."""

from __future__ import annotations

import builtins
import unittest

from card_statements import (
    AccountNotFoundError,
    ApiError,
    ApiNotImplementedError,
    CardStatementsError,
    CustomerNotFoundError,
    ForbiddenError,
    InvalidRequestError,
    NotFoundError,
    UnauthorizedError,
    errors,
)

from .stub import StubTest

REQUEST_ID = {"x-request-id": "87f0bc26-58a1-403c-b699-7b42b01f3b39"}


def envelope(kind: str, message: str = "…", **more: object) -> dict:
    return {"error": {"type": kind, "message": message, **more}}


class ReleasedVersionShapes(StubTest):
    version = "2025-05-05"

    def test_the_flat_invalid_request_error(self) -> None:
        body = {
            "path": "/v2/customers/cus_1/accounts/acc_1/statements",
            "details": ['limit must be a single integer from 1 to 100; got "500"'],
            "error": "Bad Request",
            "status": 400,
            "timestamp": "2026-11-25T22:07:01.064Z",
        }
        self.stub.reply(400, body, headers=REQUEST_ID)
        with self.assertRaises(InvalidRequestError) as caught:
            list(self.client.statements.list("cus_1", "acc_1", limit=500))
        error = caught.exception
        self.assertEqual((error.status, error.type), (400, "INVALID_REQUEST_ERROR"))
        self.assertEqual(error.details, body["details"])
        self.assertEqual(error.message, body["details"][0])
        self.assertEqual(error.request_id, REQUEST_ID["x-request-id"])
        self.assertEqual(error.body, body)
        self.assertIn(REQUEST_ID["x-request-id"], str(error))

    def test_the_flat_customer_not_found_error(self) -> None:
        body = {"type": "CUSTOMER_NOT_FOUND_ERROR", "message": 'No such customer: "cus_x"'}
        body["param"] = "customer_id"
        self.stub.reply(404, body, headers=REQUEST_ID)
        with self.assertRaises(CustomerNotFoundError) as caught:
            list(self.client.statements.list("cus_x", "acc_1"))
        self.assertEqual(caught.exception.param, "customer_id")
        self.assertEqual(caught.exception.message, 'No such customer: "cus_x"')
        self.assertNotIsInstance(caught.exception, AccountNotFoundError)

    def test_an_account_not_found_is_a_customer_not_found(self) -> None:
        body = {"type": "ACCOUNT_NOT_FOUND_ERROR", "message": "No such account"}
        body["param"] = "account_id"
        self.stub.reply(404, body)
        with self.assertRaises(AccountNotFoundError) as caught:
            self.client.accounts.retrieve("cus_1", "acc_x")
        for kind in (CustomerNotFoundError, NotFoundError, ApiError, CardStatementsError):
            self.assertIsInstance(caught.exception, kind)
        self.assertEqual(caught.exception.param, "account_id")

    def test_the_envelope_errors_every_version_shares(self) -> None:
        unauthorized = envelope("UNAUTHORIZED_ERROR", "Missing or invalid API key.")
        self.stub.reply(401, unauthorized, headers=REQUEST_ID)
        with self.assertRaises(UnauthorizedError) as caught:
            self.client.customers.retrieve("cus_1")
        self.assertEqual(caught.exception.request_id, REQUEST_ID["x-request-id"])
        self.stub.reply(403, envelope("FORBIDDEN_ERROR", "forbidden"))
        with self.assertRaises(ForbiddenError):
            list(self.client.orders.list())


class LatestShapes(StubTest):
    version = "latest"

    def test_an_invalid_request_in_the_envelope(self) -> None:
        details = ["limit is wrong", "and more"]
        body = envelope("INVALID_REQUEST_ERROR", "limit is wrong", param="limit", details=details)
        self.stub.reply(400, body)
        with self.assertRaises(InvalidRequestError) as caught:
            list(self.client.statements.list("cus_1", "acc_1", limit=500))
        self.assertEqual(caught.exception.details, ["limit is wrong", "and more"])
        self.assertEqual(caught.exception.param, "limit")

    def test_not_found_errors_in_the_envelope(self) -> None:
        self.stub.reply(404, envelope("CUSTOMER_NOT_FOUND_ERROR", param="customer_id"))
        with self.assertRaises(CustomerNotFoundError):
            list(self.client.statements.list("cus_x", "acc_1"))
        self.stub.reply(404, envelope("ACCOUNT_NOT_FOUND_ERROR", param="account_id"))
        with self.assertRaises(AccountNotFoundError):
            list(self.client.statements.list("cus_1", "acc_x"))

    def test_every_documented_type_has_its_class(self) -> None:
        for kind, cls in errors.ERROR_TYPES.items():
            with self.subTest(kind=kind):
                self.stub.reply(409, envelope(kind, "m"))
                with self.assertRaises(cls) as caught:
                    self.client.customers.retrieve("cus_1")
                self.assertIs(caught.exception.__class__, cls)
                self.assertEqual(caught.exception.type, kind)

    def test_a_type_this_client_does_not_know_gets_its_statuss_class(self) -> None:
        self.stub.reply(404, envelope("LINE_ITEM_NOT_FOUND_ERROR", "gone"))
        with self.assertRaises(NotFoundError) as caught:
            self.client.customers.retrieve("cus_1")
        self.assertEqual(caught.exception.type, "LINE_ITEM_NOT_FOUND_ERROR")
        self.stub.reply(501, envelope("SOMETHING_NEW", "later"))
        with self.assertRaises(ApiNotImplementedError):
            list(self.client.orders.list())

    def test_a_body_that_is_not_json(self) -> None:
        self.stub.reply(502, raw=b"<html>Bad gateway</html>", type="text/html")
        with self.assertRaises(ApiError) as caught:
            self.client.customers.retrieve("cus_1")
        self.assertEqual((caught.exception.status, caught.exception.message), (502, "HTTP 502"))
        self.assertEqual(caught.exception.body, "<html>Bad gateway</html>")


class ErrorClasses(unittest.TestCase):
    def test_no_class_shadows_a_python_builtin(self) -> None:
        for name in errors.__all__:
            self.assertFalse(hasattr(builtins, name), name)

    def test_every_class_is_an_api_error(self) -> None:
        for cls in errors.ERROR_TYPES.values():
            self.assertTrue(issubclass(cls, ApiError), cls)


if __name__ == "__main__":
    unittest.main()
