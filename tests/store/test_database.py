"""Both backends are exactly the `Database` interface, and `Store` uses nothing else of them.

A backend that drifts from `bot.store.database.Database` (a member missing, another
parameter or return type, a coroutine that is no longer one) fails here, not on the
other database in production; so does a `Store` that reaches past the interface or
asks which backend it has once one is open.
"""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.store import store as store_module
from bot.store.database import Database, Leases, Turn
from bot.store.leases import ShardLeases
from bot.store.postgres import AdvisoryTurn, PostgresDatabase
from bot.store.sqlite import SQLiteDatabase

BACKENDS = (SQLiteDatabase, PostgresDatabase)
STORE_SOURCE = Path(store_module.__file__)


def members(protocol: type) -> dict[str, Any]:
    """The methods a Protocol states: those written in its own body (not typing's)."""
    found = {}
    for name, value in vars(protocol).items():
        function = value.__func__ if isinstance(value, classmethod) else value
        if inspect.isfunction(function) and function.__qualname__ == f"{protocol.__name__}.{name}":
            found[name] = value
    return found


def shape(annotation: Any) -> Any:
    """An annotation, comparable across modules: each module has its own TypeVar T."""
    if isinstance(annotation, TypeVar):
        return ("TypeVar", annotation.__name__)
    origin = typing.get_origin(annotation)
    if origin is None:
        return annotation
    return (origin, tuple(shape(arg) for arg in typing.get_args(annotation)))


def signature(function: Any) -> tuple[Any, ...]:
    """Parameters (name, kind, default, annotation), return annotation, and async or not.

    A keyword-only parameter with a default is left out: a backend's own option (such as
    PostgreSQL's patience at start-up), which a call made as the protocol says never
    passes."""
    sig = inspect.signature(function, eval_str=True)
    parameters = [
        (p.name, p.kind, p.default, shape(p.annotation))
        for p in sig.parameters.values()
        if not (p.kind is p.KEYWORD_ONLY and p.default is not p.empty)
    ]
    return parameters, shape(sig.return_annotation), inspect.iscoroutinefunction(function)


def drift(backend: type, protocol: type) -> list[str]:
    """How `backend` differs from `protocol` (nothing: it implements it exactly)."""
    problems = []
    for name, stated in members(protocol).items():
        if name not in vars(backend):
            problems.append(f"{backend.__name__}.{name} is missing")
            continue
        if isinstance(vars(backend)[name], classmethod) != isinstance(stated, classmethod):
            problems.append(f"{backend.__name__}.{name}: classmethod or not differs")
        ours, theirs = signature(getattr(backend, name)), signature(getattr(protocol, name))
        if ours != theirs:
            problems.append(f"{backend.__name__}.{name}: {ours} is not {theirs}")
    return problems


def test_the_protocol_states_what_the_store_needs_and_says_what_each_guarantees():
    stated = members(Database)
    assert set(stated) == {
        "open",
        "__str__",
        "close",
        "write",
        "read",
        "take_turn",
        "leases",
        "notices",
        "ready",
        "backup",
    }
    for name in stated:
        assert inspect.getdoc(getattr(Database, name)), f"Database.{name} has no docstring"
    # Data members would need a check of their own: the interface has none.
    assert not vars(Database).get("__annotations__")
    assert (Database.__doc__ or "").strip()
    assert (inspect.getmodule(Database).__doc__ or "").strip().splitlines()[0]


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda backend: backend.__name__)
def test_each_backend_implements_the_protocol_exactly(backend: type):
    assert drift(backend, Database) == []


def test_a_backend_that_drifts_is_caught():
    class Drifted:
        """No __str__ of its own (object's does not count), close is not a coroutine, write
        and backup take other parameters, take_turn returns another shape, no read or ready."""

        @classmethod
        async def open(cls, database: str) -> object: ...  # not Self, narrower parameter

        def close(self) -> None: ...

        async def write(self, transaction, *args: Any) -> Any: ...

        async def take_turn(self, key: int) -> None: ...

        async def backup(self, destination: str) -> int: ...

    problems = drift(Drifted, Database)
    assert [problem.split(":")[0] for problem in problems] == [
        "Drifted.open",
        "Drifted.__str__ is missing",
        "Drifted.close",
        "Drifted.write",
        "Drifted.read is missing",
        "Drifted.ready is missing",
        "Drifted.take_turn",
        "Drifted.leases is missing",
        "Drifted.notices is missing",
        "Drifted.backup",
    ]


