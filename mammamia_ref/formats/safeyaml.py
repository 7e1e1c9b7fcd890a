"""Loading untrusted YAML: the JSON-compatible subset only, with line numbers.

Refused, each with the file and line: anchors and aliases (so no "billion laughs"),
tags, duplicate keys, keys that are not strings, non-JSON scalars (dates) and
floats (our formats use integers only), nesting deeper than ``MAX_DEPTH``, files over ``MAX_BYTES``,
and text that is not UTF-8.

Files are read by :func:`read_bounded`, which every reader of a file named on the command
line shares: the size is checked while reading, so ``/dev/zero`` costs ``MAX_BYTES`` of
memory, not all of it, and a pipe or device that never ends is given up after
``READ_TIMEOUT`` seconds.
"""

from __future__ import annotations

import os
import re
import select
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mammamia_ref.errors import InternalError, MalformedError
from mammamia_ref.formats.limits import excerpt
from mammamia_ref.rules.specdata import YAML_LOADER

# libyaml's scanner and composer when PyYAML has them, else Python's (rules.specdata)
_LOADER = YAML_LOADER

MAX_BYTES = 1_000_000
MAX_DEPTH = 64
# Values (keys and scalars) in one input file: an 800 KB scenario of 21,000 actions has
# 84,000; building and checking many more is what made a file of tiny steps slow.
MAX_VALUES = 150_000
READ_TIMEOUT = 10.0  # seconds for a pipe or a device to come to its end
_CHUNK = 65536


class InputFileError(MalformedError):
    """A file that cannot be read for us (missing, a folder, too large, endless, not
    UTF-8); ``file`` and ``line`` say where."""

    def __init__(self, message: str, *, file: str, line: int | None = None) -> None:
        place = f"{file}:{line}" if line else file
        super().__init__(message, where=place)
        self.file = file
        self.line = line


class YamlInputError(InputFileError):
    """A file that is not acceptable YAML for us; ``file`` and ``line`` say where."""


@dataclass(frozen=True)
class Loaded:
    """The data of a YAML file and the line of every JSON pointer in it (1-based)."""

    data: Any
    lines: dict[str, int]
    file: str

    def line_of(self, pointer: str) -> int | None:
        """The line of ``pointer``, or of its nearest ancestor that has one."""
        while True:
            if pointer in self.lines:
                return self.lines[pointer]
            if not pointer:
                return None
            pointer = pointer.rsplit("/", 1)[0]


def load_file(path: str | Path) -> Loaded:
    path = Path(path)
    try:
        raw = read_bounded(path)
    except InputFileError as exc:
        raise YamlInputError(str(exc).removeprefix(f"{exc.file}: "), file=exc.file) from None
    return load_bytes(raw, str(path))


def read_bounded(path: str | Path, limit: int = MAX_BYTES, *,
                 timeout: float = READ_TIMEOUT) -> bytes:
    """The bytes of ``path``, at most ``limit`` of them, read within ``timeout`` seconds;
    else one ``InputFileError``. A regular file's size is checked before reading, a pipe's
    or device's while reading; opening never waits for a pipe's writer."""
    name = str(path)
    if "\0" in name:   # os.open would raise ValueError: no file has such a name
        raise InputFileError("cannot read: the path holds a NUL byte, which no file name "
                             "can", file=name.replace("\0", "\\0"))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise InputFileError(_why_unreadable(exc), file=name) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputFileError("cannot read: a folder, not a file", file=name)
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise InputFileError(f"file is {info.st_size} bytes; the limit is {limit}", file=name)
        return _read_fd(fd, limit, timeout, name)
    finally:
        os.close(fd)


def _read_fd(fd: int, limit: int, timeout: float, name: str) -> bytes:
    data = bytearray()
    deadline = time.monotonic() + timeout
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    while True:
        try:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - len(data)))
        except BlockingIOError:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise InputFileError(f"no end of the input within {timeout:g} s (a pipe or "
                                     "device that does not end?)", file=name) from None
            poller.poll(min(remaining, 0.5) * 1000)
            continue
        except OSError as exc:
            raise InputFileError(_why_unreadable(exc), file=name) from None
        if not chunk:
            return bytes(data)
        data += chunk
        if len(data) > limit:
            raise InputFileError(f"more than {limit} bytes; the limit is {limit}", file=name)


