"""The porter protocol's versions, read from ``spec/protocol.yaml``: the one place that
says which version the kit speaks, which schema each version has, and what changed from
one version to the next, so that a port of an older version is told exactly what to do
(docs/porting.md, "Protocol versions"). A new version is one entry there and a schema."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from mammamia_ref.errors import SpecError
from mammamia_ref.rules.specdata import load_yaml, spec_path, variant_flags
from mammamia_ref.rules.typed_spec import PARAMETER_NAMES

# The schemas the compared answers are written in, beside each version's own.
ANSWER_SCHEMAS = ("state.schema.json", "action.schema.json", "event.schema.json",
                  "observation.schema.json")
DOCS = "docs/porting.md#protocol-versions"

# Free text is never compared: a failed order's ``why`` and a rejection's ``message``.
FREE_TEXT = frozenset(("why", "message"))

# What the kit compares of a port's answers (docs/porting.md, section 5), as data: its
# fingerprint is part of each protocol version (spec/protocol.yaml), so that a change
# here without a new version fails tests/test_protocol_versions.py.
COMPARED: dict[str, Any] = {
    "hello": ["protocol", "variants (the values offered, the default included)",
              "parameters (the names taken; a non-default value of another is skipped)",
              "features"],
    "state": "every key of the canonical state, result included once the game is over, "
             "parameters included when a number of the rules is not the spec's; in the "
             "port's version's terms (a flag neither its version nor its hello knows left "
             "out of variants, as in what is sent)",
    "new_game": "parameters: the numbers of the rules that differ from the spec's, if any",
    "chance": "the pile about to be shuffled, as a multiset",
    "events": "feature events: in order, every field but the free text",
    "free_text": sorted(FREE_TEXT),
    "rejected": ["rule"],
    "actions": "a set of canonical actions",
    "observation": "feature observation: key for key, parameters included when a number "
                   "of the rules is not the spec's",
    "nodes": "feature perft: the count",
    "seats": "feature seats: apply with player, refused unless that seat decides",
    "probes": "random games: a refused action, another seat's attempt, two views",
}


@dataclass(frozen=True)
class Version:
    """One protocol version: its id, its schema (a file of ``spec/schemas/``), the
    fingerprints recorded for it, its features, and what changed from the one before."""

    id: str
    schema: str
    schema_sha256: str
    compared_sha256: str | None
    features: tuple[str, ...]
    changes: tuple[str, ...]
    # what the version's changes need of a port (a word of spec/protocol.yaml's `need`,
    # one per change that an older port meets; those it never meets need nothing)
    needs: tuple[str, ...] = ()
    # the variant flags, parameters and events the version adds to the protocol
    adds: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)

    @property
    def number(self) -> int:
        """The version's place, 1 for the first (``mammamia-protocol/N``)."""
        return versions().index(self) + 1


# What a version may add to the protocol (spec/protocol.yaml, `adds`).
ADDED = ("flags", "parameters", "events")


def _version(entry: dict[str, Any]) -> Version:
    try:
        return Version(
            entry["id"], entry["schema"], entry["schema_sha256"], entry.get("compared_sha256"),
            tuple(entry["features"]),
            tuple(c["what"] + (f" ({c['rule']})" if c.get("rule") else "")
                  for c in entry["changes"]),
            tuple(dict.fromkeys(c["need"] for c in entry["changes"] if c.get("need"))),
            {kind: tuple((entry.get("adds") or {}).get(kind) or ()) for kind in ADDED})
    except (KeyError, TypeError) as exc:
        raise SpecError(f"spec/protocol.yaml: the version {entry.get('id')!r} lacks {exc}") \
            from None


@cache
def versions() -> tuple[Version, ...]:
    """Every version, oldest first; the last is the one spoken."""
    entries = load_yaml("protocol.yaml").get("versions")
    if not isinstance(entries, list) or not entries:
        raise SpecError("spec/protocol.yaml lists no protocol version")
    return tuple(_version(e) for e in entries)


def introducing(need: str) -> Version | None:
    """The version whose changes need ``need`` of a port (None: no version does)."""
    return next((v for v in versions() if need in v.needs), None)


def adding(kind: str, name: str) -> Version | None:
    """The version that added the flag, parameter or event ``name`` (``kind``: one of
    :data:`ADDED`); None for one no version has added yet (a contributor's new flag
    before its version is written: it is sent only to a port that lists it)."""
    return next((v for v in versions() if name in v.adds.get(kind, ())), None)


