"""The porting guide: its index, and the hand-written pages of ``docs/`` it lists (the
format documents), found by reading the folder so that a new document needs no code."""

from __future__ import annotations

from pathlib import Path

from mammamia_ref.site.text import md


def handwritten_pages(docs_dir: str | Path) -> dict[str, str]:
    """The hand-written Markdown pages in docs/ (hooks/ aside): path to title (its first
    heading), the format documents first."""
    found: dict[str, str] = {}
    root = Path(docs_dir)
    for path in sorted(root.rglob("*.md")):
        relative = path.relative_to(root).as_posix()
        if relative.split("/")[0] in ("hooks",) or relative.startswith((".", "_")):
            continue
        title = next((line[2:].strip() for line in path.read_text(encoding="utf-8")
                      .splitlines() if line.startswith("# ")), path.stem.replace("-", " "))
        found[relative] = title
    first = [p for p in ("scenario-format.md", "state-format.md") if p in found]
    return {p: found[p] for p in [*first, *(p for p in found if p not in first)]}


def short_title(title: str) -> str:
    """A long page title cut at its colon, for the navigation."""
    return title.split(":", 1)[0].strip() if len(title) > 40 else title


def porting_page(handwritten: dict[str, str] | None = None) -> str:
    """The porting guide's index: the hand-written format documents, the command line
    and the API."""
    pages = "\n".join(f"- [{md(title)}](../{path})" for path, title in
                      (handwritten or {}).items())
    return f"""# Porting guide

Everything a port of the game needs is language-neutral: the registers in `spec/`, the
JSON Schemas in `spec/schemas/`, and the scenarios. A port passes when every run of
every [scenario](../scenarios/index.md) passes against it;
`mammamia scenario export -o scenarios.json` gives all of them as one JSON bundle.

{pages}
- [The command line](cli.md), generated from the `mammamia` argument parser.
- [The Python API](api.md) of the reference implementation, module by module, from
  its docstrings.
"""
