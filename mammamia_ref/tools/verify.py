"""``mammamia verify``: the main job. Checks the spec registers against each other and
the code, plays a game per player count under every variant value, and runs every
scenario, reporting what passed and what the scenarios cover."""

from __future__ import annotations

import json
import multiprocessing
import re
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mammamia_ref.errors import MammamiaError, NoSuchPathError
from mammamia_ref.formats.house import HouseRule, house_rules, load_house
from mammamia_ref.formats.scenario import (
    Scenario,
    default_suite,
    load_all,
    require_cases,
    scenario_files,
)
from mammamia_ref.rules import specdata
from mammamia_ref.rules.ruleset import default_rules
from mammamia_ref.rules.state import make_config, variant_defaults, variant_values
from mammamia_ref.rules.typed_spec import Stall
from mammamia_ref.rules.vocabulary import MAX_PLAYERS, MIN_PLAYERS
from mammamia_ref.sim import compiled
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import POLICIES
from mammamia_ref.sim.scenario_run import RunResult, run_one
from mammamia_ref.tools.machine import usable_cpus


def _rule_literal() -> re.Pattern[str]:
    """A quoted string that looks like a rule ID of one of the register's chapters."""
    chapters = "|".join(c["id"] for c in specdata.load_yaml("rules.yaml")["chapters"])
    return re.compile(rf"[\"']((?:{chapters})\.[a-z_0-9]+)[\"']")


def spec_problems() -> list[str]:
    """Cross-reference problems between rules.yaml, disputes.yaml and the code."""
    rules = specdata.rules()
    ids = [rule["id"] for rule in rules]
    known = set(ids)
    disputes = {d["id"]: d for d in specdata.disputes()}
    problems = ["rules.yaml: a rule ID is used twice"] if len(known) != len(ids) else []
    problems += _rule_problems(rules, disputes)
    problems += _dispute_problems(disputes, known)
    for path in sorted(Path(__file__).parent.parent.rglob("*.py")):
        for match in _rule_literal().finditer(path.read_text(encoding="utf-8")):
            if match.group(1) not in known:
                problems.append(f"{path.name}: cites {match.group(1)}, which the register lacks")
    return problems


def _rule_problems(rules: list[dict[str, Any]], disputes: dict[str, Any]) -> list[str]:
    """rules.yaml: each rule in its chapter, citing known disputes and variant values,
    with a source, a ruling or a house rule's reason."""
    problems = []
    chapters = {c["id"] for c in specdata.load_yaml("rules.yaml")["chapters"]}
    values = variant_values()
    for rule in rules:
        if rule["chapter"] not in chapters or not rule["id"].startswith(rule["chapter"] + "."):
            problems.append(f"rules.yaml: {rule['id']} is not in chapter {rule['chapter']}")
        problems += [f"rules.yaml: {rule['id']} cites unknown dispute {dispute}"
                     for dispute in rule.get("disputes") or [] if dispute not in disputes]
        problems += [f"rules.yaml: {rule['id']} applies when {flag}={value}, which is no "
                     "variant value" for flag, value in (rule.get("when") or {}).items()
                     if value not in values.get(flag, ())]
        if not rule.get("sources") and not rule.get("ruling") and not rule.get("house_rule"):
            problems.append(f"rules.yaml: {rule['id']} has neither a source, a ruling nor a "
                            "house rule's reason")
    return problems


def _dispute_problems(disputes: dict[str, Any], known: set[str]) -> list[str]:
    """disputes.yaml: each dispute and flag citing known rules, flags and disputes."""
    problems = []
    values = variant_values()
    for dispute in disputes.values():
        problems += [f"disputes.yaml: {dispute['id']} cites unknown rule {rule_id}"
                     for rule_id in dispute.get("rules") or [] if rule_id not in known]
        problems += [f"disputes.yaml: {dispute['id']} names unknown flag {flag}"
                     for flag in dispute.get("flags") or [] if flag not in values]
    for entry in specdata.variant_flags():
        if entry["dispute"] is not None and entry["dispute"] not in disputes:  # None: a house rule
            problems.append(f"disputes.yaml: flag {entry['flag']} cites unknown dispute")
        problems += [f"disputes.yaml: {entry['flag']}={value['value']} names unknown rule "
                     f"{value['rule']}" for value in entry["values"]
                     if value.get("rule") is not None and value["rule"] not in known]
    return problems


