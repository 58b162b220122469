"""The architecture, checked: layers import only downwards, no import circles, a pure engine;
the doors (Discord's messages, the live table) stand side by side on the game layer.

Every import counts, those under `if TYPE_CHECKING:` and inside functions included. The
one allowed back-reference is a cog naming the bot's class for its type hints.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Highest first: each layer may import only from the layers below it (and itself).
LAYERS = (
    # start-up: the core and its doors composed, their metrics and health, the logs
    ("bot.__main__", "bot.app", "bot.holding", "bot.serve_metrics", "bot.logs", "bot.watch"),
    ("bot.discord", "bot.web"),  # the doors: client, cogs, outbox, DMs; the web table
    ("bot.config",),  # the configuration, read once
    ("bot.game",),  # the service, clocks, crewmates, who reads in which language
    ("bot.views",),  # what players read, as Discord's JSON
    ("bot.pictures",),  # the board and launch pictures
    ("bot.errors",),  # what the bot refuses, and why
    ("bot.table",),  # the shared nouns
    ("bot.store",),  # the database
    ("bot.lobby_settings",),  # a lobby's options, and the settings the store keeps
    ("bot.i18n",),  # catalogs, notation
    ("bot.metrics",),  # counters every layer bumps (served by bot.serve_metrics)
    ("engine",),  # the rules
    ("migrations",),  # the schema
)
#: (importer, imported) pairs allowed against the order: type hints only.
BACK_REFERENCES = {
    ("bot.discord.cogs.apophis", "bot.discord.client"),
    ("bot.discord.cogs.lobbies", "bot.discord.client"),
    ("bot.discord.cogs.play", "bot.discord.client"),
    ("bot.discord.cogs.records", "bot.discord.client"),
    ("bot.discord.cogs.replays", "bot.discord.client"),
    ("bot.discord.cogs.tables", "bot.discord.client"),
}
FORBIDDEN_STDLIB = {"asyncio", "sqlite3", "time", "datetime", "threading", "socket"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(*packages: str) -> dict[str, Path]:
    found = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, bool]]:
    """Every module `name` imports (resolved to a known module where one is meant), and
    whether the import is for type checking only."""
    tree = ast.parse(path.read_text(), filename=str(path))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(inner) for inner in ast.walk(node))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            yield target, id(node) in typing_only


def layer_of(module: str) -> int | None:
    for index, names in enumerate(LAYERS):
        if any(module == n or module.startswith(n + ".") for n in names):
            return index
    return None


SHIPPED = modules("bot", "engine", "migrations")


def test_every_module_of_the_bot_has_a_layer():
    assert not [name for name in SHIPPED if name != "bot" and layer_of(name) is None]


def test_layers_import_only_downwards():
    wrong = []
    for name, path in SHIPPED.items():
        here = layer_of(name)
        for target, _ in imports(name, path, SHIPPED):
            there = layer_of(target)
            backwards = there is not None and here is not None and there < here
            if backwards and (name, target) not in BACK_REFERENCES:
                wrong.append(f"{name} imports {target}")
    assert not wrong


#: Doors side by side: neither imports the other (bot.app composes them).
DOORS = ("bot.discord", "bot.web")


def test_doors_never_import_each_other():
    wrong = []
    for name, path in SHIPPED.items():
        door = next((d for d in DOORS if name == d or name.startswith(d + ".")), None)
        if door is None:
            continue
        for target, _ in imports(name, path, SHIPPED):
            other = next((d for d in DOORS if target == d or target.startswith(d + ".")), None)
            if other is not None and other != door:
                wrong.append(f"{name} imports {target}")
    assert not wrong


def test_the_door_check_finds_a_crossing(tmp_path, monkeypatch):
    """The check above reads real imports: a web module naming a Discord one is caught."""
    source = tmp_path / "sockets.py"
    source.write_text("from bot.discord import inputs\n")
    found = [t for t, _ in imports("bot.web.sockets", source, SHIPPED)]
    assert any(t.startswith("bot.discord") for t in found)


def test_the_only_back_references_are_type_hints():
    for name, target in BACK_REFERENCES:
        found = [typing for t, typing in imports(name, SHIPPED[name], SHIPPED) if t == target]
        assert found and all(found), f"{name} -> {target} must be under TYPE_CHECKING"


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of a graph: Tarjan's strongly connected components of 2 or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while (member := stack.pop()) != node:
                component.append(member)
            if component:
                found.append(sorted([node, *component]))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_circles_are_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_type_hints_included():
    graph: dict[str, set[str]] = {name: set() for name in SHIPPED}
    for name, path in SHIPPED.items():
        for target, _ in imports(name, path, SHIPPED):
            if target in graph and target != name:
                graph[name].add(target)
    assert not circles(graph)


#: The whole tree: what ships, the development tools, the benchmarks and the tests.
TREE = modules("bot", "engine", "migrations", "devtools", "benchmarks", "tests")


def test_no_import_circles_anywhere_in_the_tree():
    graph: dict[str, set[str]] = {name: set() for name in TREE}
    for name, path in TREE.items():
        for target, _ in imports(name, path, TREE):
            if target in graph and target != name:
                graph[name].add(target)
    assert not circles(graph)


def test_nothing_outside_the_tests_imports_them_and_nothing_shipped_imports_devtools():
    everything = modules("bot", "engine", "migrations", "devtools", "benchmarks")
    for name, path in everything.items():
        for target, _ in imports(name, path, everything):
            assert target.split(".")[0] != "tests", f"{name} imports {target}"
            if name in SHIPPED:
                assert target.split(".")[0] != "devtools", f"{name} imports {target}"


def test_no_part_of_the_bot_looks_a_cog_up_by_name():
    """Cogs and the client hand each other what they need as typed collaborators
    (bot.discord.cogs.play's setup), never `get_cog("...")`, which is untyped."""
    calls = [
        f"{name}: {node.func.attr}"
        for name, path in SHIPPED.items()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get_cog"
    ]
    assert not calls


def test_engine_imports_only_the_standard_library_and_itself():
    engine = modules("engine")
    assert engine
    for name, path in engine.items():
        for target, _ in imports(name, path, engine):
            top = target.split(".")[0]
            assert top == "engine" or top in sys.stdlib_module_names, f"{name}: {target}"
            assert top not in FORBIDDEN_STDLIB, f"{name}: {target} (no I/O or wall clock)"


#: Below the doors: nothing here may load discord.py or aiohttp, even through a package it
#: imports.
BELOW_THE_DOORS = (
    "bot.game", "bot.views", "bot.pictures", "bot.store", "bot.i18n", "bot.table",
    "bot.errors", "bot.config", "bot.lobby_settings", "bot.metrics", "engine",
)  # fmt: skip
DOOR_LIBRARIES = ("discord", "aiohttp")


def test_nothing_below_the_doors_loads_discord_or_aiohttp():
    """Every module below the doors imported for real, in a fresh interpreter: none of them,
    and no package they import (third-party ones included), imports discord.py or aiohttp,
    and no module of discord.py is loaded at all."""
    below = sorted(
        name
        for name in SHIPPED
        if any(name == p or name.startswith(p + ".") for p in BELOW_THE_DOORS)
    )
    assert "bot.game.service" in below and "bot.views.render" in below
    importers, loaded = _door_libraries_after_importing(below)
    assert not importers, importers
    assert not [m for m in loaded if m.split(".")[0] == "discord"]
    libraries = [m for m in loaded if m.split(".")[0] in DOOR_LIBRARIES]
    assert not libraries


def test_the_library_check_sees_an_import_through_a_third_party_package(tmp_path):
    """A package outside the bot that imports aiohttp is caught by name, as is the module
    of the bot importing it."""
    (tmp_path / "wrapper.py").write_text("import aiohttp\n")
    (tmp_path / "below.py").write_text("import wrapper\n")
    importers, loaded = _door_libraries_after_importing(["below"], tmp_path)
    assert importers == {"wrapper": "aiohttp"} and "aiohttp" in loaded


#: Run in a fresh interpreter: notes who imports a door's library, imports the modules
#: named, and prints the importers and every module loaded, as JSON.
WATCHER = """
import builtins, importlib, json, sys
libraries, names, importers = {libraries!r}, {names!r}, {{}}
original = builtins.__import__

def noted(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {{}}).get("__name__") or "?"
    if level == 0 and name.split(".")[0] in libraries:
        if importer.split(".")[0] not in (*libraries, "importlib"):  # not their own
            importers.setdefault(importer, name)
    return original(name, globals, locals, fromlist, level)

builtins.__import__ = noted
for name in names:
    importlib.import_module(name)
print(json.dumps([importers, sorted(sys.modules)]))
"""


def _door_libraries_after_importing(
    names: list[str], path: Path = ROOT
) -> tuple[dict[str, str], list[str]]:
    """Who imported discord or aiohttp (importer -> what), and every module loaded, once
    `names` are imported in a fresh interpreter that finds modules in `path` and ROOT."""
    script = WATCHER.format(libraries=DOOR_LIBRARIES, names=names)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(path), str(ROOT)])},
        capture_output=True,
        text=True,
        check=True,
    )
    importers, loaded = json.loads(done.stdout)
    return importers, loaded


