"""The live table's messages as types to compare: bot.views.table_state's TypedDicts, the
interfaces of the client's protocol.ts, and a message as sent, each read into one form.

A type reads as a tuple: ("string",), ("number",), ("boolean",), ("null",),
("literal", value), ("array", item), ("tuple", items), ("record", key, value),
("union", members: frozenset), ("object", fields: frozenset of (name, optional, type)),
and ("ref", name) where a type names itself again inside (a row's components). Both
sides are read whole, so an interface written inline in TypeScript equals a TypedDict
named in Python, and `Piece & { builder: ... }` equals a TypedDict deriving from Piece.
`differences` says where two types part; `mismatches` where a message does not fit one.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Iterator
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

from bot.views import table_state
from bot.views.table_state import OneOf

Type = tuple[Any, ...]

STRING, NUMBER, BOOLEAN, NULL = ("string",), ("number",), ("boolean",), ("null",)


def union(members: list[Type]) -> Type:
    """One type of `members`, unions among them flattened."""
    flat: set[Type] = set()
    for member in members:
        flat |= member[1] if member[0] == "union" else {member}
    return next(iter(flat)) if len(flat) == 1 else ("union", frozenset(flat))


def literals(values: tuple[Any, ...]) -> Type:
    return union([("literal", value) for value in values])


# ------------------------------------------------------------------ Python's side


class Python:
    """table_state's types read into the one form; `named` keeps each named type read."""

    def __init__(self) -> None:
        module = vars(table_state)
        #: Its aliases (a union named, as Component): they name themselves inside.
        self.aliases = {
            name: value
            for name, value in module.items()
            if get_origin(value) in (Union, types.UnionType)
        }
        self.named: dict[str, Type] = {}
        self._reading: list[str] = []

    def read(self, tp: Any) -> Type:
        name = self._name_of(tp)
        if name is None:
            return self._read(tp)
        if name in self._reading:
            return ("ref", name)
        self._reading.append(name)
        try:
            found = self.named[name] = self._read(tp)
        finally:
            self._reading.pop()
        return found

    def _name_of(self, tp: Any) -> str | None:
        if typing.is_typeddict(tp):
            return tp.__name__
        return next((name for name, alias in self.aliases.items() if alias == tp), None)

    def _read(self, tp: Any) -> Type:
        origin, args = get_origin(tp), get_args(tp)
        if tp is str:
            return STRING
        if tp is bool:
            return BOOLEAN
        if tp in (int, float):
            return NUMBER
        if tp in (None, type(None)):
            return NULL
        if typing.is_typeddict(tp):
            return self._object(tp)
        if origin is typing.Annotated:
            (kind, *extras) = args
            one_of = [extra for extra in extras if isinstance(extra, OneOf)]
            return literals(tuple(map(str, one_of[0].values))) if one_of else self.read(kind)
        if origin is Literal:
            return literals(args)
        if origin in (Union, types.UnionType):
            return union([self.read(arg) for arg in args])
        if origin is list:
            return ("array", self.read(args[0]))
        if origin is tuple:
            return ("tuple", tuple(self.read(arg) for arg in args))
        if origin is dict:
            return ("record", self.read(args[0]), self.read(args[1]))
        raise TypeError(f"no TypeScript for {tp!r}")

    def _object(self, tp: Any) -> Type:
        # Whether a key may be missing, from its hint: __optional_keys__ misses a string
        # annotation's NotRequired (table_state's, `from __future__ import annotations`).
        hints = typing.get_type_hints(tp, include_extras=True)
        fields = set()
        for name, hint in hints.items():
            optional = get_origin(hint) is NotRequired or name in tp.__optional_keys__
            if get_origin(hint) in (NotRequired, Required):
                (hint,) = get_args(hint)
            fields.add((name, optional, self.read(hint)))
        return ("object", frozenset(fields))


# -------------------------------------------------------------- TypeScript's side

#: What the reader skips: comments, then the tokens of what is left.
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|\d+(?:\.\d+)?|[A-Za-z_$][\w$]*|[{}()\[\]<>;:,?|&=])')
PRIMITIVES = {"string": STRING, "number": NUMBER, "boolean": BOOLEAN, "null": NULL}


