"""What every API version's client shares: requests with authentication, retries and timeouts,
auto-pagination, models that keep the fields they do not know, and errors read from any error body.

The generated modules (one per API version) hold the models and the routes; this one holds the
machinery, so that a version's module is only what its reference says.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import email.utils
import http.client
import importlib
import json
import platform
import random
import socket
import time
import typing
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import (
    Any,
    Callable,
    Dict,
    Generic,
    Iterator,
    List,
    Mapping,
    Optional,
    Tuple,
    Type,
    TypeVar,
    Union,
)

__version__ = "0.1.0"

T = TypeVar("T")
M = TypeVar("M", bound="Model")

#: Statuses worth another attempt: the request was refused, not run.
RETRY_STATUSES = (429, 503)

#: The class of an error whose type this client does not know, by its status.
STATUS_TYPES = {
    400: "BAD_REQUEST_ERROR",
    401: "UNAUTHORIZED_ERROR",
    403: "FORBIDDEN_ERROR",
    404: "NOT_FOUND_ERROR",
    409: "CONFLICT_ERROR",
    429: "RATE_LIMITED_ERROR",
    500: "INTERNAL_ERROR",
    501: "NOT_IMPLEMENTED_ERROR",
    503: "SERVICE_UNAVAILABLE_ERROR",
}

PYTHON = platform.python_version()

# Replaced in tests, so that a retry's wait is recorded rather than slept.
_sleep = time.sleep
_random = random.random


class CardStatementsError(Exception):
    """Everything this client raises derives from it."""


class ApiError(CardStatementsError):
    """An error answer of the API. Its subclasses (in `card_statements.errors`) name the error
    type: `CustomerNotFoundError`, `InvalidRequestError`, … Quote `request_id` when reporting a
    problem."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        type: str,
        param: Optional[str] = None,
        details: Optional[List[str]] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        body: Any = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        #: The API's error type, e.g. `CUSTOMER_NOT_FOUND_ERROR`.
        self.type = type
        #: The parameter or header at fault, when the API names one.
        self.param = param
        #: Each problem found, for validation errors.
        self.details = list(details or [])
        #: The `x-request-id` of the answer.
        self.request_id = request_id
        #: Seconds the API asked to wait (`Retry-After`), when it did.
        self.retry_after = retry_after
        #: The body as the API sent it (parsed JSON, or text).
        self.body = body
        self.headers = dict(headers or {})

    def __str__(self) -> str:
        text = f"{self.status} {self.type}: {self.message}"
        return f"{text} (request {self.request_id})" if self.request_id else text


class ApiConnectionError(CardStatementsError):
    """The API could not be reached, after the retries the request allowed."""


class ApiTimeoutError(ApiConnectionError):
    """The API did not answer within the timeout."""


# ---------------------------------------------------------------------------------------------
# Models


class Model:
    """A JSON object of the API as a dataclass: the fields the version's reference names, as
    attributes (`None` when absent), and `extra`, the fields it does not name. The API adds
    response fields without a new version, so a client never loses what it does not know yet."""

    extra: Dict[str, Any]

    @classmethod
    def from_dict(cls: Type[M], data: Mapping[str, Any]) -> M:
        hints = _type_hints(cls)
        fields = _json_fields(cls)
        values: Dict[str, Any] = {f.name: None for f in fields.values()}
        extra: Dict[str, Any] = {}
        for key, value in data.items():
            known = fields.get(key)
            if known is None:
                extra[key] = value
            else:
                values[known.name] = _convert(hints[known.name], value)
        return cls(**values, extra=extra)  # type: ignore[call-arg]

    def __repr__(self) -> str:
        shown = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
            if getattr(self, f.name) is not None and getattr(self, f.name) != {}
        ]
        return f"{type(self).__name__}({', '.join(shown)})"

    def to_dict(self) -> Dict[str, Any]:
        """The object as JSON data: its fields that are set, then the extra ones."""
        out: Dict[str, Any] = {}
        for key, f in _json_fields(type(self)).items():
            value = getattr(self, f.name)
            if value is not None:
                out[key] = _plain(value)
        out.update(self.extra)
        return out


_HINTS: Dict[type, Dict[str, Any]] = {}
_FIELDS: Dict[type, Dict[str, "dataclasses.Field[Any]"]] = {}


def _type_hints(cls: type) -> Dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _json_fields(cls: type) -> Dict[str, "dataclasses.Field[Any]"]:
    """The dataclass fields by JSON name (a name that is a Python keyword gets a trailing `_`)."""
    if cls not in _FIELDS:
        _FIELDS[cls] = {
            f.metadata.get("json", f.name): f for f in dataclasses.fields(cls) if f.name != "extra"
        }
    return _FIELDS[cls]


