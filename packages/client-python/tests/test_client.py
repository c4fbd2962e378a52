"""The client itself: a version per client (overridable per call), authentication, the product
header, models that keep unknown fields, every route of every version, and Python 3.9 syntax."""

from __future__ import annotations

import ast
import base64
import importlib
import inspect
import json
import pathlib
import unittest

import card_statements
from card_statements import VERSIONS, create_client, latest, v2025_05_05

from .stub import Stub, StubTest, statement

PACKAGE = pathlib.Path(card_statements.__file__).parent


class Requests(StubTest):
    def test_every_request_names_the_clients_version_and_bears_the_key(self) -> None:
        self.stub.reply(200, {"customer_id": "cus_1"})
        self.client.customers.retrieve("cus_1")
        sent = self.stub.received[0].headers
        self.assertEqual(sent["x-service-version"], "2025-05-05")
        self.assertEqual(sent["authorization"], "Bearer sk_sandbox_test")
        self.assertEqual(sent["accept"], "application/json")
        self.assertRegex(sent["user-agent"], r"^card-statements-python/\S+ Python/3\.")

    def test_a_redirect_to_another_host_does_not_carry_the_key(self) -> None:
        elsewhere = Stub()
        self.addCleanup(elsewhere.close)
        elsewhere.reply(200, {"customer_id": "cus_1"})
        self.stub.reply(302, headers={"location": f"{elsewhere.url}/v2/customers/cus_1"})
        self.client.customers.retrieve("cus_1")
        self.assertEqual(self.stub.received[0].headers["authorization"], "Bearer sk_sandbox_test")
        self.assertNotIn("authorization", elsewhere.received[0].headers)
        self.assertEqual(elsewhere.received[0].headers["x-service-version"], "2025-05-05")

    def test_a_redirect_within_the_api_keeps_the_key(self) -> None:
        self.stub.reply(301, headers={"location": f"{self.stub.url}/v2/customers/cus_2"})
        self.stub.reply(200, {"customer_id": "cus_2"})
        self.client.customers.retrieve("cus_1")
        self.assertEqual(self.stub.received[1].path, "/v2/customers/cus_2")
        self.assertEqual(self.stub.received[1].headers["authorization"], "Bearer sk_sandbox_test")

    def test_basic_authentication_sends_the_key_as_username(self) -> None:
        url = f"{self.stub.url}/"  # a trailing slash is dropped
        client = create_client("sk_sandbox_test", "2025-05-05", base_url=url, auth="basic")
        self.stub.reply(200, {"customer_id": "cus_1"})
        client.customers.retrieve("cus_1")
        expected = "Basic " + base64.b64encode(b"sk_sandbox_test:").decode()
        self.assertEqual(self.stub.received[0].headers["authorization"], expected)
        self.assertEqual(self.stub.received[0].path, "/v2/customers/cus_1")

    def test_a_call_can_ask_for_another_version_and_gets_its_models(self) -> None:
        pdf = {"url": "https://x/st_1.pdf", "expires_at": "2026-11-25T23:07:01.064Z"}
        self.stub.reply(200, {"data": [statement("st_1", pdf=pdf)], "has_more": False})
        (item,) = self.client.statements.list("cus_1", "acc_1", version="latest")
        self.assertEqual(self.stub.received[0].headers["x-service-version"], "latest")
        self.assertIsInstance(item, latest.Statement)
        self.assertEqual(item.pdf.url, pdf["url"])

    def test_a_version_this_client_does_not_know_is_sent_and_read_with_its_own_models(self) -> None:
        self.stub.reply(200, {"customer_id": "cus_1", "tier": "gold"})
        customer = self.client.customers.retrieve("cus_1", version="2031-01-01")
        self.assertEqual(self.stub.received[0].headers["x-service-version"], "2031-01-01")
        self.assertIsInstance(customer, v2025_05_05.Customer)
        self.assertEqual(customer.extra, {"tier": "gold"})

    def test_the_product_header_and_with_options(self) -> None:
        travel = self.client.with_options(merchant_key="mk_travel", brand="acme")
        self.stub.reply(200, {"customer_id": "cus_1"}).reply(200, {"customer_id": "cus_1"})
        travel.customers.retrieve("cus_1")
        self.client.customers.retrieve("cus_1")
        first, second = (r.headers for r in self.stub.received)
        self.assertEqual(first["x-acme-merchant-key"], "mk_travel")
        self.assertEqual(first["x-acme-version"], "2025-05-05")
        self.assertNotIn("x-service-merchant-key", second)
        with self.assertRaises(TypeError):
            self.client.with_options(api_key="sk_other")

    def test_ids_are_escaped_into_the_path(self) -> None:
        self.stub.reply(200, {"data": [], "has_more": False})
        list(self.client.statements.list("cus/1 ?", "acc#1"))
        path = self.stub.received[0].path
        self.assertEqual(path, "/v2/customers/cus%2F1%20%3F/accounts/acc%231/statements")

    def test_a_body_is_json_without_the_fields_left_out(self) -> None:
        endpoint = {"webhook_endpoint_id": "we_1", "url": "u", "api_version": "v"}
        endpoint.update({"status": "enabled", "created_at": "t", "secret": "whsec_x"})
        self.stub.reply(201, endpoint)
        endpoint = self.client.webhook_endpoints.create(url="https://hooks.example.com/a")
        received = self.stub.received[0]
        self.assertEqual(received.headers["content-type"], "application/json")
        self.assertEqual(received.json(), {"url": "https://hooks.example.com/a"})
        self.assertEqual(endpoint.secret, "whsec_x")

    def test_a_204_answers_none(self) -> None:
        self.stub.reply(204)
        self.assertIsNone(self.client.webhook_endpoints.delete("we_1"))
        self.assertEqual(self.stub.received[0].method, "DELETE")


