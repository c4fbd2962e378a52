"""The errors this client raises, and how an error answer becomes one: the class of its type
(generated in `errors.py`), read from whichever documented shape its body has."""

from __future__ import annotations

import email.utils
import time
from typing import Any, List, Mapping, Optional, Tuple

#: The type whose class an error of an unknown type gets, by its status.
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