def registered(kind: str) -> tuple[str, ...]:
    """Every flag, parameter or event some version has added, in the order added."""
    return tuple(name for v in versions() for name in v.adds.get(kind, ()))


def current() -> Version:
    return versions()[-1]


def known(version_id: Any) -> Version | None:
    """The version named ``version_id``, if the kit knows it."""
    return next((v for v in versions() if v.id == version_id), None)


def known_ids() -> str:
    """The versions known, in a few words however many there are (a version is added
    with each new flag): ``mammamia-protocol/1 to mammamia-protocol/5``."""
    ids = [v.id for v in versions()]
    return ids[0] if len(ids) == 1 else " and ".join(ids) if len(ids) == 2 else \
        f"{ids[0]} to {ids[-1]}"


def changes_since(version_id: str) -> list[str]:
    """What changed from ``version_id`` to the version spoken, oldest change first."""
    ids = [v.id for v in versions()]
    return [change for v in versions()[ids.index(version_id) + 1:] for change in v.changes]


def refusal(spoken: Any) -> str:
    """The one line that refuses a port speaking ``spoken``: for an unknown version, a
    short line with the versions known (the kit runs a port of a known older version
    in that version's terms); ``serve``, which speaks the last version only, tells a
    client of an older one every change since, in words."""
    ours = current().id
    old = known(spoken)
    if old is None:
        shown = repr(spoken) if isinstance(spoken, str) and len(spoken) <= 40 and \
            spoken.isprintable() else "an unknown version" if spoken is not None else "none"
        return f"the implementation speaks {shown}; this kit knows {known_ids()} (see {DOCS})"
    if old.id == ours:
        return f"the implementation speaks {ours}"
    changes = changes_since(old.id)
    ids = [v.id for v in versions()]
    said, number = [], 1
    for version in versions()[ids.index(old.id) + 1:]:  # each version's changes, in order
        said.append(f"in {version.id}: " + "; ".join(
            f"({number + i}) {c}" for i, c in enumerate(version.changes)))
        number += len(version.changes)
    return (f"the implementation speaks {old.id}; this kit speaks {ours}, which changed "
            f"{len(changes)} thing{'s' if len(changes) != 1 else ''} since: "
            + "; ".join(said)
            + f"; update the port and answer hello with {ours} (see {DOCS})")


def named_version(text: str) -> str | None:
    """A known older version named in a port's error message (a port that refuses our
    hello often says which version it speaks)."""
    for match in re.findall(r"mammamia-protocol/\d+", text):
        if known(match) is not None and match != current().id:
            return str(match)
    return None


def file_sha256(name: str) -> str:
    try:
        return hashlib.sha256(spec_path(f"schemas/{name}").read_bytes()).hexdigest()
    except OSError as exc:
        raise SpecError(f"cannot read spec/schemas/{name}: {exc}") from exc


def vocabulary() -> dict[str, Any]:
    """What a port must know of the game's words, as the protocol carries them: every
    variant flag with its values, every parameter, and the event register (each event's
    fields, types and rules). A flag, a parameter or an event added or changed moves the
    fingerprint: a new protocol version."""
    register = load_yaml("events.yaml").get("events") or {}
    return {"flags": {f["flag"]: sorted(v["value"] for v in f["values"])
                      for f in variant_flags()},
            "parameters": sorted(PARAMETER_NAMES),
            "events": {name: {"fields": e.get("fields"), "rules": sorted(e.get("rules") or [])}
                       for name, e in register.items()}}


def compared_sha256(version: Version, compared: dict[str, Any],
                    words: dict[str, Any] | None = None) -> str:
    """The fingerprint of what the kit compares under ``version``: its schema, the
    schemas of the compared answers, the kit's declaration ``compared`` and the game's
    words the protocol carries (:func:`vocabulary`, or ``words`` in its stead)."""
    digest = hashlib.sha256()
    for name in (version.schema, *ANSWER_SCHEMAS):
        digest.update(f"{name}:{file_sha256(name)}\n".encode())
    digest.update(json.dumps({"features": version.features, "compared": compared,
                              "vocabulary": vocabulary() if words is None else words},
                             sort_keys=True).encode())
    return digest.hexdigest()


def fingerprints() -> dict[str, str]:
    """The two fingerprints to record for the last version of ``spec/protocol.yaml``
    once its schema is written."""
    version = current()
    return {"schema_sha256": file_sha256(version.schema),
            "compared_sha256": compared_sha256(version, COMPARED)}