class Models(unittest.TestCase):
    def test_fields_the_reference_does_not_name_are_kept(self) -> None:
        # A field a later release may add (the reference names interest_rates now).
        notes = [{"kind": "promotion"}]
        data = statement("st_1", statement_balance=100, cardholder_notes=notes)
        item = v2025_05_05.Statement.from_dict(data)
        self.assertEqual(item.statement_balance, 100)
        self.assertIsNone(item.fees)
        self.assertEqual(item.extra, {"cardholder_notes": notes})
        self.assertEqual(item.to_dict(), data)
        self.assertIn("cardholder_notes", repr(item))
        self.assertNotIn("fees", repr(item))

    def test_nested_objects_are_models_and_round_trip(self) -> None:
        data = {"event_id": "evt_1", "type": "statement.created", "created_at": "t"}
        data["data"] = {"statement": statement("st_1")}
        event = latest.Event.from_dict(data)
        self.assertIsInstance(event.data.statement, latest.Statement)
        self.assertEqual(json.loads(json.dumps(event.to_dict())), data)


class Generated(unittest.TestCase):
    def test_create_client_knows_every_version_and_refuses_others(self) -> None:
        for version in VERSIONS:
            client = create_client("sk", version, base_url="http://127.0.0.1")
            self.assertEqual(client.version, version)
        with self.assertRaisesRegex(ValueError, "2025-05-05"):
            create_client("sk", "1999-01-01", base_url="http://127.0.0.1")

    def test_every_route_of_every_version_is_a_method(self) -> None:
        from card_statements._versions import MODULES

        for version, name in MODULES.items():
            module = importlib.import_module(f"card_statements.{name}")
            client = module.Client("sk", base_url="http://127.0.0.1")
            self.assertGreater(len(module.ROUTES), 0)
            for operation, (method, path, where) in module.ROUTES.items():
                target = client
                for part in where.split("."):
                    target = getattr(target, part)
                with self.subTest(version=version, operation=operation):
                    self.assertTrue(inspect.ismethod(target))
                    self.assertIn(f"`{method} {path}`", " ".join((target.__doc__ or "").split()))

    def test_statements_list_pages_in_every_version(self) -> None:
        from card_statements._versions import MODULES

        for name in MODULES.values():
            module = importlib.import_module(f"card_statements.{name}")
            hint = inspect.signature(module.StatementsResource.list).return_annotation
            self.assertEqual(hint, "Pager[Statement]")


def is_union(node: ast.AST) -> bool:
    """`X | Y`, which a type annotation may use only from Python 3.10 on."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)


class PythonVersion(unittest.TestCase):
    """The package runs on Python 3.9: its syntax, and no `X | Y` types (3.10) in annotations."""

    def test_every_module_parses_as_python_3_9(self) -> None:
        for path in sorted(PACKAGE.glob("*.py")):
            with self.subTest(module=path.name):
                tree = ast.parse(path.read_text(), feature_version=(3, 9))
                annotations = [
                    getattr(n, "annotation", None) or getattr(n, "returns", None)
                    for n in ast.walk(tree)
                    if isinstance(n, (ast.arg, ast.AnnAssign, ast.FunctionDef))
                ]
                unions = [
                    ast.unparse(a)
                    for a in annotations
                    if a is not None and any(is_union(b) for b in ast.walk(a))
                ]
                self.assertEqual(unions, [])


if __name__ == "__main__":
    unittest.main()
