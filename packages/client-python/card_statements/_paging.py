"""Auto-pagination: every item of a list, page after page, fetched as it is used."""

from __future__ import annotations

from typing import Any, Callable, Generic, Iterator, Optional, TypeVar

from ._models import field_of

T = TypeVar("T")


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
            yield from field_of(page, "data") or []

    def pages(self) -> Iterator[Any]:
        cursor = self._start
        while True:
            page = self._fetch(cursor)
            yield page
            if not field_of(page, "has_more"):
                return
            cursor = self._cursor(page)
            if cursor is None:
                return

    def _cursor(self, page: Any) -> Optional[str]:
        if self._item_id is None:
            return field_of(page, "next_page_token")
        data = field_of(page, "data") or []
        return field_of(data[-1], self._item_id) if data else None
