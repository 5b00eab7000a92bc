"""The API's pages: `limit` and `offset`, with a ceiling on `limit` (a huge one is capped, never an error)."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination

MAX_PAGE = 500


class Pagination(LimitOffsetPagination):
    max_limit = MAX_PAGE
