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


# Who each hand-written page is for (its tab in the navigation); a page not listed here
# goes to the porters. The Ports page (generated) is listed with the porters.
AUDIENCES: dict[str, str] = {
    "simulation.md": "designers", "house-rules.md": "designers", "questions.md": "designers",
    "porting.md": "porters", "scenario-format.md": "porters", "state-format.md": "porters",
    "observation.md": "porters", "strategies.md": "porters",
    "mutation.md": "maintainers", "performance.md": "maintainers",
    "reliability.md": "maintainers",
}


def by_audience(handwritten: dict[str, str]) -> dict[str, list[dict[str, str]]]:
    """The hand-written pages as navigation entries, by audience, in the order given
    (the porting guide first among the porters').

    >>> pages = by_audience({"scenario-format.md": "The scenario format",
    ...                      "porting.md": "Porting guide: test your port with the kit",
    ...                      "mutation.md": "Mutants"})
    >>> pages["porters"], pages["maintainers"], pages["designers"]
    ([{'Porting guide': 'porting.md'}, {'The scenario format': 'scenario-format.md'}], \
[{'Mutants': 'mutation.md'}], [])
    """
    found: dict[str, list[dict[str, str]]] = {"designers": [], "porters": [], "maintainers": []}
    order = sorted(handwritten, key=lambda page: page != "porting.md")
    for page in order:
        found[AUDIENCES.get(page, "porters")].append({short_title(handwritten[page]): page})
    return found


def porting_page(handwritten: dict[str, str] | None = None) -> str:
    """The porters' index: the porting guide, the format documents, the command line
    and the API (the project's own testing is the maintainers')."""
    porters = by_audience(handwritten or {})["porters"]
    pages = "\n".join(f"- [{md(title)}](../{path})" for entry in porters
                      for title, path in entry.items())
    return f"""# For porters

Everything a port of the game needs is language-neutral: the registers in `spec/`, the
JSON Schemas in `spec/schemas/`, and the scenarios. A port passes when every run of
every [scenario](../scenarios/index.md) passes against it;
`mammamia scenario export -o scenarios.json` gives all of them as one JSON bundle. Start
with the porting guide.

{pages}
- [The command line](cli.md), generated from the `mammamia` argument parser.
- [The Python API](api.md) of the reference implementation, module by module, from
  its docstrings.
"""
