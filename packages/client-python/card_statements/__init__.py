"""Python client of the Card Account Statements API, generated from each API version's reference.

    from card_statements import create_client

    client = create_client(api_key, "2026-10-13", base_url="https://api.example.com")
    for statement in client.statements.list("cus_1", "acc_1"):
        print(statement.statement_id, statement.statement_balance)

A client per API version (`card_statements.v2026_10_13.Client`, …): every request is made in that
version and answers are its models. Lists page by themselves; `429` and `503` are retried as
`Retry-After` asks; every write carries an Idempotency-Key; errors are raised as a class per
error type (`card_statements.errors`); `verify_webhook` checks a delivery per Standard Webhooks.
Standard library only.
"""

from ._http import BaseClient, __version__
from ._models import Model
from ._paging import Pager
from ._versions import VERSIONS, create_client
from .errors import *  # noqa: F401,F403 (a class per error type; see errors.__all__)
from .errors import __all__ as _errors
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "BaseClient",
    "Model",
    "Pager",
    "VERSIONS",
    "WebhookVerificationError",
    "__version__",
    "create_client",
    "verify_webhook",
    *_errors,
]
