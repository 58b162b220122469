"""Transactions as generators of queries, the form every SQL statement of the bot takes.

A transaction here is a generator: it yields each `Query` it needs and is sent the
answer (a row, the rows, or the number of rows changed); what it returns is the
result of the whole transaction. It does no I/O itself, so the SQLite backend runs it
in one go on its connection's thread and the PostgreSQL backend runs it on a pooled
connection, each inside one database transaction that commits only if the generator
returns (an exception rolls everything back). A UNIQUE constraint that refuses a
statement is thrown into the transaction as `Duplicate`.

The store's transactions are in one module a job (`bot.store.games`, `lobbies`, `actions`,
`clocks`, `settings`, `users`, `meta`, `history`, `tallies`), each statement written once
for both backends: the part of both dialects that is the same, `?` parameters (the
PostgreSQL backend numbers them), and four fragments each backend fills in:
``{greatest}`` (the larger of two values), ``{open_index}`` (SQLite's hint to read only
open games through their index), ``{join}`` (SQLite's hint to keep the first table as the
outer loop) and ``{lock}`` (PostgreSQL's lock on a row read before it is changed).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from bot.store.records import StoreError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Query:
    """One statement a transaction needs run, and what it wants back."""

    sql: str
    args: tuple[Any, ...]
    want: Literal["one", "all", "count"]


class Duplicate(StoreError):
    """A UNIQUE constraint refused a statement (thrown into the transaction)."""


Transaction = Generator[Query, Any, T]


class Run:
    """A transaction being run by a backend: each answer it is given yields its next query."""

    def __init__(self, transaction: Callable[..., Transaction[T]], args: tuple[Any, ...]) -> None:
        self._steps = transaction(*args)
        #: What the transaction returned, once `next` has given None.
        self.result: Any = None

    def next(self, answer: Any = None, error: Exception | None = None) -> Query | None:
        """The next query, given the last one's answer (or an error to throw in); None: done."""
        try:
            return self._steps.throw(error) if error is not None else self._steps.send(answer)
        except StopIteration as done:
            self.result = done.value
            return None


def one(sql: str, *args: Any) -> Query:
    """The first row (a tuple), or None."""
    return Query(sql, args, "one")


def rows(sql: str, *args: Any) -> Query:
    """Every row, as tuples."""
    return Query(sql, args, "all")


def count(sql: str, *args: Any) -> Query:
    """The number of rows the statement changed."""
    return Query(sql, args, "count")
