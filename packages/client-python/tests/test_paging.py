"""Auto-pagination: statements and events page by signed token, the other lists by the last id."""

from __future__ import annotations

import unittest
from urllib.parse import parse_qs, urlsplit

from card_statements import Pager, v2025_05_05

from .stub import StubTest, statement

PATH = "/v2/customers/cus_1/accounts/acc_1/statements"


def query(path: str) -> dict:
    return {k: v[0] for k, v in parse_qs(urlsplit(path).query).items()}


def page(*items: dict, token: str = "") -> dict:
    """A list's page: more to come when it carries a token."""
    more = {"next_page_token": token} if token else {}
    return {"data": list(items), "has_more": bool(token), **more}


class TokenPaging(StubTest):
    def test_walks_every_page_by_next_page_token(self) -> None:
        self.stub.reply(200, page(statement("st_3"), statement("st_2"), token="tok_1"))
        self.stub.reply(200, page(statement("st_1")))
        ids = [s.statement_id for s in self.client.statements.list("cus_1", "acc_1", limit=2)]
        self.assertEqual(ids, ["st_3", "st_2", "st_1"])
        first, second = self.stub.received
        self.assertEqual(urlsplit(first.path).path, PATH)
        self.assertEqual(query(first.path), {"limit": "2"})
        self.assertEqual(query(second.path), {"limit": "2", "starting_after": "tok_1"})

    def test_items_are_the_versions_models(self) -> None:
        self.stub.reply(200, page(statement("st_1", pdf_url="https://x/1.pdf")))
        (item,) = list(self.client.statements.list("cus_1", "acc_1"))
        self.assertIsInstance(item, v2025_05_05.Statement)
        self.assertEqual(item.pdf_url, "https://x/1.pdf")

    def test_fetches_nothing_until_iterated_and_each_page_only_when_needed(self) -> None:
        pager = self.client.statements.list("cus_1", "acc_1")
        self.assertIsInstance(pager, Pager)
        self.assertEqual(self.stub.received, [])
        self.stub.reply(200, page(statement("st_2"), token="t"))
        self.assertEqual(next(iter(pager)).statement_id, "st_2")
        self.assertEqual(len(self.stub.received), 1)

    def test_pages_gives_the_pages_themselves(self) -> None:
        self.stub.reply(200, page(statement("st_2"), token="t"))
        self.stub.reply(200, page(statement("st_1")))
        pages = list(self.client.statements.list("cus_1", "acc_1").pages())
        self.assertEqual([p.has_more for p in pages], [True, False])
        self.assertEqual(pages[0].next_page_token, "t")
        self.assertIsInstance(pages[0], v2025_05_05.StatementList)

    def test_resumes_from_a_token_and_keeps_the_filters(self) -> None:
        self.stub.reply(200, page())
        gte = "2026-01-01T00:00:00Z"
        statements = self.client.statements.list(
            "cus_1", "acc_1", starting_after="tok_9", period_end_date_gte=gte
        )
        list(statements)
        sent = query(self.stub.received[0].path)
        self.assertEqual(sent, {"starting_after": "tok_9", "period_end_date_gte": gte})

    def test_stops_when_more_is_announced_without_a_cursor(self) -> None:
        self.stub.reply(200, {**page(statement("st_1")), "has_more": True})
        self.assertEqual(len(list(self.client.statements.list("cus_1", "acc_1"))), 1)
        self.assertEqual(len(self.stub.received), 1)

    def test_an_empty_list_is_one_request(self) -> None:
        self.stub.reply(200, page())
        self.assertEqual(list(self.client.events.list()), [])
        self.assertEqual(len(self.stub.received), 1)


class IdPaging(StubTest):
    def test_pages_by_the_last_objects_id(self) -> None:
        account = {"customer_id": "cus_1", "as_of": "2026-11-25T22:07:01.064Z"}
        first = page({"account_id": "acc_a", **account}, {"account_id": "acc_b", **account})
        self.stub.reply(200, {**first, "has_more": True})
        self.stub.reply(200, page({"account_id": "acc_c", **account}))
        ids = [a.account_id for a in self.client.accounts.list("cus_1", limit=2)]
        self.assertEqual(ids, ["acc_a", "acc_b", "acc_c"])
        sent = query(self.stub.received[1].path)
        self.assertEqual(sent, {"limit": "2", "starting_after": "acc_b"})

    def test_delivery_attempts_page_by_attempt_id(self) -> None:
        attempt = {"event_id": "evt_1", "webhook_endpoint_id": "we_1", "attempted_at": "t"}
        attempt.update({"attempt_id": "att_1", "duration_ms": 3, "status": "failed"})
        self.stub.reply(200, {**page(attempt), "has_more": True})
        self.stub.reply(200, page())
        attempts = self.client.delivery_attempts.list("evt_1")
        self.assertEqual([a.attempt_id for a in attempts], ["att_1"])
        path = self.stub.received[1].path
        self.assertEqual(path, "/v2/events/evt_1/delivery_attempts?starting_after=att_1")


if __name__ == "__main__":
    unittest.main()
