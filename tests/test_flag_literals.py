"""Flag values are compared as the generated enum members, never as strings (issue 45).

A flag's values live in ``spec/disputes.yaml``; ``rules/typed_spec.py`` (generated from it)
turns each flag into a StrEnum. A string literal in the flag's place (``flags.stall ==
"cut"``) passes ``mypy --strict`` even when misspelt, because a StrEnum member is a str; the
enum member (``Stall.CUT``) does not. So the package may hold no string literal where a
flag's value goes: compared with something named after a flag (``x.stall``, ``stall``,
``x["stall"]``), as a case of a ``match`` on one, as the value of a dict key, keyword,
default or assignment named after a flag. Any string counts there (a misspelt one most
of all); the flags and their values are read from the spec.

Not seen: a literal passed positionally to a parameter named otherwise (the scan reads
names, not types).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from mammamia_ref.rules import specdata

PACKAGE = Path(__file__).resolve().parent.parent / "mammamia_ref"

GENERATED = "rules/typed_spec.py"
"""The one module that may spell the values: it is written from the spec."""

FLAG_VALUES: dict[str, tuple[str, ...]] = {
    entry["flag"]: tuple(str(value["value"]) for value in entry["values"])
    for entry in specdata.variant_flags()}


def _flag_named(node: ast.expr) -> str | None:
    """The flag an expression is named after (``x.stall``, ``stall``, ``x["stall"]``)."""
    if isinstance(node, ast.Attribute):
        name = node.attr
    elif isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        name = node.slice.value
    else:
        return None
    return name if isinstance(name, str) and name in FLAG_VALUES else None


def _strings(node: ast.expr | None) -> Iterator[ast.Constant]:
    """The string literals of an expression that stands for a value or a collection of them.
    A flag value is one word (:func:`test_a_flag_value_is_one_word`), so a string holding
    whitespace is prose, not a value: a description keyed by a name that is also a flag's
    (``kit/terms.py``'s ``NEEDS["draw_piles"]``, a protocol need named after the flag)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) \
            and not any(char.isspace() for char in node.value):
        yield node
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for item in node.elts:
            yield from _strings(item)


def _pattern_strings(pattern: ast.pattern) -> Iterator[ast.Constant]:
    if isinstance(pattern, ast.MatchValue):
        yield from _strings(pattern.value)
    elif isinstance(pattern, ast.MatchOr):
        for option in pattern.patterns:
            yield from _pattern_strings(option)


def _defaults(args: ast.arguments) -> Iterator[tuple[ast.arg, ast.expr | None]]:
    positional = [*args.posonlyargs, *args.args]
    yield from zip(positional[len(positional) - len(args.defaults):], args.defaults,
                   strict=True)
    yield from zip(args.kwonlyargs, args.kw_defaults, strict=True)


def flag_literals(tree: ast.AST) -> Iterator[tuple[str, ast.Constant]]:
    """Every string literal in a flag's place, with the flag."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for side in sides:
                if flag := _flag_named(side):
                    for other in sides:
                        yield from ((flag, c) for c in _strings(other))
        elif isinstance(node, ast.Match) and (flag := _flag_named(node.subject)):
            for case in node.cases:
                yield from ((flag, c) for c in _pattern_strings(case.pattern))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in FLAG_VALUES:
                    yield from ((key.value, c) for c in _strings(value))
        elif isinstance(node, ast.keyword) and node.arg in FLAG_VALUES:
            yield from ((node.arg, c) for c in _strings(node.value))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for arg, default in _defaults(node.args):
                if arg.arg in FLAG_VALUES:
                    yield from ((arg.arg, c) for c in _strings(default))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if flag := _flag_named(target):
                    yield from ((flag, c) for c in _strings(node.value))


def scanned() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel != GENERATED:
            yield rel, path


def found(paths: Iterator[tuple[str, Path]]) -> list[str]:
    out = []
    for rel, path in paths:
        for flag, literal in flag_literals(ast.parse(path.read_text(encoding="utf-8"))):
            known = literal.value in FLAG_VALUES[flag]
            out.append(f"mammamia_ref/{rel}:{literal.lineno}: {literal.value!r} for flag "
                       f"{flag} ({'use its enum member' if known else 'not one of its values'})")
    return out


def test_no_flag_value_is_a_string_literal() -> None:
    assert len(list(scanned())) > 60, "the scan found too few modules to be reading the package"
    literals = found(scanned())
    assert not literals, "flag values written as strings:\n" + "\n".join(literals)


def test_a_flag_value_is_one_word() -> None:
    """The scan passes over strings with whitespace in them: no value of the spec has any."""
    spaced = [(flag, value) for flag, values in FLAG_VALUES.items() for value in values
              if any(char.isspace() for char in value)]
    assert len(FLAG_VALUES) > 10 and not spaced, spaced


def test_the_scan_sees_each_place_of_a_flag_value() -> None:
    """Each form the scan looks for is found, a misspelt value too; other strings are not."""
    source = '''
if rules.flags.stall == "cut": pass
if draw_amount in ("any", "fill"): pass
if flags["refill"] != "to_sevn": pass
match state.flags.leftovers:
    case "oven" | "table": pass
make_rules({"round_end": "last_card"})
replace(flags, final_tie="shared")
def f(completion="mandatory"): pass
oven_memory = "seen"
if state.phase == "oven": pass
if rules.flags.stall is Stall.CUT: pass
place = {"table": "oven"}
NEEDS = {"draw_piles": "the flag is not sent", "stall": "cut it"}
make_rules({"draw_piles": "bothh"})
'''
    seen = sorted((c.lineno, flag, c.value) for flag, c in flag_literals(ast.parse(source)))
    assert [(flag, value) for _line, flag, value in seen] == [
        ("stall", "cut"), ("draw_amount", "any"), ("draw_amount", "fill"),
        ("refill", "to_sevn"), ("leftovers", "oven"), ("leftovers", "table"),
        ("round_end", "last_card"), ("final_tie", "shared"),
        ("completion", "mandatory"), ("oven_memory", "seen"), ("draw_piles", "bothh")], seen
