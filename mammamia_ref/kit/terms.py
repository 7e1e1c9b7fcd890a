"""What a port offers: the protocol version it speaks, and the flag values, parameters
and features its ``hello`` lists. They decide which cases it is run through, what is
sent to it and what of its answers is compared (docs/porting.md, "Protocol versions"):
a port of an older known version runs in that version's terms, a case needing a later
change is skipped with one line per change, and a flag the port's version does not know
and its hello does not list is neither sent nor compared (it is at its default)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mammamia_ref.kit.versions import Version, adding, current, introducing, known
from mammamia_ref.rules.ruleset import ParameterValue, Rules
from mammamia_ref.rules.state import variant_defaults

# What the kit does differently for each `need` of spec/protocol.yaml (a test checks
# that the two lists agree): the need, and what a port of an earlier version is spared.
NEEDS = {
    "result": "a finished game's `result` is neither compared nor sent; a case checking "
              "the winners is skipped",
    "second_play": "a case where a second play in a turn is refused is skipped; a random "
                   "game does not probe it",
    "seats": "a case naming the seat that attempts an action is skipped",
    "parameters": "a case under a number of the rules other than the spec's is skipped",
    "draw_piles": "the flag is neither sent nor compared at its default; a case needing "
                  "another value is skipped",
    "observation_parameters": "an observation's `parameters` are not compared",
}


class OutOfTerms(Exception):
    """A case meets a change of a later version than the port speaks: it is skipped,
    with the line :meth:`Terms.lacks` gives."""


@dataclass(frozen=True)
class Terms:
    """A port's terms, read from its hello (:func:`terms_of`)."""

    version: Version
    offered: dict[str, list[str]]   # hello's variants: flag -> the values offered
    taken: tuple[str, ...]          # hello's parameters
    features: tuple[str, ...]       # hello's features the port's version defines

    @property
    def older(self) -> bool:
        return self.version != current()

    def speaks(self, need: str) -> bool:
        """Whether the port's version includes the change that needs ``need``."""
        since = introducing(need)
        return since is None or since.number <= self.version.number

    def lacks(self, need: str) -> str | None:
        """The skip line of a case that needs ``need``, if the port's version predates
        the change (``need `parameters` (protocol /3)``), else None."""
        since = introducing(need)
        if since is None or since.number <= self.version.number:
            return None
        return f"need `{need}` (protocol /{since.number})"

    def knows_flag(self, flag: str) -> bool:
        """A flag the port lists, or one its version knows: sent and compared."""
        since = adding("flags", flag)
        return flag in self.offered or (since is not None
                                        and since.number <= self.version.number)

    def variants(self, variants: dict[str, Any]) -> dict[str, Any]:
        """The flags sent to the port and compared in its states: those it knows (a
        case needing another value of one it does not know has been skipped)."""
        return {flag: value for flag, value in variants.items() if self.knows_flag(flag)}

    def state(self, doc: Any) -> Any:
        """A state as sent to the port and as its own is compared, in its terms."""
        if not isinstance(doc, dict):
            return doc
        out = dict(doc)
        if isinstance(out.get("variants"), dict):
            out["variants"] = self.variants(out["variants"])
        if not self.speaks("result"):
            out.pop("result", None)
        return out

    def observation(self, doc: dict[str, Any]) -> dict[str, Any]:
        """An observation as compared, in the port's terms."""
        out = self.state(doc)
        if not self.speaks("observation_parameters"):
            out.pop("parameters", None)
        return dict(out)

    def supports(self, variants: dict[str, str],
                 parameters: dict[str, ParameterValue] | None = None) -> str | None:
        """Why the port cannot run a game under ``variants`` and the non-default
        ``parameters`` (None if it can): in its version's words where the version
        predates the flag or the parameters, else by what its hello offers."""
        defaults = variant_defaults()
        for flag, value in sorted(variants.items()):
            if value == defaults.get(flag) and not self.knows_flag(flag):
                continue  # at its default, not sent: nothing needed
            since = adding("flags", flag)
            if flag not in self.offered and since is not None and \
                    since.number > self.version.number:
                return f"need `{flag}` (protocol /{since.number})"
            values = self.offered.get(flag, [defaults.get(flag)])
            if value not in values:
                return f"needs {flag}={value}: {offers_in_words(flag, values)}"
        for name, number in sorted((parameters or {}).items()):
            if not self.speaks("parameters"):
                return self.lacks("parameters")
            if name not in self.taken:
                return (f"needs {name}={number_in_words(number)}: your implementation "
                        f"takes no parameter {name}")
        return None


def _names(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def terms_of(info: dict[str, Any]) -> Terms:
    """The terms of a port from its hello (checked at the protocol's edge by the client:
    here anything else is read as offering nothing). A hello naming no known version is
    taken as the version spoken (a test's stand-in connection)."""
    version = known(info.get("protocol")) or current()
    offered = info.get("variants")
    offered = {flag: list(_names(values)) for flag, values in offered.items()
               if isinstance(flag, str) and isinstance(values, list)} \
        if isinstance(offered, dict) else {}
    features = tuple(f for f in _names(info.get("features")) if f in version.features)
    return Terms(version, offered, _names(info.get("parameters")), features)


def supports(info: dict[str, Any], variants: dict[str, str],
             parameters: dict[str, ParameterValue] | None = None) -> str | None:
    """Why the implementation cannot run a game under ``variants`` and the non-default
    ``parameters`` (None if it can): ``hello``'s ``variants`` lists the values the port
    offers, the default included; a flag it leaves out offers its default alone; a
    parameter it does not list in ``parameters`` it takes at the spec's value alone
    (docs/porting.md, section 1)."""
    return terms_of(info).supports(variants, parameters)


def number_in_words(value: ParameterValue) -> str:
    """A parameter's value as a skip line and a case name show it: ``8``, or by player
    count ``2:4,3:3,4:1,5:0`` (no ": ", which parts a skip line's why from its need)."""
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


def supports_rules(info: dict[str, Any], rules: Rules) -> str | None:
    """:func:`supports` for a game's rules: its flags and its non-default parameters."""
    return supports(info, rules.as_dict(), rules.non_default_parameters())


def offers_in_words(flag: str, values: list[Any]) -> str:
    """What the port offers of one flag, the line a summary groups skips by."""
    shown = ", ".join(f"{flag}={v}" for v in values if isinstance(v, str))
    return f"your implementation offers {shown} only" if shown else \
        f"your implementation offers no value of {flag}"