class TypeScript:
    """The exported interfaces and types of a TypeScript module (the subset protocol.ts
    writes), read into the one form; `named` keeps each, read whole."""

    def __init__(self, source: str) -> None:
        self.tokens = tokenize(COMMENT.sub(" ", source))
        self.at = 0
        #: Each export's type as written (names unresolved: ("name", name, args)).
        self.written: dict[str, Type] = {}
        while self.at < len(self.tokens):
            self._statement()
        self.named: dict[str, Type] = {}
        self._reading: list[str] = []

    def read(self, name: str) -> Type:
        return self._resolve(("name", name, ()))

    # -- reading the source

    def _next(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _expect(self, token: str) -> None:
        found = self._next()
        if found != token:
            raise SyntaxError(f"{token!r} expected, {found!r} found (token {self.at})")

    def _statement(self) -> None:
        self._expect("export")
        kind, name = self._next(), self._next()
        if kind == "interface":
            self.written[name] = self._fields()
        elif kind == "type":
            self._expect("=")
            self.written[name] = self._union()
            self._expect(";")
        else:
            raise SyntaxError(f"export {kind} {name}: only interfaces and types are read")

    def _union(self) -> Type:
        if self._peek() == "|":
            self._next()
        members = [self._intersection()]
        while self._peek() == "|":
            self._next()
            members.append(self._intersection())
        return members[0] if len(members) == 1 else ("union-of", tuple(members))

    def _intersection(self) -> Type:
        parts = [self._postfix()]
        while self._peek() == "&":
            self._next()
            parts.append(self._postfix())
        return parts[0] if len(parts) == 1 else ("and", tuple(parts))

    def _postfix(self) -> Type:
        found = self._primary()
        while self._peek() == "[" and self.tokens[self.at + 1] == "]":
            self.at += 2
            found = ("array", found)
        return found

    def _primary(self) -> Type:
        token = self._next()
        if token in PRIMITIVES:
            return PRIMITIVES[token]
        if token.startswith('"'):
            return ("literal", token[1:-1])
        if token[0].isdigit():
            return ("literal", int(token) if token.isdigit() else float(token))
        if token == "(":
            found = self._union()
            self._expect(")")
            return found
        if token == "[":
            items = [self._union()]
            while self._peek() == ",":
                self._next()
                items.append(self._union())
            self._expect("]")
            return ("tuple", tuple(items))
        if token == "{":
            self.at -= 1
            return self._fields()
        args: tuple[Type, ...] = ()
        if self._peek() == "<":
            self._next()
            found = [self._union()]
            while self._peek() == ",":
                self._next()
                found.append(self._union())
            self._expect(">")
            args = tuple(found)
        return ("name", token, args)

    def _fields(self) -> Type:
        self._expect("{")
        fields = []
        while self._peek() != "}":
            name = self._next()
            optional = self._peek() == "?"
            if optional:
                self._next()
            self._expect(":")
            fields.append((name, optional, self._union()))
            if self._peek() in (";", ","):
                self._next()
        self._expect("}")
        return ("fields", tuple(fields))

    # -- resolving names

    def _resolve(self, written: Type) -> Type:
        kind = written[0]
        if kind == "name":
            _, name, args = written
            if name == "Record":
                key, value = (self._resolve(arg) for arg in args)
                return ("record", key, value)
            if name in self._reading:
                return ("ref", name)
            self._reading.append(name)
            try:
                found = self.named[name] = self._resolve(self.written[name])
            finally:
                self._reading.pop()
            return found
        if kind == "union-of":
            return union([self._resolve(member) for member in written[1]])
        if kind == "and":
            fields = set()
            for part in written[1]:
                resolved = self._resolve(part)
                if resolved[0] != "object":
                    raise TypeError(f"an intersection of {resolved[0]}: only objects are read")
                fields |= resolved[1]
            return ("object", frozenset(fields))
        if kind == "fields":
            return (
                "object",
                frozenset((name, optional, self._resolve(tp)) for name, optional, tp in written[1]),
            )
        if kind == "array":
            return ("array", self._resolve(written[1]))
        if kind == "tuple":
            return ("tuple", tuple(self._resolve(item) for item in written[1]))
        return written


def tokenize(source: str) -> list[str]:
    tokens, at = [], 0
    while source[at:].strip():
        match = TOKEN.match(source, at)
        if match is None:
            raise SyntaxError(f"cannot read {source[at : at + 40]!r}")
        tokens.append(match.group(1))
        at = match.end()
    return tokens


# ------------------------------------------------------------------ comparing


def show(tp: Type) -> str:
    """A type as TypeScript writes it (fields in name order)."""
    kind = tp[0]
    if kind in ("string", "number", "boolean", "null"):
        return kind
    if kind == "literal":
        return f'"{tp[1]}"' if isinstance(tp[1], str) else str(tp[1])
    if kind == "array":
        inner = show(tp[1])
        return f"({inner})[]" if tp[1][0] == "union" else f"{inner}[]"
    if kind == "tuple":
        return "[" + ", ".join(map(show, tp[1])) + "]"
    if kind == "record":
        return f"Record<{show(tp[1])}, {show(tp[2])}>"
    if kind == "union":
        return " | ".join(sorted(map(show, tp[1])))
    if kind == "object":
        fields = sorted(tp[1], key=lambda field: field[0])
        return "{ " + "; ".join(f"{n}{'?' if o else ''}: {show(t)}" for n, o, t in fields) + " }"
    return tp[1]  # a ref: its name


def differences(client: Type, server: Type, path: str = "") -> Iterator[str]:
    """Where the client's type and the server's part, each as `path: ...`."""
    if client == server:
        return
    if client[0] == server[0] == "object":
        mine = {name: (optional, tp) for name, optional, tp in client[1]}
        theirs = {name: (optional, tp) for name, optional, tp in server[1]}
        for name in sorted(mine.keys() | theirs.keys()):
            where = f"{path}.{name}"
            if name not in theirs:
                yield f"{where}: in protocol.ts only"
            elif name not in mine:
                yield f"{where}: sent by the server, not in protocol.ts"
            else:
                if mine[name][0] != theirs[name][0]:
                    said = {True: "may be missing", False: "always there"}
                    client_says, server_says = said[mine[name][0]], said[theirs[name][0]]
                    yield f"{where}: {client_says} in protocol.ts, {server_says} on the server"
                yield from differences(mine[name][1], theirs[name][1], where)
        return
    if client[0] == server[0] == "array":
        yield from differences(client[1], server[1], f"{path}[]")
        return
    if client[0] == server[0] == "union":
        # One member each that differs: the two objects (or arrays) compared inside.
        only_client, only_server = client[1] - server[1], server[1] - client[1]
        if len(only_client) == len(only_server) == 1:
            (mine,), (theirs,) = only_client, only_server
            if mine[0] == theirs[0] and mine[0] in ("object", "array"):
                yield from differences(mine, theirs, path)
                return
        if not only_server:
            yield f"{path}: protocol.ts also says {show(union(list(only_client)))}"
            return
        if not only_client:
            yield f"{path}: the server also sends {show(union(list(only_server)))}"
            return
    yield f"{path or '(the type)'}: protocol.ts says {show(client)}, the server {show(server)}"


def mismatches(value: Any, tp: Type, named: dict[str, Type], path: str = "") -> Iterator[str]:
    """Where a message as received (parsed JSON) does not fit `tp` (`named`: the types a
    ("ref", name) stands for)."""
    kind = tp[0]
    where = path or "(the message)"
    if kind == "ref":
        yield from mismatches(value, named[tp[1]], named, path)
    elif kind == "union":
        fits = [list(mismatches(value, member, named, path)) for member in tp[1]]
        if all(fits):
            # The member of the same "type" (a message, a component) says best what is off.
            tagged = zip(tp[1], fits, strict=True)
            same = [found for member, found in tagged if _tagged(member, value)]
            yield from same[0] if len(same) == 1 else [f"{where}: {value!r:.80} is not {show(tp)}"]
    elif kind == "object":
        if not isinstance(value, dict):
            yield f"{where}: {value!r:.80} is not an object"
            return
        fields = {name: (optional, field) for name, optional, field in tp[1]}
        for name in value.keys() - fields.keys():
            yield f"{path}.{name}: not in the type"
        for name, (optional, field) in fields.items():
            if name in value:
                yield from mismatches(value[name], field, named, f"{path}.{name}")
            elif not optional:
                yield f"{path}.{name}: missing"
    elif kind == "array":
        if not isinstance(value, list):
            yield f"{where}: {value!r:.80} is not an array"
        else:
            for index, item in enumerate(value):
                yield from mismatches(item, tp[1], named, f"{path}[{index}]")
    elif kind == "tuple":
        if not isinstance(value, list) or len(value) != len(tp[1]):
            yield f"{where}: {value!r:.80} is not {show(tp)}"
        else:
            for index, (item, part) in enumerate(zip(value, tp[1], strict=True)):
                yield from mismatches(item, part, named, f"{path}[{index}]")
    elif kind == "record":
        if not isinstance(value, dict):
            yield f"{where}: {value!r:.80} is not an object"
        else:
            for key, item in value.items():
                yield from mismatches(item, tp[2], named, f"{path}[{key!r}]")
    elif not _is(value, tp):
        yield f"{where}: {value!r:.80} is not {show(tp)}"


def _is(value: Any, tp: Type) -> bool:
    kind = tp[0]
    if kind == "literal":
        return value == tp[1] and type(value) is type(tp[1])
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, {"string": str, "boolean": bool, "null": type(None)}[kind])


def _tagged(tp: Type, value: Any) -> bool:
    """Whether an object type's `type` field is the value's."""
    if tp[0] != "object" or not isinstance(value, dict):
        return False
    tags = [field for name, _, field in tp[1] if name == "type"]
    return bool(tags) and tags[0] == ("literal", value.get("type"))