@dataclass
class Report:
    spec_problems: list[str] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    load_errors: list[str] = field(default_factory=list)
    results: list[RunResult] = field(default_factory=list)
    scenarios: list[Scenario] = field(default_factory=list)
    scenario_paths: list[str] = field(default_factory=list)   # where they were read from
    queries: list[dict[str, Any]] = field(default_factory=list)  # one per answer
    queries_left_out: int = 0  # the answers marked slow, left to `mammamia query run`
    seconds: float = 0.0
    stage: str = "the spec check"   # what verify is doing, for an interrupted run
    runs_total: int = 0
    house: HouseRule | None = None  # verify --house: the house rule verified as well
    house_games: list[dict[str, Any]] = field(default_factory=list)
    house_queries: list[dict[str, Any]] = field(default_factory=list)  # one per answer

    def house_ok(self) -> bool:
        """Every game under the house rule ended as its rules say, and every z3 answer
        under it was given or refused (a query resting on the spec's numbers), none
        with a witness the reference rejects."""
        return all(g["ok"] for g in self.house_games) and all(
            q["verdict"] == "refused" or q["answered"] for q in self.house_queries)

    def house_json(self) -> dict[str, Any] | None:
        if self.house is None:
            return None
        return {"name": self.house.name, "file": self.house.file,
                "rules": self.house.rules.describe(), "players": list(self.house.players),
                "ok": self.house_ok(),
                "games": {"played": len(self.house_games),
                          "failed": [g for g in self.house_games if not g["ok"]]},
                "queries": {"answers": len(self.house_queries),
                            "answered": sum(q["answered"] for q in self.house_queries),
                            "refused": [q for q in self.house_queries
                                        if q["verdict"] == "refused"],
                            "failed": [q for q in self.house_queries
                                       if q["verdict"] != "refused" and not q["answered"]]}}

    def progress(self) -> str:
        """What an interrupted verify had finished, in one line."""
        done = [f"the spec check ({len(self.spec_problems)} problems)"] \
            if self.stage != "the spec check" else []
        if self.games:
            done.append(f"{len(self.games)} games ({len(self.failed_games)} failed)")
        if self.runs_total:
            done.append(f"{len(self.results)} of {self.runs_total} scenario runs "
                        f"({sum(r.passed for r in self.results)} passed)")
        if self.queries:
            done.append(f"{len(self.queries)} z3 query answers "
                        f"({sum(q['matches'] for q in self.queries)} as expected)")
        return f"during {self.stage}" + (f"; finished: {', '.join(done)}" if done else "")

    @property
    def failed_runs(self) -> list[RunResult]:
        return [r for r in self.results if not r.passed]

    @property
    def failed_games(self) -> list[dict[str, Any]]:
        return [g for g in self.games if not g["ok"]]

    def rules_covered(self) -> tuple[set[str], set[str]]:
        """(rules cited by a scenario all of whose runs pass, every rule)."""
        passing = {r.scenario for r in self.results if r.passed} - \
            {r.scenario for r in self.results if not r.passed}
        cited = {rule for s in self.scenarios if s.id in passing for rule in s.rules}
        return cited & specdata.rule_ids(), set(specdata.rule_ids())

    def variants_covered(self) -> dict[str, list[str]]:
        """For each flag, the values that passing runs exercise (defaults included)."""
        defaults = variant_defaults()
        passing = {(r.scenario, r.run) for r in self.results if r.passed}
        seen: dict[str, set[str]] = {flag: set() for flag in defaults}
        for scenario in self.scenarios:
            for run in scenario.runs:
                if (scenario.id, run.name) in passing:
                    for flag in defaults:
                        seen[flag].add(run.variants.get(flag, defaults[flag]))
        return {flag: sorted(values) for flag, values in seen.items()}

    @property
    def ok(self) -> bool:
        covered, total = self.rules_covered()
        all_values = variant_values()
        variants_ok = all(set(v) == set(all_values[f]) for f, v in self.variants_covered().items())
        queries_ok = all(q["matches"] for q in self.queries)
        return not (self.spec_problems or self.failed_games or self.load_errors
                    or self.failed_runs) and covered == total and variants_ok and queries_ok \
            and self.house_ok()

    def as_json(self) -> dict[str, Any]:
        covered, total = self.rules_covered()
        values = variant_values()
        seen = self.variants_covered()
        return {
            "ok": self.ok,
            "seconds": round(self.seconds, 3),
            "fast_core": compiled.core_line().removeprefix("fast core: "),
            "spec_problems": self.spec_problems,
            "games": {"played": len(self.games), "failed": self.failed_games},
            "scenarios": {
                "from": self.scenario_paths,
                "files": len(self.scenarios) + len(self.load_errors),
                "runs": len(self.results),
                "passed": sum(r.passed for r in self.results),
                "failed": [{"scenario": r.name, "file": r.file, "line": r.line, "step": r.step,
                            "failure": r.failure} for r in self.failed_runs],
                "load_errors": self.load_errors,
            },
            "rules": {"covered": len(covered), "total": len(total),
                      "uncovered": sorted(total - covered)},
            "queries": {"answers": len(self.queries), "left_out": self.queries_left_out,
                        "matching": sum(q["matches"] for q in self.queries),
                        "differing": [q for q in self.queries if not q["matches"]]},
            "variants": {"covered": sum(set(seen[f]) == set(values[f]) for f in values),
                         "total": len(values),
                         "uncovered": {f: sorted(set(values[f]) - set(seen[f])) for f in values
                                       if set(seen[f]) != set(values[f])}},
            "house": self.house_json(),
        }