def _convert(hint: Any, value: Any) -> Any:
    """A JSON value as the annotated type holds it: nested objects become their models."""
    origin = typing.get_origin(hint)
    if origin is Union:
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _convert(options[0], value) if len(options) == 1 else value
    if origin is list and isinstance(value, list):
        (item,) = typing.get_args(hint) or (Any,)
        return [_convert(item, v) for v in value]
    if origin is dict and isinstance(value, dict):
        item = (typing.get_args(hint) or (str, Any))[1]
        return {k: _convert(item, v) for k, v in value.items()}
    if isinstance(hint, type) and issubclass(hint, Model) and isinstance(value, dict):
        return hint.from_dict(value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Model):
        return value.to_dict()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _field(obj: Any, name: str) -> Any:
    """A field of a model (known or extra) or of plain JSON data."""
    if isinstance(obj, Model):
        value = getattr(obj, name, None)
        return obj.extra.get(name) if value is None else value
    return obj.get(name) if isinstance(obj, dict) else None


# ---------------------------------------------------------------------------------------------
# Pagination


class Pager(Generic[T]):
    """Every item of a list, across as many pages as it takes: iterate it (`for s in pager`).
    Nothing is fetched until then, and each next page only once the previous one is used up.
    `pages()` gives the pages themselves (`data`, `has_more`, `next_page_token`)."""

    def __init__(
        self,
        fetch: Callable[[Optional[str]], Any],
        starting_after: Optional[str] = None,
        item_id: Optional[str] = None,
    ) -> None:
        self._fetch = fetch
        self._start = starting_after
        # Statements and events page by signed token; the other lists by the last object's id.
        self._item_id = item_id

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from _field(page, "data") or []

    def pages(self) -> Iterator[Any]:
        cursor = self._start
        while True:
            page = self._fetch(cursor)
            yield page
            if not _field(page, "has_more"):
                return
            cursor = self._cursor(page)
            if cursor is None:
                return

    def _cursor(self, page: Any) -> Optional[str]:
        if self._item_id is None:
            return _field(page, "next_page_token")
        data = _field(page, "data") or []
        return _field(data[-1], self._item_id) if data else None


# ---------------------------------------------------------------------------------------------
# Errors


def _error_fields(status: int, body: Any) -> Tuple[str, str, Optional[str], Optional[List[str]]]:
    """Type, message, param and details of an error body, whichever documented shape it has."""
    if isinstance(body, dict):
        inner = body.get("error")
        if isinstance(inner, dict):
            # The ApiError envelope: every error of `latest`, and 401, 403, … in every version.
            details = inner.get("details")
            return (
                str(inner.get("type") or ""),
                str(inner.get("message") or ""),
                inner.get("param") if isinstance(inner.get("param"), str) else None,
                [str(d) for d in details] if isinstance(details, list) else None,
            )
        if isinstance(body.get("details"), list) and isinstance(inner, str):
            # The released versions' InvalidRequestError: {path, details, error, status, timestamp}.
            details = [str(d) for d in body["details"]]
            return "INVALID_REQUEST_ERROR", "; ".join(details) or inner, None, details
        if isinstance(body.get("type"), str):
            # The released versions' CustomerNotFoundError: {type, message, param}.
            param = body.get("param")
            return body["type"], str(body.get("message") or ""), param, None
    return "", "", None, None


def error_from_response(status: int, headers: Mapping[str, str], body: Any) -> ApiError:
    """The typed error of an error answer: the class of its type, else of its status."""
    from . import errors  # generated from the references; it imports this module

    kind, message, param, details = _error_fields(status, body)
    cls = errors.ERROR_TYPES.get(kind) or errors.ERROR_TYPES.get(STATUS_TYPES.get(status, ""))
    return (cls or ApiError)(
        message or f"HTTP {status}",
        status=status,
        type=kind or STATUS_TYPES.get(status, "API_ERROR"),
        param=param,
        details=details,
        request_id=headers.get("x-request-id"),
        retry_after=retry_after_seconds(headers.get("retry-after")),
        body=body,
        headers=headers,
    )


def retry_after_seconds(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds a `Retry-After` header asks for (delta-seconds or an HTTP date), or None."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


# ---------------------------------------------------------------------------------------------
# The client


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
            data = json.dumps({k: _plain(v) for k, v in body.items() if v is not None}).encode()
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
                with urllib.request.urlopen(request, timeout=timeout) as response:
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
