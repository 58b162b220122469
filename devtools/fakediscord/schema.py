"""Checks bodies against Discord's OpenAPI description: the bot's requests, the fake's answers.

The description lives outside the repository, in ``../shared/discord-openapi.json``
relative to the repository root. When it is absent, :class:`RequestValidator`
is created in a "skipping" state that accepts everything and says why.

One documented relaxation: the description types every snowflake as a decimal
string, while discord.py sends some as JSON integers (``recipient_id``,
attachment ids). ``SnowflakeType`` is therefore widened to also accept a
non-negative integer; everything else is checked as published.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OPENAPI_PATH = REPO_ROOT.parent / "shared" / "discord-openapi.json"

_DOCUMENT_URI = "urn:discord-openapi"
#: Where a request or response body's schema sits, below its operation's part.
_JSON_SCHEMA = ("content", "application/json", "schema")


def _pointer(*parts: str) -> str:
    """A JSON pointer (RFC 6901) made of the given reference tokens."""
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


@dataclass(frozen=True)
class SchemaProblem:
    """Why a request body does not validate: where in the body, and what is wrong."""

    path: tuple[str | int, ...]
    message: str

    def __str__(self) -> str:
        where = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in self.path)
        return f"${where}: {self.message}"

    def discord_errors(self) -> dict[str, Any]:
        """The ``errors`` object of Discord's 50035 "Invalid Form Body" answer."""
        errors: dict[str, Any] = {"_errors": [{"code": "SCHEMA_INVALID", "message": self.message}]}
        for step in reversed(self.path):
            errors = {str(step): errors}
        return errors


def _leaf_errors(errors: list[ValidationError]) -> list[ValidationError]:
    """The innermost errors, looking inside anyOf/oneOf branches."""
    leaves: list[ValidationError] = []
    for error in errors:
        leaves.extend(_leaf_errors(list(error.context)) if error.context else [error])
    return leaves


def _most_specific(errors: list[ValidationError]) -> SchemaProblem:
    """The most specific of the errors.

    For a union (a component may be a row, a button, a select...) the error
    deepest into the body is the one inside the branch that matched the
    component's ``type``, which is the one worth reading.
    """
    deepest = max(_leaf_errors(errors), key=lambda e: len(e.absolute_path))
    return SchemaProblem(tuple(deepest.absolute_path), deepest.message)


class RequestValidator:
    """Validates JSON request bodies per (method, OpenAPI path template)."""

    def __init__(self, document: dict[str, Any] | None, skip_reason: str | None = None) -> None:
        """Use ``document`` (a parsed OpenAPI description), or skip every check
        for ``skip_reason`` when ``document`` is None."""
        self._document = document
        self.skip_reason = skip_reason
        self._validators: dict[tuple[str, str], Draft202012Validator | None] = {}
        self._registry: Registry | None = None
        if document is not None:
            snowflake = document["components"]["schemas"]["SnowflakeType"]
            document["components"]["schemas"]["SnowflakeType"] = {
                "anyOf": [snowflake, {"type": "integer", "minimum": 0}]
            }
            resource = DRAFT202012.create_resource(document)
            self._registry = Registry().with_resource(_DOCUMENT_URI, resource)

    @classmethod
    def load(cls, path: Path = DEFAULT_OPENAPI_PATH) -> RequestValidator:
        """The validator for the description at ``path`` (parsed once per process)."""
        return _load_cached(Path(path).resolve())

    @property
    def available(self) -> bool:
        """Whether request bodies are really checked."""
        return self._document is not None

    def has_operation(self, method: str, path_template: str) -> bool:
        """Whether the description defines this operation (always True when skipping)."""
        if self._document is None:
            return True
        return method.lower() in self._document["paths"].get(path_template, {})

    def validate(self, method: str, path_template: str, body: Any) -> SchemaProblem | None:
        """Check ``body``; return what is wrong with it, or None if it is valid."""
        validator = self._validator(method.lower(), path_template)
        if validator is None:
            return None
        errors = list(validator.iter_errors(body))
        return _most_specific(errors) if errors else None

    def validate_schema(self, name: str, value: Any) -> SchemaProblem | None:
        """Check something the fake sends (a payload) against one of the description's
        schemas (``components/schemas/<name>``); None if it is valid, or when skipping."""
        if self._document is None:
            return None
        return self._check(_pointer("components", "schemas", name), value)

    def validate_response(
        self, method: str, path_template: str, body: Any, *, status: str = "200"
    ) -> SchemaProblem | None:
        """Check a response body against what the description says this operation answers
        with ``status``; None if it is valid, or when skipping."""
        if self._document is None:
            return None
        responses = ("paths", path_template, method.lower(), "responses", status)
        return self._check(_pointer(*responses, *_JSON_SCHEMA), body)

    def _schema_validator(self, pointer: str) -> Draft202012Validator:
        return Draft202012Validator(
            {"$ref": f"{_DOCUMENT_URI}#/{pointer}"}, registry=self._registry
        )

    def _check(self, pointer: str, value: Any) -> SchemaProblem | None:
        errors = list(self._schema_validator(pointer).iter_errors(value))
        return _most_specific(errors) if errors else None

    def _validator(self, method: str, path_template: str) -> Draft202012Validator | None:
        key = (method, path_template)
        if key not in self._validators:
            self._validators[key] = self._build_validator(method, path_template)
        return self._validators[key]

    def _build_validator(self, method: str, path_template: str) -> Draft202012Validator | None:
        if self._document is None:
            return None
        operation = self._document["paths"][path_template][method]
        if "application/json" not in operation.get("requestBody", {}).get("content", {}):
            return None
        pointer = _pointer("paths", path_template, method, "requestBody", *_JSON_SCHEMA)
        return self._schema_validator(pointer)


@functools.cache
def _load_cached(path: Path) -> RequestValidator:
    if not path.is_file():
        return RequestValidator(
            None,
            skip_reason=(
                f"Discord's OpenAPI description was not found at {path}: "
                "request bodies are not checked against it"
            ),
        )
    return RequestValidator(json.loads(path.read_text(encoding="utf-8")))