def _why_unreadable(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "cannot read: no such file"
    if isinstance(exc, IsADirectoryError):
        return "cannot read: a folder, not a file"
    return f"cannot read: {exc.strerror or type(exc).__name__}"


def load_bytes(raw: bytes, file: str) -> Loaded:
    if len(raw) > MAX_BYTES:
        raise YamlInputError(f"file is {len(raw)} bytes; the limit is {MAX_BYTES}", file=file)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise YamlInputError("not UTF-8 text", file=file, line=line) from exc
    if not text.strip():
        raise YamlInputError("the file is empty", file=file)
    try:
        _scan(text, file)
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.reader.ReaderError as exc:
        line = text[:exc.position].count("\n") + 1
        raise YamlInputError(f"character {exc.character!r} is not allowed in YAML", file=file,
                             line=line) from exc
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise YamlInputError(f"not valid YAML: {exc.problem or exc}", file=file,
                             line=mark.line + 1 if mark else None) from exc
    except yaml.YAMLError as exc:
        raise YamlInputError(f"not valid YAML: {exc}", file=file) from exc
    if node is None:
        raise YamlInputError("the file holds no document", file=file)
    lines: dict[str, int] = {}
    data = _convert(node, "", lines, file, 0)
    return Loaded(data, lines, file)


_OPEN = (yaml.BlockMappingStartToken, yaml.BlockSequenceStartToken,
         yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken)
_CLOSE = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)


def _scan(text: str, file: str) -> None:
    """Refuse anchors, aliases, tags, deep nesting and too many values before anything
    is built (composing is recursive, so depth must be bounded first; and building is
    what costs: 200,000 tiny values took seconds to compose and minutes to check)."""
    depth = values = 0
    for token in yaml.scan(text, Loader=_LOADER):
        line = token.start_mark.line + 1
        if isinstance(token, yaml.ScalarToken):
            values += 1
            if values > MAX_VALUES:
                raise YamlInputError(f"more than {MAX_VALUES:,} values (keys and scalars); "
                                     "the limit of an input file", file=file, line=line)
        if isinstance(token, yaml.AnchorToken | yaml.AliasToken):
            raise YamlInputError("anchors and aliases are not allowed", file=file, line=line)
        if isinstance(token, yaml.TagToken):
            raise YamlInputError("tags are not allowed", file=file, line=line)
        if isinstance(token, _OPEN):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlInputError(f"nested deeper than {MAX_DEPTH} levels", file=file,
                                     line=line)
        elif isinstance(token, _CLOSE):
            depth -= 1


def _convert(node: yaml.Node, pointer: str, lines: dict[str, int], file: str, depth: int) -> Any:
    line = node.start_mark.line + 1
    lines.setdefault(pointer, line)
    if depth > MAX_DEPTH:
        raise YamlInputError(f"nested deeper than {MAX_DEPTH} levels", file=file, line=line)
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node, file) if isinstance(key_node, yaml.ScalarNode) else None
            if not isinstance(key, str):
                raise YamlInputError("every key must be a string", file=file,
                                     line=key_node.start_mark.line + 1)
            if key in result:
                raise YamlInputError(f"duplicate key {excerpt(key)}", file=file,
                                     line=key_node.start_mark.line + 1)
            child = f"{pointer}/{key}"
            lines[child] = key_node.start_mark.line + 1
            result[key] = _convert(value_node, child, lines, file, depth + 1)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, f"{pointer}/{i}", lines, file, depth + 1)
                for i, item in enumerate(node.value)]
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node, file)
    raise InternalError(f"a YAML node of no known kind: {type(node).__name__}")


_TAG = "tag:yaml.org,2002:"
_DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)")


def _scalar(node: yaml.ScalarNode, file: str) -> Any:
    """A JSON scalar from a YAML scalar, judged by its resolved tag and its text (nothing
    is constructed by YAML's own machinery, so nothing but JSON values can come out)."""
    line = node.start_mark.line + 1
    tag, text = node.tag.removeprefix(_TAG), node.value
    if tag == "str":
        return text
    if tag == "null":
        return None
    if tag == "bool":
        if text not in ("true", "false"):
            raise YamlInputError(f"{excerpt(text)} is read as a boolean by YAML: write true "
                                 "or false, or quote it if it is text", file=file, line=line)
        return text == "true"
    if tag == "int":
        if not _DECIMAL.fullmatch(text):
            raise YamlInputError(f"write integers in plain decimal ({text[:20]!r})", file=file,
                                 line=line)
        if len(text) > 17 or abs(int(text)) > 2**53:
            raise YamlInputError("integer too large (beyond 2**53)", file=file, line=line)
        return int(text)
    if tag == "float":
        raise YamlInputError("numbers are integers only in our formats", file=file, line=line)
    raise YamlInputError(f"{excerpt(text)} is read as a {tag} by YAML, which is not JSON; "
                         "quote it if it is text", file=file, line=line)