def play_checks(games: list[dict[str, Any]] | None = None,
                house: HouseRule | None = None) -> list[dict[str, Any]]:
    """A game for every player count (that ``house`` serves) under the defaults (the
    house rule's) and under each other value of every flag; each must end after its
    rules' rounds of resolutions (or, under ``stall=letter``, end or be shown to
    stall). Appends to ``games`` as it goes, if given."""
    configs: list[tuple[int, dict[str, str]]] = []
    base = house.rules if house is not None else default_rules()
    counts = house.players if house is not None else range(MIN_PLAYERS, MAX_PLAYERS + 1)
    for players in counts:
        configs.append((players, {}))
        for flag, values in variant_values().items():
            configs += [(players, {flag: v}) for v in values if v != base.as_dict()[flag]]
    games = [] if games is None else games
    for players, variants in configs:
        rules = house_rules(house, variants)
        config = make_config(players, variants=rules)
        for policy in ("simple", "random"):
            record = play_game(config, seed=players, policies=[POLICIES[policy]] * players)
            final = record.final
            ok = final is not None and (
                (final.phase == "over" and final.resolutions == rules.parameters.rounds)
                or (record.stalled and rules.flags.stall == Stall.LETTER))
            games.append({"players": players, "variants": variants, "policy": policy,
                          "turns": record.turns, "stalled": record.stalled, "ok": ok})
    return games


# What verify tells a watcher as it goes: (stage, done, total); total 0 when unknown;
# the stage "finished" last, before the report is printed.
Progress = Callable[[str, int, int], None]


def _quiet(stage: str, done: int, total: int) -> None:
    """No progress (piped output, tests)."""


def verify(scenario_paths: list[str], report: Report | None = None,
           progress: Progress = _quiet, jobs: int | None = None,
           house: HouseRule | None = None) -> Report:
    """Everything ``mammamia verify`` checks. ``report`` (if given) is filled in as the
    work goes, so that an interrupted run can still say what it had finished;
    ``progress`` hears of each stage and of the scenario runs and query answers as they
    finish; ``jobs`` worker processes answer the queries (:class:`QueryChecks`)."""
    started = time.perf_counter()
    report = Report() if report is None else report
    report.house = house
    progress(report.stage, 0, 0)
    with QueryChecks(jobs, house) as queries:  # answered while the stages before them run
        report.queries_left_out = queries.left_out
        _checks(scenario_paths, report, progress)
        if house is not None:
            report.stage = "the games under the house rule"
            progress(report.stage, 0, 0)
            play_checks(report.house_games, house)
        report.stage = "the z3 queries"
        progress(report.stage, 0, 0)
        queries.collect(report.queries, lambda done, total: progress(report.stage, done, total))
        report.house_queries = [r for r in report.queries if r.get("house")]
        report.queries[:] = [r for r in report.queries if not r.get("house")]
    report.seconds = time.perf_counter() - started
    progress("finished", 0, 0)
    return report


def _checks(scenario_paths: list[str], report: Report, progress: Progress) -> None:
    """The stages before the queries: the spec check, the games, the scenario runs."""
    report.spec_problems = spec_problems()
    report.stage = "the games"
    progress(report.stage, 0, 0)
    play_checks(report.games)
    report.stage = "loading the scenarios"
    progress(report.stage, 0, 0)
    scenarios, errors = load_all(scenario_paths)
    report.scenarios, report.scenario_paths = scenarios, list(scenario_paths)
    report.load_errors = [str(e) for e in errors]
    report.stage, report.runs_total = "the scenario runs", sum(len(s.runs) for s in scenarios)
    for scenario in scenarios:
        # one run at a time, so that an interrupted verify counts every run it finished
        for run in scenario.runs:
            progress(report.stage, len(report.results), report.runs_total)
            try:
                report.results.append(run_one(scenario, run))
            except MammamiaError as exc:  # a run that cannot even start
                report.load_errors.append(f"{scenario.file}: {exc}")
                break
    progress(report.stage, len(report.results), report.runs_total)


