"""The Python API page: every module of the package, its public classes and functions
with their docstrings, read from the source with ``ast``; nothing is imported, so the
page documents every layer without the site depending on any of them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _docstring_md(text: str | None) -> str:
    """A docstring (reST-flavoured) as Markdown: doctests become code blocks."""
    if not text:
        return ""
    text = re.sub(r":(?:func|class|mod|meth|data|attr):`~?([^`]+)`", r"`\1`", text)
    text = text.replace("``", "`")
    out: list[str] = []
    in_code = False
    for line in text.splitlines():
        if line.startswith(">>>") and not in_code:
            if out and out[-1] != "":
                out.append("")
            out += ["```pycon", line]
            in_code = True
            continue
        if in_code:
            if line.strip() == "":
                out += ["```", ""]
                in_code = False
            else:
                out.append(line)
            continue
        stripped = line.lstrip()
        if stripped.startswith(("- ", "* ")) and out and out[-1] and \
                not out[-1].lstrip().startswith(("- ", "* ")) and not out[-1].startswith("  "):
            out.append("")
        out.append(_escape_outside_code(line))
    if in_code:
        out.append("```")
    return "\n".join(out)


def _escape_outside_code(line: str) -> str:
    """Escape what Markdown would read as HTML or emphasis, except in `code`."""
    parts = line.split("`")
    for i in range(0, len(parts), 2):
        parts[i] = parts[i].replace("<", "&lt;").replace("*", "\\*")
    return "`".join(parts)


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef, *, method: bool) -> str:
    """A function's signature as written, without ``self``/``cls`` for a method."""
    args = ast.unparse(node.args)
    if method:
        args = re.sub(r"^self(, )?|^cls(, )?", "", args)
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"{node.name}({args}){returns}"


def _public(name: str) -> bool:
    return not name.startswith("_")


def module_markdown(path: Path, module: str) -> str:
    """One module's reference, read from its source with ``ast`` (nothing is imported)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exported: list[str] | None = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                for t in node.targets):
            try:
                exported = [str(x) for x in ast.literal_eval(node.value)]
            except ValueError:
                exported = None
    out = [f"## `{module}` {{ #{module.replace('.', '-')} }}", "",
           _docstring_md(ast.get_docstring(tree)), ""]
    for node in tree.body:
        if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not _public(node.name) or (exported is not None and node.name not in exported):
            continue
        if isinstance(node, ast.ClassDef):
            bases = ", ".join(ast.unparse(b) for b in node.bases)
            out += [f"### class `{node.name}{f'({bases})' if bases else ''}`", "",
                    _docstring_md(ast.get_docstring(node)), ""]
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and \
                        _public(item.name) and ast.get_docstring(item):
                    out += [f"- `{_signature(item, method=True)}`: "
                            + " ".join((_docstring_md(ast.get_docstring(item))).split())]
            out.append("")
        else:
            out += [f"### `{_signature(node, method=False)}`", "",
                    _docstring_md(ast.get_docstring(node)), ""]
    return "\n".join(out)


def api_modules(package_dir: Path = PACKAGE_DIR) -> list[tuple[str, Path]]:
    """Every module of the package, sub-packages included: (dotted name, source file)."""
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        relative = path.relative_to(package_dir)
        if path.stem == "__main__" or any(p.startswith((".", "_")) and p != "__init__.py"
                                          for p in relative.parts):
            continue
        parts = [package_dir.name, *relative.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found.append((".".join(parts), path))
    return sorted(found)


def api_markdown(package_dir: Path = PACKAGE_DIR) -> str:
    """Every module's reference, in the order of their dotted names."""
    return "\n".join(module_markdown(path, name) for name, path in api_modules(package_dir))


def api_page(package_dir: Path = PACKAGE_DIR) -> str:
    """The page: an index of the modules, then each module's reference."""
    index = ", ".join(f"[`{n}`](#{n.replace('.', '-')})" for n, _ in api_modules(package_dir))
    return ("# Python API\n\nThe reference implementation's modules, generated from their "
            "docstrings.\n\n" + index + "\n\n" + api_markdown(package_dir))
