"""``mammamia rules``, ``disputes`` and ``variants``: the registers of ``spec/``, printed."""

from __future__ import annotations

import argparse
import json
from difflib import get_close_matches
from typing import Any

from mammamia_ref.cli.args import Commands
from mammamia_ref.errors import MammamiaError


class UnknownEntryError(MammamiaError):
    """``mammamia rules ID`` or ``disputes ID`` with an ID the register does not hold."""

    def __init__(self, what: str, key: str, known: list[str] | None = None) -> None:
        known = known or []
        near = [k for k in known if k.lower() == key.lower()][:1] or \
            get_close_matches(key, known, n=1, cutoff=0.6)
        if not near and known:  # a rule ID's last part alone: "bake" for oven.bake
            near = [k for k in known if k.rsplit(".", 1)[-1] == key][:1]
        hint = f"did you mean {near[0]}?" if near else f"`mammamia {what}s` lists them"
        super().__init__(f"no {what} {key!r}; {hint}")
        self.what, self.key = what, key


def add_parsers(commands: Commands) -> None:
    rules = commands.add_parser("rules", help="print the rule register, or one rule")
    rules.add_argument("id", nargs="?", help="a rule ID, such as oven.minimale (default: "
                       "every rule)")
    rules.add_argument("--json", action="store_true", help="the register entries as JSON")
    rules.set_defaults(handler=run_rules)
    disputes = commands.add_parser("disputes", help="print the disputes register, or one dispute")
    disputes.add_argument("id", nargs="?", help="a dispute ID, such as D4 (default: every "
                          "dispute)")
    disputes.add_argument("--json", action="store_true", help="the register entries as JSON")
    disputes.set_defaults(handler=run_disputes)
    variants = commands.add_parser("variants", help="list the variant flags and their values")
    variants.add_argument("--json", action="store_true", help="the flags as JSON")
    variants.set_defaults(handler=run_variants)


def run_rules(args: argparse.Namespace) -> int:
    from mammamia_ref.rules import specdata  # the spec's YAML is read when a command runs

    entries = specdata.rules()
    if args.id:
        entries = [_find(entries, args.id, "rule")]
    if args.json:
        return _print_json(entries, single=bool(args.id))
    for entry in entries:
        when = entry.get("when")
        print(f"{entry['id']}: {entry['title']}" + (f"  (when {_flags(when)})" if when else ""))
        if args.id:
            print(f"  {' '.join(entry['statement'].split())}")
            for source in entry.get("sources") or []:
                print(f"  source: edition {_edition(source['edition'])}, {source['section']}")
                if source.get("note"):
                    print(f"    note: {' '.join(str(source['note']).split())}")
            if entry.get("ruling"):
                print(f"  ruling of dispute {entry['ruling']}")
            if entry.get("disputes"):
                print(f"  disputes: {', '.join(entry['disputes'])}")
    return 0


def run_disputes(args: argparse.Namespace) -> int:
    from mammamia_ref.rules import specdata

    entries = specdata.disputes()
    if args.id:
        entries = [_find(entries, args.id, "dispute")]
    if args.json:
        return _print_json(entries, single=bool(args.id))
    for entry in entries:
        print(f"{entry['id']}: {entry['title']}")
        if args.id:
            print(f"  question: {' '.join(entry['question'].split())}")
            for position in entry.get("positions") or []:
                print(f"  edition {_edition(position['edition'])}, {position['section']}: "
                      f"{' '.join(position['says'].split())}")
            print(f"  ruling: {' '.join(entry['ruling'].split())}")
            print(f"  why: {' '.join(entry['reason'].split())}")
            if entry.get("flags"):
                print(f"  variant flags: {', '.join(entry['flags'])}")
    return 0


def run_variants(args: argparse.Namespace) -> int:
    from mammamia_ref.rules import specdata

    if args.json:
        return _print_json(specdata.variant_flags(), single=False)
    for entry in specdata.variant_flags():
        values = ", ".join(v["value"] + (" (default)" if v["value"] == entry["default"] else "")
                           for v in entry["values"])
        print(f"{entry['flag']} [{entry['dispute'] or 'house rule'}]: {values}")
    from mammamia_ref.cli.style import number_words
    from mammamia_ref.rules.ruleset import default_rules, parameter_specs

    print("\nparameters (a house rule's numbers: --house FILE, docs/house-rules.md):")
    for name, value in default_rules().parameters_dict().items():
        entry = parameter_specs()[name]
        if isinstance(value, dict):  # by player count
            said = number_words(value)
            print(f"{name} [{entry['rule']}]: {said} (default), {entry['min']} to "
                  f"{entry['max']} each")
        else:
            print(f"{name} [{entry['rule']}]: {value} (default), {entry['min']} to {entry['max']}")
    return 0


def _edition(edition: str) -> str:
    """An edition's ID with what it is: ``001 (English rules summary (web page))``."""
    from mammamia_ref.rules import specdata

    titles = {e["id"]: e["title"] for e in specdata.load_yaml("rules.yaml").get("editions", [])}
    title = titles.get(str(edition))
    return f"{edition} ({title})" if title else str(edition)


def _flags(when: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in when.items())


def _find(entries: list[dict[str, Any]], key: str, what: str) -> dict[str, Any]:
    for entry in entries:
        if entry["id"] == key:
            return entry
    raise UnknownEntryError(what, key, [e["id"] for e in entries])


def _print_json(entries: list[dict[str, Any]], *, single: bool) -> int:
    """The register entries as they stand in spec/ (one object for one ID, else a list)."""
    print(json.dumps(entries[0] if single else entries, indent=1, ensure_ascii=False,
                     default=str))
    return 0