class QueryChecks:
    """The z3 query catalogue (``spec/queries.yaml``) but the answers it marks slow,
    answered one answer a task in ``jobs`` worker processes (default: the usable CPUs),
    started at once so that the other stages of verify share the CPUs with them.

    Every answer builds its terms in a z3 context of its own, so its verdict does not
    depend on which worker answers it or what it answered before. The workers ignore
    Ctrl-C: it reaches the parent, which stops them all when it leaves the ``with``
    block (so no worker outlives verify, and no cancelled check is ever recorded)."""

    left_out = 0  # answers marked slow, not answered here

    def __init__(self, jobs: int | None = None, house: HouseRule | None = None) -> None:
        self.jobs = jobs or usable_cpus()
        self.house = house   # its answers too, each a task of its own

    def __enter__(self) -> QueryChecks:
        methods = multiprocessing.get_all_start_methods()
        # fork: the workers start at once, and inherit the parent's modules as they are
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.pool = context.Pool(self.jobs, initializer=_ignore_ctrl_c)
        # the queries package loads z3: only now, in the parent, after the workers forked
        from mammamia_ref.queries.catalogue.common import load_catalogue
        from mammamia_ref.queries.catalogue.runner import chosen_answers

        catalogue = load_catalogue()
        chosen = [(query, answer) for query in catalogue
                  for answer in chosen_answers(query, include_slow=False)]
        self.tasks: list[tuple[str, str, str | None]] = [
            (query["id"], answer["name"], None) for query, answer in chosen]
        self.left_out = sum(len(query["answers"]) for query in catalogue) - len(self.tasks)
        if self.house is not None:
            chosen = chosen + chosen
            self.tasks += [(query["id"], answer["name"], self.house.file)
                           for query, answer in chosen[:len(self.tasks)]]
        # the costliest first, so that no long answer is left to run alone at the end
        costliest = sorted(range(len(chosen)), key=lambda i: -likely_cost(*chosen[i]))
        self.answers = self.pool.imap_unordered(_answer_task, [self.tasks[i] for i in costliest])
        return self

    def collect(self, records: list[dict[str, Any]],
                progress: Callable[[int, int], None] = lambda done, total: None) -> None:
        """Append to ``records`` each answer's record (whether its verdict is the
        expected one) as they are answered, then put them in catalogue order."""
        for record in self.answers:
            records.append(record)
            progress(len(records), len(self.tasks))
        position = {task: i for i, task in enumerate(self.tasks)}
        records.sort(key=lambda record: position[record["query"], record["answer"],
                                                 record.get("house_file")])

    def __exit__(self, *exc: object) -> None:
        self.pool.terminate()
        self.pool.join()


def likely_cost(query: Mapping[str, Any], answer: Mapping[str, Any]) -> int:
    """A rank of what an answer is likely to cost, for the order verify starts them in
    (it changes no answer): a search or proof costs more than replaying a certificate,
    and more at two players than at more (where the catalogue certifies or plans)."""
    if answer.get("certified"):
        return 0
    return 2 if answer.get("players", 2) == 2 or query["method"] in ("induction",
                                                                      "ranking") else 1


def _ignore_ctrl_c() -> None:
    from mammamia_ref.sim.simulate import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


def _answer_task(task: tuple[str, str, str | None]) -> dict[str, Any]:
    """One answer of the catalogue, in a worker (under the house rule of the file
    named, if one is): its record."""
    from mammamia_ref.queries.catalogue import (
        runner,  # looked up in its module, where a test may wrap it
    )

    query_id, name, house_file = task
    house = load_house(house_file).rules if house_file else None
    (result,) = runner.run_catalogue([query_id], answers=[name], include_slow=False,
                                      house=house)
    (answer,) = result.answers
    record = {"query": result.id, "answer": answer.name, "verdict": answer.verdict,
              "matches": answer.matches_expected, "seconds": round(answer.seconds, 3)}
    if house_file:
        record.update(house=answer.house, house_file=house_file, answered=answer.answered,
                      detail=answer.detail)
    return record