def test_turns_implement_the_turn_protocol_exactly():
    assert drift(AdvisoryTurn, Turn) == []


def test_shard_leases_implement_the_leases_protocol_exactly():
    assert drift(ShardLeases, Leases) == []


# ------------------------------------------------- the store uses only the interface


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _store_class(tree: ast.Module) -> ast.ClassDef:
    (found,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Store"]
    return found


def _method(cls: ast.ClassDef, name: str) -> ast.AsyncFunctionDef | ast.FunctionDef:
    (found,) = [
        n
        for n in cls.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
    ]
    return found


def backend_field(cls: ast.ClassDef) -> str:
    """The attribute Store keeps its backend in: what `__init__` stores its Database in."""
    init = _method(cls, "__init__")
    typed = [
        a.arg for a in init.args.args if a.annotation and ast.unparse(a.annotation) == "Database"
    ]
    assert len(typed) == 1, "Store.__init__ takes its backend typed as the Database protocol"
    fields = [
        target.attr
        for node in ast.walk(init)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Name)
        and node.value.id == typed[0]
        for target in node.targets
        if isinstance(target, ast.Attribute)
    ]
    assert len(fields) == 1
    return fields[0]


def backend_uses(source: str, interface: set[str]) -> list[str]:
    """Where `Store` (in `source`) uses a backend other than through `interface`, or asks
    which backend it has outside `Store.open`."""
    tree = ast.parse(source)
    parents = _parents(tree)
    cls = _store_class(tree)
    field = backend_field(cls)
    opener = _method(cls, "open")
    in_open = {id(node) for node in ast.walk(opener)}
    classes = {backend.__name__ for backend in BACKENDS}
    # Locals holding the backend class picked at open time.
    picked = {
        node.target.id
        for node in ast.walk(opener)
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and ast.unparse(node.annotation) == "type[Database]"
    }
    wrong = []
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}"
        is_field = (
            isinstance(node, ast.Attribute)
            and node.attr == field
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        )
        if is_field:
            parent = parents[node]
            if isinstance(parent, ast.Attribute):
                if parent.attr not in interface:
                    wrong.append(f"{where}: self.{field}.{parent.attr} is not in Database")
            elif (
                isinstance(parent, ast.Call)
                and ast.unparse(parent.func) == "str"
                and parent.args == [node]
            ):
                if "__str__" not in interface:
                    wrong.append(f"{where}: str(self.{field}) but Database has no __str__")
            elif not (isinstance(parent, ast.Assign) and node in parent.targets):
                wrong.append(f"{where}: self.{field} used as {ast.unparse(parent)!r}")
        if (
            isinstance(node, ast.Name)
            and node.id in classes | {"is_postgresql"}
            and id(node) not in in_open
        ):
            wrong.append(f"{where}: {node.id} outside Store.open")
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in classes | picked
            and node.attr not in interface
        ):
            wrong.append(f"{where}: {node.value.id}.{node.attr} is not in Database")
    return wrong


def test_the_store_uses_its_backend_only_through_the_protocol():
    assert backend_uses(STORE_SOURCE.read_text(), set(members(Database))) == []


def test_a_store_that_reaches_past_the_protocol_is_caught():
    source = """
class Store:
    def __init__(self, db: Database) -> None:
        self._db = db

    @classmethod
    async def open(cls, database):
        backend: type[Database] = PostgresDatabase if is_postgresql(database) else SQLiteDatabase
        backend.migrate()
        return cls(await backend.open(database))

    async def backup(self, dest):
        if isinstance(self._db, PostgresDatabase):
            return self._db.url
        return await self._db.backup(dest)
"""
    wrong = backend_uses(source, set(members(Database)))
    assert [problem.partition(": ")[2] for problem in wrong] == [
        "backend.migrate is not in Database",
        "self._db used as 'isinstance(self._db, PostgresDatabase)'",
        "PostgresDatabase outside Store.open",
        "self._db.url is not in Database",
    ]
