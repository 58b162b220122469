"""The engine imports nothing outside the standard library (and nothing of asyncio)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).parent
FORBIDDEN_STDLIB = {"asyncio", "sqlite3", "time", "datetime", "threading", "socket"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_the_standard_library_and_itself():
    files = sorted(ENGINE.rglob("*.py"))
    assert files
    for path in files:
        for name in imported_modules(path):
            assert name == "engine" or name in sys.stdlib_module_names, f"{path}: {name}"
            assert name not in FORBIDDEN_STDLIB, f"{path}: {name} (no I/O or wall clock)"