#: The longest a function or method may be outside the tests, in lines from its `def` to
#: its last line: past it, it is a sign of two jobs.
MAX_FUNCTION_LINES = 60


def long_functions(path: Path) -> dict[str, int]:
    """The functions and methods of a file (nested ones included, by qualified name) longer
    than MAX_FUNCTION_LINES, with their length."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = prefix + child.name
                length = (child.end_lineno or child.lineno) - child.lineno + 1
                if not isinstance(child, ast.ClassDef) and length > MAX_FUNCTION_LINES:
                    found[name] = length
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(), filename=str(path)), "")
    return found


def test_no_function_is_over_60_lines_outside_the_tests():
    long = {
        f"{path.relative_to(ROOT).as_posix()}: {name} ({length} lines)"
        for package in ("bot", "engine", "devtools", "benchmarks")
        for path in sorted((ROOT / package).rglob("*.py"))
        for name, length in long_functions(path).items()
    }
    assert not long


def test_the_length_check_counts_methods_and_nested_functions(tmp_path):
    """Methods and nested functions are measured, by qualified name; a function of exactly
    MAX_FUNCTION_LINES lines passes."""

    def body(indent: int, lines: int) -> str:
        return "".join(f"{' ' * indent}x = {n}\n" for n in range(lines))

    most = MAX_FUNCTION_LINES
    source = tmp_path / "long.py"
    source.write_text(
        "class A:\n    async def m(self):\n" + body(8, most)  # m: one line too many
        + "def f():\n    def inner():\n" + body(8, most - 1)  # inner: just fits; f does not
        + "def g():\n" + body(4, most - 1)  # just fits
    )  # fmt: skip
    assert long_functions(source) == {"A.m": most + 1, "f": most + 1}
