"""The client every API version's `Client` derives from: requests with authentication, the
version and product headers, an Idempotency-Key on writes, retries of 429 and 503 as Retry-After
asks, timeouts, and answers as the version's models or as typed errors."""

from __future__ import annotations

import base64
import copy
import http.client
import importlib
import json
import platform
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, List, Mapping, Optional, Tuple, TypeVar

from ._errors import ApiConnectionError, ApiTimeoutError, error_from_response, retry_after_seconds
from ._models import plain
from ._paging import Pager

__version__ = "0.1.0"

T = TypeVar("T")

#: Statuses worth another attempt: the request was refused, not run.
RETRY_STATUSES = (429, 503)

PYTHON = platform.python_version()

# Replaced in tests, so that a retry's wait is recorded rather than slept.
_sleep = time.sleep
_random = random.random


class BaseClient:
    """A client of one API version, which every request is made in (each method can override it
    with `version=`). Generated subclasses, one per version, add the routes."""

    #: The version this client was generated from.
    VERSION = ""
    #: The brand word of the header names in the reference (`x-<brand>-version`).
    BRAND = "service"

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str,
        version: Optional[str] = None,
        auth: str = "bearer",
        merchant_key: Optional[str] = None,
        brand: Optional[str] = None,
        timeout: float = 60.0,
        max_retries: int = 3,
        max_retry_wait: float = 30.0,
    ) -> None:
        """`api_key`: `sk_sandbox_…` or `sk_live_…`. `base_url`: e.g. `https://api.example.com`,
        without `/v2`. `version`: the API version to request, by default the one this client was
        generated from. `auth`: `"bearer"` or `"basic"`. `merchant_key`: the product to read when
        the partner has several. `timeout`: seconds to wait for the API at each step (connect,
        each read). `max_retries`: further attempts after a `429`, a `503` or a lost connection,
        for reads and for writes sent with an Idempotency-Key. `max_retry_wait`: the longest wait
        between attempts, in seconds; an API asking for longer gets its error raised instead."""
        if not api_key:
            raise ValueError("api_key is required")
        if auth not in ("bearer", "basic"):
            raise ValueError('auth must be "bearer" or "basic"')
        self.base_url = base_url.rstrip("/")
        self.version = version or self.VERSION
        self.auth = auth
        self.merchant_key = merchant_key
        self.brand = brand or self.BRAND
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self._api_key = api_key

    def __repr__(self) -> str:
        where = f"version={self.version!r} base_url={self.base_url!r}"
        return f"<{type(self).__module__}.Client {where}>"

    def with_options(self: T, **changes: Any) -> T:
        """A copy of this client with other settings: `client.with_options(merchant_key="mk_2")`."""
        clone = copy.copy(self)
        for name, value in changes.items():
            if name.startswith("_") or not hasattr(clone, name) or callable(getattr(clone, name)):
                raise TypeError(f"with_options() got an unexpected setting {name!r}")
            setattr(clone, name, value)
        return clone

    # The generated methods call these two.

    def _request(
        self,
        method: str,
        path: str,
        *,
        path_params: Optional[Mapping[str, Any]] = None,
        query: Optional[Mapping[str, Any]] = None,
        headers: Optional[Mapping[str, Any]] = None,
        body: Optional[Mapping[str, Any]] = None,
        model: Optional[str] = None,
        idempotent: bool = False,
        idempotency_key: Optional[str] = None,
        version: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Any:
        version = version or self.version
        url = self.base_url + _expand(path, path_params or {}) + _query_string(query or {})
        sent = {
            "Accept": "application/json",
            "Authorization": self._authorization(),
            "User-Agent": f"card-statements-python/{__version__} Python/{PYTHON}",
            f"x-{self.brand}-version": version,
        }
        if self.merchant_key is not None:
            sent[f"x-{self.brand}-merchant-key"] = self.merchant_key
        sent.update({k: str(v) for k, v in (headers or {}).items() if v is not None})
        data = None
        if body is not None:
            data = json.dumps({k: plain(v) for k, v in body.items() if v is not None}).encode()
            sent["Content-Type"] = "application/json"
        if idempotent:
            # One key for the call, kept across its retries: a retried write never acts twice.
            sent["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        retryable = method in ("GET", "HEAD") or idempotent
        status, got, raw = self._send(method, url, data, sent, timeout or self.timeout, retryable)
        payload = _decode(raw)
        if not 200 <= status < 300:
            raise error_from_response(status, got, payload)
        if model is None or not isinstance(payload, dict):
            return payload
        return getattr(self._models(version), model).from_dict(payload)

    def _page(
        self,
        path: str,
        *,
        path_params: Mapping[str, Any],
        query: Mapping[str, Any],
        model: str,
        item_id: Optional[str] = None,
        version: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Pager[Any]:
        def fetch(cursor: Optional[str]) -> Any:
            return self._request(
                "GET",
                path,
                path_params=path_params,
                query={**query, "starting_after": cursor},
                model=model,
                version=version,
                timeout=timeout,
            )

        return Pager(fetch, query.get("starting_after"), item_id)

    def _authorization(self) -> str:
        if self.auth == "basic":
            return "Basic " + base64.b64encode(f"{self._api_key}:".encode()).decode()
        return f"Bearer {self._api_key}"

    def _models(self, version: str) -> Any:
        """The module whose models shape an answer of `version`: that version's, when this
        client knows it, else this client's own (whose models keep any field they do not know)."""
        from ._versions import MODULES

        name = MODULES.get(version)
        return importlib.import_module(f"{__package__}.{name}" if name else type(self).__module__)

    def _send(
        self,
        method: str,
        url: str,
        data: Optional[bytes],
        headers: Dict[str, str],
        timeout: float,
        retryable: bool,
    ) -> Tuple[int, Dict[str, str], bytes]:
        """Status, headers (lower-case names) and body of the answer, after the retries."""
        attempt = 0
        while True:
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            wait: Optional[float] = None
            try:
                with _OPENER.open(request, timeout=timeout) as response:
                    return response.status, _headers(response.headers), response.read()
            except urllib.error.HTTPError as error:
                got = _headers(error.headers)
                raw = error.read()
                error.close()
                if not (retryable and error.code in RETRY_STATUSES and attempt < self.max_retries):
                    return error.code, got, raw
                wait = retry_after_seconds(got.get("retry-after"))
                if wait is not None and wait > self.max_retry_wait:
                    return error.code, got, raw
            except socket.timeout as error:
                raise ApiTimeoutError(f"{method} {url}: no answer within {timeout} s") from error
            except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
                reason = getattr(error, "reason", error)
                if isinstance(reason, socket.timeout):
                    message = f"{method} {url}: no answer within {timeout} s"
                    raise ApiTimeoutError(message) from error
                if not (retryable and attempt < self.max_retries):
                    raise ApiConnectionError(f"{method} {url}: {reason}") from error
            if wait is None:
                # Exponential backoff with full jitter: 0.5 s, 1 s, 2 s… ceilings.
                wait = _random() * min(self.max_retry_wait, 0.5 * 2**attempt)
            _sleep(wait)
            attempt += 1


class Resource:
    """A group of routes (`client.statements`, …), bound to its client."""

    def __init__(self, client: BaseClient) -> None:
        self._client = client


def _origin(url: str) -> Tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


class _KeyStaysHome(urllib.request.HTTPRedirectHandler):
    """Follows redirects as urllib does, except that the API key never leaves the origin it was
    sent to: urllib copies every header to the redirect's target, whichever host that is."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        followed = super().redirect_request(req, fp, code, msg, headers, newurl)
        if followed is not None and _origin(followed.full_url) != _origin(req.full_url):
            followed.remove_header("Authorization")
        return followed


_OPENER = urllib.request.build_opener(_KeyStaysHome)


def _expand(path: str, params: Mapping[str, Any]) -> str:
    for name, value in params.items():
        path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
    return path


def _query_string(query: Mapping[str, Any]) -> str:
    pairs: List[Tuple[str, str]] = []
    for name, value in query.items():
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if item is not None:
                pairs.append((name, str(item).lower() if isinstance(item, bool) else str(item)))
    return "?" + urllib.parse.urlencode(pairs) if pairs else ""


def _headers(message: Any) -> Dict[str, str]:
    return {k.lower(): v for k, v in message.items()} if message is not None else {}


def _decode(raw: bytes) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return text
