"""Webhook verification per Standard Webhooks, against the test vectors of its reference
libraries (standard-webhooks/standard-webhooks, libraries/*/tests: the same secret, message,
timestamp and signature in the JavaScript package `standardwebhooks` and the Python one; the
signature was checked here with `standardwebhooks` 1.1 `Webhook.sign`)."""

from __future__ import annotations

import base64
import email
import hashlib
import hmac
import json
import unittest
from datetime import datetime, timezone

from card_statements import WebhookVerificationError, verify_webhook

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
PAYLOAD = '{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
# One bit off the signature above.
NEAR_MISS = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA="
# Signatures beside the valid one in the vectors' multi-signature case.
OTHERS = "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc="


def headers(**changes: str) -> dict:
    sent = {"webhook-id": MSG_ID, "webhook-timestamp": str(TIMESTAMP)}
    sent["webhook-signature"] = SIGNATURE
    sent.update({k.replace("_", "-"): v for k, v in changes.items()})
    return sent


class Vectors(unittest.TestCase):
    def test_the_reference_signature_verifies(self) -> None:
        event = verify_webhook(SECRET, headers(), PAYLOAD, now=TIMESTAMP)
        self.assertEqual(event, {"test": 2432232314})

    def test_the_secret_works_with_and_without_its_prefix(self) -> None:
        event = verify_webhook(SECRET[6:], headers(), PAYLOAD, now=TIMESTAMP)
        self.assertEqual(event["test"], 2432232314)

    def test_a_signature_one_bit_off_fails(self) -> None:
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, headers(webhook_signature=NEAR_MISS), PAYLOAD, now=TIMESTAMP)

    def test_one_valid_signature_among_several_verifies(self) -> None:
        several = " ".join([OTHERS, OTHERS.replace("v1,", "v2,"), SIGNATURE, OTHERS])
        event = verify_webhook(SECRET, headers(webhook_signature=several), PAYLOAD, now=TIMESTAMP)
        self.assertEqual(event, {"test": 2432232314})

    def test_invalid_and_partial_signatures_fail(self) -> None:
        wrong = ["v1,dawfeoifkpqwoekfpqoekf", SIGNATURE[:8], "v1,", "v2," + SIGNATURE[3:], OTHERS]
        for signature in wrong:
            with self.subTest(signature=signature), self.assertRaises(WebhookVerificationError):
                verify_webhook(SECRET, headers(webhook_signature=signature), PAYLOAD, now=TIMESTAMP)

    def test_missing_headers_fail(self) -> None:
        for name in ["webhook-id", "webhook-timestamp", "webhook-signature"]:
            sent = headers()
            del sent[name]
            with self.subTest(missing=name), self.assertRaises(WebhookVerificationError):
                verify_webhook(SECRET, sent, PAYLOAD, now=TIMESTAMP)

    def test_an_invalid_timestamp_fails(self) -> None:
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, headers(webhook_timestamp="hello"), PAYLOAD, now=TIMESTAMP)

    def test_a_timestamp_too_long_to_be_one_fails_as_invalid(self) -> None:
        # int() itself refuses a string of over 4,300 digits with ValueError.
        for digits in ["1" * 13, "1" * 4300, "9" * 100_000]:
            with self.subTest(length=len(digits)), self.assertRaisesRegex(
                WebhookVerificationError, "invalid webhook-timestamp"
            ):
                verify_webhook(SECRET, headers(webhook_timestamp=digits), PAYLOAD, now=TIMESTAMP)

    def test_a_timestamp_beyond_five_minutes_fails_either_way(self) -> None:
        with self.assertRaisesRegex(WebhookVerificationError, "too old"):
            verify_webhook(SECRET, headers(), PAYLOAD, now=TIMESTAMP + 301)
        with self.assertRaisesRegex(WebhookVerificationError, "future"):
            verify_webhook(SECRET, headers(), PAYLOAD, now=TIMESTAMP - 301)
        verify_webhook(SECRET, headers(), PAYLOAD, now=TIMESTAMP + 300)
        earlier = datetime.fromtimestamp(TIMESTAMP - 300, timezone.utc)
        verify_webhook(SECRET, headers(), PAYLOAD, now=earlier)

    def test_the_clock_defaults_to_now(self) -> None:
        with self.assertRaisesRegex(WebhookVerificationError, "too old"):
            verify_webhook(SECRET, headers(), PAYLOAD)


class Deliveries(unittest.TestCase):
    """Deliveries as the service signs them: its body, its headers, in any container."""

    body = json.dumps({"event_id": "evt_1", "type": "statement.created", "data": {"statement": {}}})
    key = base64.b64decode(SECRET[6:])

    def sign(self, body: str, key: bytes = b"") -> dict:
        mac = hmac.new(key or self.key, f"evt_1.{TIMESTAMP}.{body}".encode(), hashlib.sha256)
        return {
            "Webhook-Id": "evt_1",
            "Webhook-Timestamp": str(TIMESTAMP),
            "Webhook-Signature": "v1," + base64.b64encode(mac.digest()).decode(),
        }

    def test_a_body_as_bytes_or_text_and_headers_in_any_case(self) -> None:
        signed = self.sign(self.body)
        event = verify_webhook(SECRET, signed, self.body.encode(), now=TIMESTAMP)
        self.assertEqual(event["event_id"], "evt_1")
        message = email.message_from_string("".join(f"{k}: {v}\n" for k, v in signed.items()))
        event = verify_webhook(SECRET, message, self.body, now=TIMESTAMP)
        self.assertEqual(event["type"], "statement.created")

    def test_a_tampered_body_or_id_fails(self) -> None:
        signed = self.sign(self.body)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, signed, self.body.replace("evt_1", "evt_2"), now=TIMESTAMP)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, {**signed, "Webhook-Id": "evt_2"}, self.body, now=TIMESTAMP)

    def test_during_a_secret_roll_either_secret_verifies(self) -> None:
        new = "whsec_" + base64.b64encode(b"n" * 32).decode()
        signed = self.sign(self.body, key=b"n" * 32)
        self.assertTrue(verify_webhook([SECRET, new], signed, self.body, now=TIMESTAMP))
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, signed, self.body, now=TIMESTAMP)

    def test_parsed_json_is_refused(self) -> None:
        with self.assertRaises(TypeError):
            verify_webhook(SECRET, self.sign(self.body), json.loads(self.body), now=TIMESTAMP)


if __name__ == "__main__":
    unittest.main()