def print_report(report: Report) -> None:
    summary = report.as_json()
    mark = "ok" if report.ok else "FAILED"
    print(f"spec registers: {len(specdata.rules())} rules, {len(specdata.disputes())} disputes, "
          f"{len(variant_values())} variant flags; "
          f"{len(report.spec_problems)} problems")
    for problem in report.spec_problems:
        print(f"  {problem}")
    print(f"games: {len(report.games)} played (2 to 5 players, every variant value), "
          f"{len(report.failed_games)} failed")
    for game in report.failed_games:
        print(f"  {game}")
    scen = summary["scenarios"]
    print(f"scenarios: {scen['passed']} of {scen['runs']} runs passed in {scen['files']} files "
          f"({_where(report.scenario_paths)})")
    for error in report.load_errors:
        print(f"  {error}")
    _print_failed_runs(scen["failed"])
    rules = summary["rules"]
    print(f"rules covered by passing scenarios: {rules['covered']} of {rules['total']}")
    if rules["uncovered"]:
        print(f"  uncovered: {', '.join(rules['uncovered'])}")
    variants = summary["variants"]
    print(f"variant flags with every value exercised: {variants['covered']} of {variants['total']}")
    queries = summary["queries"]
    left = (f"{queries['left_out']} marked slow are left to `mammamia query run`"
            if queries["left_out"] else "every answer of the catalogue")
    print(f"z3 queries: {queries['matching']} of {queries['answers']} answers as expected "
          f"({left})")
    for differing in queries["differing"]:
        print(f"  {differing['query']} [{differing['answer']}]: verdict {differing['verdict']}")
    for flag, missing in variants['uncovered'].items():
        print(f"  {flag}: no passing run with {', '.join(missing)}")
    if summary["house"] is not None:
        _print_house(summary["house"])
    print(compiled.core_line())
    print(f"verify: {mark} ({report.seconds:.1f} s)")


def _print_failed_runs(failed_runs: list[dict[str, Any]]) -> None:
    for failed in failed_runs:
        where = f"{failed['file']}:{failed['line']}" if failed["line"] else failed["file"]
        print(f"  FAIL {failed['scenario']} ({where}, step {failed['step']}):")
        for line in (failed["failure"] or "").splitlines():
            print(f"    {line}")


def _print_house(house: dict[str, Any]) -> None:
    """The house rule's part of the report: its games and the z3 answers under it."""
    print(f"{house['rules']} ({house['file']}; {', '.join(map(str, house['players']))} "
          f"players): {'ok' if house['ok'] else 'FAILED'}")
    games = house["games"]
    print(f"  games under it: {games['played']} played (every variant value laid over "
          f"it), {len(games['failed'])} failed")
    for game in games["failed"]:
        print(f"    {game}")
    asked = house["queries"]
    print(f"  z3 queries under it: {asked['answered']} of {asked['answers']} answers given, "
          f"{len(asked['refused'])} refused (they rest on the spec's numbers or a rule a "
          "model does not follow); the catalogue's expectations are not compared")
    for failed in asked["failed"]:
        print(f"    {failed['query']} [{failed['answer']}]: {failed['verdict']} "
              f"{failed.get('detail', '')}")


def _where(paths: list[str]) -> str:
    """Where the scenarios came from, in words: the suite shipped with the package, or
    the paths (``./scenarios`` by default when the current folder has one)."""
    from mammamia_ref.formats.scenario import packaged_suite

    if [Path(p).resolve() for p in paths] == [packaged_suite().resolve()]:
        return "the suite shipped with the package"
    if [Path(p) for p in paths] == [Path("scenarios")]:
        return "the current folder's scenarios/, not the package's: --scenarios PATH chooses"
    return "from " + ", ".join(paths)


def run_verify(*, as_json: bool, scenario_paths: list[str] | None = None,
               progress: Progress = _quiet, jobs: int | None = None,
               house: HouseRule | None = None) -> int:
    paths = scenario_paths or [str(default_suite())]
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise NoSuchPathError(missing, f"no scenarios at {', '.join(missing)}; pass "
                              "--scenarios PATH, or none for the suite shipped with the package")
    require_cases(len(list(scenario_files(paths))), paths)
    report = Report()
    try:
        verify(paths, report, progress, jobs, house)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(report.progress()) from None
    if as_json:
        print(json.dumps(report.as_json(), indent=2))
    else:
        print_report(report)
    return 0 if report.ok else 1
