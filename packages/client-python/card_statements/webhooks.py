"""Verifying a webhook delivery per Standard Webhooks (standardwebhooks.com): the HMAC-SHA256 of
`webhook-id.webhook-timestamp.body` under one of your secrets must match one of the `v1,`
signatures, compared in constant time, and the timestamp must be recent, which defeats replays."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from datetime import datetime
from typing import Any, Dict, Iterable, List, Optional, Union

from ._errors import CardStatementsError


# The longest webhook-timestamp read as a number.
MAX_TIMESTAMP_DIGITS = 12


class WebhookVerificationError(CardStatementsError):
    """The delivery is not proven to come from the API: answer it with a 4xx and drop it."""


def verify_webhook(
    secret: Union[str, Iterable[str]],
    headers: Any,
    body: Union[bytes, str],
    *,
    tolerance: float = 300,
    now: Union[float, datetime, None] = None,
) -> Dict[str, Any]:
    """The delivered event (its JSON, as a dict), once its signature and timestamp check out.

    `secret`: the endpoint's `whsec_…` secret, or several (during a secret roll, the new and the
    previous one). `headers`: the delivery's headers, any mapping (names in any case: a dict,
    `http.server`'s `self.headers`, a framework's request headers). `body`: the raw body exactly as
    received, before any JSON parsing. `tolerance`: accepted clock difference, in seconds.

    Raises `WebhookVerificationError` otherwise. De-duplicate on `event_id` (the `webhook-id`):
    delivery is at least once. To get the version's model: `v2026_10_13.Event.from_dict(event)`.
    """
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError(
            "missing webhook-id, webhook-timestamp or webhook-signature header"
        )
    # Unix seconds have 10 digits until the year 2286; a longer value is refused before int()
    # reads it, which raises ValueError past 4,300 digits rather than this module's error.
    if not (timestamp.isascii() and timestamp.isdigit() and len(timestamp) <= MAX_TIMESTAMP_DIGITS):
        raise WebhookVerificationError("invalid webhook-timestamp header")
    if isinstance(now, datetime):
        now = now.timestamp()
    clock = time.time() if now is None else now
    if int(timestamp) < clock - tolerance:
        raise WebhookVerificationError("webhook-timestamp is too old")
    if int(timestamp) > clock + tolerance:
        raise WebhookVerificationError("webhook-timestamp is in the future")
    if isinstance(body, str):
        body = body.encode("utf-8")
    elif not isinstance(body, (bytes, bytearray)):
        raise TypeError("body must be the raw bytes (or text) received, not parsed JSON")
    signed = f"{msg_id}.{timestamp}.".encode() + bytes(body)
    candidates = _signatures(signatures)
    for key in _keys(secret):
        expected = hmac.new(key, signed, hashlib.sha256).digest()
        # Every candidate is compared, in constant time each.
        if any(hmac.compare_digest(expected, given) for given in candidates):
            return json.loads(body)
    raise WebhookVerificationError("no signature matches the secret")


def _header(headers: Any, name: str) -> Optional[str]:
    value = headers.get(name)
    if value is None and hasattr(headers, "items"):
        value = next((v for k, v in headers.items() if str(k).lower() == name), None)
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return value


def _signatures(header: str) -> List[bytes]:
    found = []
    for item in header.split():
        version, _, encoded = item.partition(",")
        if version != "v1":
            continue
        try:
            found.append(base64.b64decode(encoded, validate=True))
        except (binascii.Error, ValueError):
            continue
    return found


def _keys(secret: Union[str, Iterable[str]]) -> List[bytes]:
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets or not all(secrets):
        raise ValueError("a webhook secret is required")
    keys = []
    for text in secrets:
        try:
            keys.append(base64.b64decode(text[6:] if text.startswith("whsec_") else text))
        except (binascii.Error, ValueError) as error:
            raise ValueError("a webhook secret is whsec_ followed by base64") from error
    return keys
