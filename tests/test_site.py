"""The rules site: it builds with ``mkdocs build --strict``, every rule has its anchor,
the generator refuses unknown rule IDs and rules without scenarios, and the built
site renders and works (links, anchors, search) in headless Chromium."""

from __future__ import annotations

import argparse
import ast
import copy
import importlib.util
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mammamia_ref.cli.app import build_parser
from mammamia_ref.rules import specdata
from mammamia_ref.rules.vocabulary import ORDERS
from mammamia_ref.site import build as site
from mammamia_ref.site.cli_page import cli_page
from mammamia_ref.site.flow import cited_rules, read_flow
from mammamia_ref.site.quick_reference import quick_reference_page

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience
from chromium_cdp import Browser, find_chromium

ROOT = Path(__file__).resolve().parent.parent

# Most tests here read one built site (built_site): one worker builds it, once.
pytestmark = [pytest.mark.build, pytest.mark.xdist_group("site")]

FIXTURE_SCENARIO = """\
id: fixture-play
title: "A fixture: green plays two salami"
rules: [turn.play]
given:
  state:
    players:
      - colour: green
        hand: {ingredients: {salami: 2}}
      - colour: red
        hand: {ingredients: {pepper: 1}}
    supply: [olive, mamma_mia, olive]
steps:
  - do: {type: play, kind: salami, count: 2}
    expect:
      events: [{event: played, rule: turn.play, kind: salami, count: 2}]
"""

BAD_SCENARIO = FIXTURE_SCENARIO.replace("fixture-play", "fixture-bad").replace(
    "rules: [turn.play]", "rules: [turn.play, oven.no_such_rule]")


def _need_mkdocs() -> None:
    for module in ("mkdocs", "material"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed: pip install -e '.[docs]'")


def _mkdocs_build(out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env}
    return patience.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                         "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
                        idle_seconds=600, cwd=ROOT, env=environment)


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The live site, built once. Scenarios are still being written, so rules without
    a scenario are tolerated here; the coverage check itself is tested on a fixture."""
    _need_mkdocs()
    out = tmp_path_factory.mktemp("site")
    result = _mkdocs_build(out, MAMMAMIA_SITE_ALLOW="uncovered-rule")
    assert result.returncode == 0, result.stdout + result.stderr
    return out


# --- the built pages ----------------------------------------------------------------------


def test_every_rule_has_its_anchor_on_its_chapter_page(built_site: Path) -> None:
    for chapter in specdata.load_yaml("rules.yaml")["chapters"]:
        page = built_site / "rules" / f"{chapter['id']}.html"
        assert page.exists(), page
        html = page.read_text(encoding="utf-8")
        for rule in specdata.rules():
            if rule["chapter"] == chapter["id"]:
                assert f'id="{rule["id"]}"' in html, f"{rule['id']} has no anchor on {page.name}"


def test_every_section_is_built(built_site: Path) -> None:
    for name in ("index.html", "rules/index.html", "rules/quick-reference.html",
                 "disputes/index.html", "cards.html", "scenarios/index.html", "queries.html",
                 "porting/index.html", "porting/cli.html", "porting/api.html",
                 "scenario-format.html", "state-format.html", "search/search_index.json"):
        assert (built_site / name).exists(), name
    for dispute in specdata.disputes():
        html = (built_site / "disputes" / f"{dispute['id']}.html").read_text(encoding="utf-8")
        for flag in dispute.get("flags") or []:
            assert f'id="flag-{flag}"' in html
    cards = (built_site / "cards.html").read_text(encoding="utf-8")
    assert cards.count('class="mm-order-card"') == len(ORDERS)
    quick = (built_site / "rules" / "quick-reference.html").read_text(encoding="utf-8")
    assert quick.count('class="mm-flow"') == 2
    cli = (built_site / "porting" / "cli.html").read_text(encoding="utf-8")
    assert "mammamia scenario run" in cli


def test_dispute_pages_answer_first(built_site: Path) -> None:
    """The question, then the ruling and why, before the editions' positions; every
    dispute with flags shows a scenario whose outcome differs between its rulings."""
    for dispute in specdata.disputes():
        html = (built_site / "disputes" / f"{dispute['id']}.html").read_text(encoding="utf-8")
        article = html[html.index("<article"):]
        question = article.index("Question.")
        ruling = article.index('class="admonition success"')
        why = article.index("Why.")
        side = article.index('id="one-situation-under-each-ruling"')
        positions = article.index('id="the-editions-positions"')
        assert question < ruling < why < side < positions, dispute["id"]
        section = article[side:article.index("<h2", side + 10)]
        if dispute.get("flags"):
            assert "<table>" in section, f"{dispute['id']}: no ruling shows a difference"
            text = re.sub(r"<[^>]+>", "", section)
            assert f"--rulings {dispute['id']}" in text
        else:
            assert "has no variant flag" in section
    index = (built_site / "disputes" / "index.html").read_text(encoding="utf-8")
    assert "<th>Ruling</th>" in index


def _tables(html: str) -> list[str]:
    return re.findall(r"<table>.*?</table>", html, flags=re.S)


def _text(html: str) -> str:
    """The text of some HTML, a space for each tag but a break point's (``<wbr>``)."""
    from html import unescape

    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html.replace("<wbr>", ""))))


def test_dispute_pages_speak_the_games_words(built_site: Path) -> None:
    """The rulings side by side and the final positions in words, not state paths; our
    ruling marked in the head of every table of the comparison and of the impact."""
    for dispute in specdata.disputes():
        if not dispute.get("flags"):
            continue
        html = (built_site / "disputes" / f"{dispute['id']}.html").read_text(encoding="utf-8")
        start = html.index('id="one-situation-under-each-ruling"')
        end = html.index('id="the-editions-positions"')
        section = html[start:end]
        assert not re.search(r"players/\d|\w+ sees/|hand_size|supply_size", _text(section)), \
            dispute["id"]
        for table in _tables(section):
            head = _text(table[:table.index("</thead>")])
            assert re.search(r"our ruling|against ours|Ours →", head), (dispute["id"], head)
    d3 = _text((built_site / "disputes" / "D3.html").read_text(encoding="utf-8"))
    # each cell carries its column's heading for a phone (hidden on a wide screen)
    ours = r"refill=to_seven \( our ruling \): "
    assert re.search(r"Green's hand " + ours + r"3 mushrooms and 1 pepper; orders: [^|]*? "
                     r"refill=as_many_as_played : 2 mushrooms and 1 pepper", d3)
    assert re.search(r"The supply \(top first\) " + ours + r"olive, salami and the Mamma "
                     r"Mia! card", d3)


def test_impact_figures_have_two_significant_digits_and_every_player_count(
        built_site: Path) -> None:
    html = (built_site / "disputes" / "D3.html").read_text(encoding="utf-8")
    impact = html[html.index('id="what-the-ruling-does-to-play"'):
                  html.index('id="the-editions-positions"')]
    triples = re.findall(r"([+-][\d.]+) \(([+-][\d.]+) to ([+-][\d.]+)\)", _text(impact))
    assert len(triples) > 20

    def significant(figure: str) -> int:
        return len(figure.lstrip("+-").replace(".", "").lstrip("0"))

    # whole numbers (+116 turns) keep their digits; no figure has decimals beyond two
    # significant digits of its row's largest
    digits = {max(significant(f) for f in triple) for triple in triples
              if any("." in f for f in triple)}
    assert 2 in digits and digits <= {0, 1, 2}, triples
    assert "+0.15 (+0.14 to +0.16)" in _text(impact)  # pizzas per player, 4 players
    players = impact[impact.index('id="by-player-count"'):]
    head = _text(_tables(players)[0].split("</thead>")[0])
    assert [int(n) for n in re.findall(r"(\d) players", head)] == [2, 3, 4, 5], head


def test_impact_is_the_paired_difference_with_its_interval(built_site: Path) -> None:
    html = (built_site / "disputes" / "D4.html").read_text(encoding="utf-8")
    impact = html[html.index('id="what-the-ruling-does-to-play"'):
                  html.index('id="the-editions-positions"')]
    assert "Difference (95% interval)" in impact
    assert impact.count('class="mm-forest"') >= 10
    assert "<img" not in impact  # the old grid of bars from zero is gone


def test_search_ranks_rules_and_disputes_first_and_leaves_witnesses_out(
        built_site: Path) -> None:
    """The rule and dispute pages are boosted in the search index; a query's witnesses
    are left out of it (their query lists them) and out of a rule's scenario list."""
    import json

    index = json.loads((built_site / "search" / "search_index.json").read_text(
        encoding="utf-8"))["docs"]
    boosts = {d["location"].split("#")[0]: d.get("boost", 1) for d in index}
    assert boosts["rules/oven.html"] > 1 and boosts["disputes/D4.html"] > 1
    assert boosts["scenarios/oven/minimale-personal-lowest.html"] == 1
    assert not [page for page in boosts if page.startswith("scenarios/queries/")
                and not page.endswith("index.html")]
    oven = (built_site / "rules" / "oven.html").read_text(encoding="utf-8")
    rule = oven[oven.index('id="oven.minimale"'):oven.index("<h2", oven.index(
        'id="oven.minimale"') + 10)]
    assert "scenarios/queries/" not in rule
    assert re.search(r'Query witnesses:</strong> <a href="../queries.html#q0\d-[a-z-]+">', rule)


def test_the_navigation_is_grouped_by_audience() -> None:
    """Players and designers, porters, maintainers: a tab each, one "Porting guide", and
    the project's own testing with the maintainers, not the porters."""
    corpus = site.load_corpus([ROOT / "scenarios" / "turn"])
    handwritten = site.handwritten_pages(ROOT / "docs")
    tabs = site.nav(corpus, handwritten)
    names = [next(iter(tab)) for tab in tabs]
    assert names == ["Home", "Players and designers", "Porters", "Maintainers"]

    def titles(node: object) -> list[str]:
        if isinstance(node, dict):
            return [t for k, v in node.items() for t in [k, *titles(v)]]
        if isinstance(node, list):
            return [t for item in node for t in titles(item)]
        return []

    assert titles(tabs).count("Porting guide") == 1
    porters, maintainers = tabs[2]["Porters"], tabs[3]["Maintainers"]
    assert {"Porting guide": "porting.md"} in porters
    assert any("Ports" in entry for entry in porters if isinstance(entry, dict))
    assert {"mutation.md", "performance.md", "reliability.md"} <= {
        page for entry in maintainers for page in entry.values()}
    designers = tabs[1]["Players and designers"]
    # the house rules and asking a question are a designer's, not a porter's
    assert {"House rules": ["house/index.md", {"Writing a house rule": "house-rules.md"}]} \
        in designers
    assert {"Ask your own questions": "questions.md"} in designers
    assert "questions.md" not in titles(porters) and "questions.md" not in str(porters)


def test_the_api_reference_has_a_page_per_public_module(built_site: Path) -> None:
    from mammamia_ref.site.api_page import PUBLIC_MODULES

    built = sorted(p.stem for p in (built_site / "porting" / "api").glob("*.html"))
    assert built == sorted(PUBLIC_MODULES)
    game = (built_site / "porting" / "api" / "mammamia_ref.rules.game.html").read_text(
        encoding="utf-8")
    assert "new_game" in game and "A new game at its first chance node" in game
    assert "mammamia_ref.sim.fast" not in (built_site / "porting" / "api.html").read_text(
        encoding="utf-8")


def test_the_command_line_page_has_an_example_for_every_command() -> None:
    import shlex

    from mammamia_ref.site.cli_page import EXAMPLES, missing_examples

    parser = build_parser()
    assert missing_examples(parser) == []
    for name, example in EXAMPLES.items():
        words = shlex.split(example.split("|")[-1].split(">")[0])
        assert words[:len(name.split())] == name.split(), name
        try:
            parser.parse_args(words[1:])
        except SystemExit as exc:  # --version exits 0; anything else is a broken example
            assert exc.code == 0, example


def test_the_site_is_made_for_reading_from_disk(built_site: Path) -> None:
    """The offline plugin's search index as a script, our own worker shim (no CDN), the
    version in the header, copy buttons and the colour-scheme toggle."""
    from mammamia_ref import __version__

    assert (built_site / "search" / "search_index.js").read_text(
        encoding="utf-8").startswith("var __index = ")
    index = (built_site / "index.html").read_text(encoding="utf-8")
    assert "unpkg.com" not in index and "assets/file-iframe-worker.js" in index
    assert f"Mamma Mia! rules {__version__}" in index
    assert "content.code.copy" in index and 'data-md-color-scheme="slate"' in index


@pytest.fixture(scope="module")
def live_corpus() -> site.Corpus:
    """The scenarios the live site is built from ($MAMMAMIA_SITE_SCENARIOS, else
    scenarios/), loaded once for the tests that read them: a load runs every scenario
    (about 2 s of CPU), which two tests did each."""
    raw = os.environ.get("MAMMAMIA_SITE_SCENARIOS")
    return site.load_corpus(raw.split(os.pathsep) if raw else [ROOT / "scenarios"])


def test_scenario_titles_are_page_titles(built_site: Path, live_corpus: site.Corpus) -> None:
    """The page title and the sidebar entry of a scenario are its title, not its file name."""
    from html import unescape

    for view in live_corpus.scenarios:
        html = (built_site / (view.page[:-3] + ".html")).read_text(encoding="utf-8")
        title = unescape(html[html.index("<title>") + 7:html.index("</title>")])
        assert title.startswith(" ".join(view.scenario.title.split())), title
        active = re.search(r'md-nav__link--active"[^>]*>\s*<span class="md-ellipsis">\s*'
                           r"([^<]*?)\s*</span>", html)
        assert active and unescape(active.group(1)) == " ".join(view.scenario.title.split())


def test_every_scenario_has_a_page(built_site: Path, live_corpus: site.Corpus) -> None:
    for view in live_corpus.scenarios:
        page = built_site / (view.page[:-3] + ".html")
        assert page.exists(), page
        assert "mm-step" in page.read_text(encoding="utf-8") or not view.scenario.runs[0].steps


def test_the_built_site_has_no_broken_links(built_site: Path) -> None:
    assert site.broken_links(built_site) == []


def _shipped_text(path: Path) -> str:
    import gzip

    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def test_no_machine_path_anywhere_in_the_built_site(built_site: Path) -> None:
    """No page, search index, sitemap or data file names the folder the site was built
    from or into (the House rules page once listed its scenarios by absolute path)."""
    folders = {str(ROOT), str(ROOT.resolve()), str(built_site), str(built_site.resolve())}
    files = [p for p in built_site.rglob("*") if p.is_file()]
    assert len(files) > 200 and any(p.name == "search_index.json" for p in files)
    found = [f"{p.relative_to(built_site)}: {folder}" for p in files
             for folder in folders if folder in _shipped_text(p)]
    assert found == []


def test_nothing_unlinked_is_shipped(built_site: Path, tmp_path: Path) -> None:
    """Every file of docs/ the build copies is linked from a page (the sweeps behind the
    figures); the games of docs/ask/ stay out of the site."""
    assert site.unlinked_files(built_site, ROOT / "docs") == []
    assert not (built_site / "ask").exists()
    for folder in ("impact", "house-rules"):
        shipped = sorted(p.name for p in (built_site / folder).glob("*.json"))
        assert shipped == sorted(p.name for p in (ROOT / "docs" / folder).glob("*.json"))
    # the check itself, on a site of two files
    (tmp_path / "docs" / "data").mkdir(parents=True)
    (tmp_path / "site" / "data").mkdir(parents=True)
    for name in ("a.json", "b.json"):
        (tmp_path / "docs" / "data" / name).write_text("{}", encoding="utf-8")
        (tmp_path / "site" / "data" / name).write_text("{}", encoding="utf-8")
    (tmp_path / "site" / "index.html").write_text('<a href="data/a.json">a</a>',
                                                  encoding="utf-8")
    assert site.unlinked_files(tmp_path / "site", tmp_path / "docs") == [
        "data/b.json: shipped from docs/ but no page links to it"]


def test_the_home_page_leads_designers_to_house_rules_and_ask(built_site: Path) -> None:
    html = (built_site / "index.html").read_text(encoding="utf-8")
    article = html[html.index("<article"):]
    table = _tables(article)[0]
    heads = re.findall(r"<th[^>]*>(.*?)</th>", table, flags=re.S)
    assert heads and all(_text(h).strip() for h in heads), heads   # no empty header row
    assert 'href="house/index.html"' in table and 'href="questions.html"' in table


def test_the_ask_page_opens_with_a_question_and_its_answer(built_site: Path) -> None:
    html = (built_site / "questions.html").read_text(encoding="utf-8")
    text = _text(html[html.index("<article"):])
    question = text.index("Can a whole game pass")
    answer = text.index("Yes, at every table size")
    run = text.index("$ mammamia ask spec/questions/new-no-pizza-bakes.yaml")
    errors = text.index("mammamia: error:")
    assert question < answer < run < errors
    assert text.index("The format") < errors   # the error messages come after the format


def test_rule_pages_draw_the_order_card_and_mark_variants(built_site: Path) -> None:
    from mammamia_ref.site.card_pages import ORDER_TYPE_RULES

    oven = (built_site / "rules" / "oven.html").read_text(encoding="utf-8")

    def section(rule_id: str) -> str:
        start = oven.index(f'id="{rule_id}"')
        return oven[start:oven.find("<h2", start + 10)]

    for kind, rule_id in ORDER_TYPE_RULES.items():
        cards = re.findall(r'<svg class="mm-order-card"[^>]*aria-label="([^"]*)"',
                           section(rule_id))
        of_kind = [o for o in ORDERS.values() if o.type == kind]
        assert len(cards) == (4 if kind == "standard" else len(of_kind)), (rule_id, cards)
    assert "mm-order-card" not in section("oven.open")
    heading = re.search(r'<h2 id="oven.minimale_all_kinds">(.*?)</h2>', oven, flags=re.S)
    assert heading and "(variant)" in heading.group(1)
    heading = re.search(r'<h2 id="oven.minimale">(.*?)</h2>', oven, flags=re.S)
    assert heading and "variant" not in heading.group(1)


def test_the_search_ranks_a_default_rule_above_its_variant(built_site: Path) -> None:
    import json

    docs = {d["location"]: d for d in json.loads((built_site / "search" / "search_index.json")
                                                  .read_text(encoding="utf-8"))["docs"]}
    default, variant = (docs[f"rules/oven.html#{r}"] for r in ("oven.minimale",
                                                                "oven.minimale_all_kinds"))
    assert variant["boost"] < default["boost"]
    assert "(variant)" in variant["title"] and "variant" not in default["title"]
    script = (built_site / "search" / "search_index.js").read_text(encoding="utf-8")
    assert json.loads(script.removeprefix("var __index = "))["docs"] == list(docs.values())


def test_dispute_pages_draw_the_situation_as_cards(built_site: Path) -> None:
    """The situation replayed under each ruling is drawn as the scenario pages draw a
    position: before the first step, and after the last under each ruling."""
    for dispute in specdata.disputes():
        if not dispute.get("flags"):
            continue
        html = (built_site / "disputes" / f"{dispute['id']}.html").read_text(encoding="utf-8")
        start = html.index('id="one-situation-under-each-ruling"')
        section = html[start:html.index("<h2", start + 10)]
        if "<table>" not in section:
            continue
        assert "mm-board" in section or "a new game" in section, dispute["id"]
    d3 = (built_site / "disputes" / "D3.html").read_text(encoding="utf-8")
    section = d3[d3.index('id="one-situation-under-each-ruling"'):
                 d3.index('id="what-the-ruling-does-to-play"')]
    assert section.count('class="mm-board"') == 3   # the start, then under both rulings
    assert "The position after the last step, under each ruling" in section
    assert section.count('class="mm-card mm-k-') > 20


# --- the checks, on fixtures ----------------------------------------------------------------


@pytest.fixture()
def fixture_corpus(tmp_path: Path) -> site.Corpus:
    folder = tmp_path / "scenarios" / "turn"
    folder.mkdir(parents=True)
    (folder / "fixture-play.yaml").write_text(FIXTURE_SCENARIO, encoding="utf-8")
    return site.load_corpus([tmp_path / "scenarios"])


def _kinds(found: list[site.Problem]) -> set[str]:
    return {p.kind for p in found}


def test_fixture_corpus_passes_without_coverage(fixture_corpus: site.Corpus) -> None:
    assert [v.id for v in fixture_corpus.scenarios] == ["fixture-play"]
    assert fixture_corpus.scenarios[0].passed
    assert site.problems(fixture_corpus, require_coverage=False) == []


def test_a_rule_without_a_scenario_is_a_problem(fixture_corpus: site.Corpus) -> None:
    found = site.problems(fixture_corpus)
    assert _kinds(found) == {"uncovered-rule"}
    uncovered = {p.message.split()[1] for p in found}
    assert "turn.play" not in uncovered
    assert "oven.minimale" in uncovered
    assert len(uncovered) == len(specdata.rules()) - 1


def test_an_unknown_rule_id_is_a_problem(fixture_corpus: site.Corpus) -> None:
    spec = fixture_corpus.spec
    # a dispute citing a rule the register lacks
    disputes = copy.deepcopy(spec.disputes_doc)
    disputes["disputes"][0]["rules"].append("oven.no_such_rule")
    broken = site.Corpus(site.Spec(spec.rules_doc, disputes, spec.cards_doc),
                         fixture_corpus.scenarios, [])
    found = site.problems(broken, require_coverage=False)
    assert any(p.kind == "unknown-rule" and "oven.no_such_rule" in p.message for p in found)
    # a scenario citing a rule the register lacks (turn.play, removed here)
    rules = copy.deepcopy(spec.rules_doc)
    rules["rules"] = [r for r in rules["rules"] if r["id"] != "turn.play"]
    broken = site.Corpus(site.Spec(rules, spec.disputes_doc, spec.cards_doc),
                         fixture_corpus.scenarios, [])
    found = site.problems(broken, require_coverage=False)
    assert any(p.kind == "unknown-rule" and "fixture-play" in p.message
               and "'turn.play'" in p.message for p in found)


def test_the_generated_pages_link_rules_to_their_anchors(fixture_corpus: site.Corpus) -> None:
    pages = site.generate(fixture_corpus)
    story = pages["scenarios/turn/fixture-play.md"]
    assert "[`turn.play`](../../rules/turn.md#turn.play)" in story
    chapter = pages["rules/turn.md"]
    assert "{ #turn.play }" in chapter
    assert "[fixture-play](../scenarios/turn/fixture-play.md)" in chapter


# --- the game flow (spec/flow.yaml) -----------------------------------------------------


def _with_flow(corpus: site.Corpus, flow_doc: object) -> site.Corpus:
    spec = corpus.spec
    return site.Corpus(site.Spec(spec.rules_doc, spec.disputes_doc, spec.cards_doc,
                                 spec.queries_doc, flow_doc), corpus.scenarios, [])


def test_the_live_flow_reads_and_cites_only_known_rules(fixture_corpus: site.Corpus) -> None:
    flow, errors = read_flow(specdata.load_yaml("flow.yaml"))
    assert errors == []
    assert [f.name for f in flow.flows] == ["turn", "round"]
    assert not any(p.kind in ("flow-invalid", "unknown-rule")
                   for p in site.problems(fixture_corpus, require_coverage=False))


def test_a_flow_citing_an_unknown_rule_is_a_problem(fixture_corpus: site.Corpus) -> None:
    doc = copy.deepcopy(specdata.load_yaml("flow.yaml"))
    doc["flows"][0]["steps"][1]["rules"].append("turn.no_such_rule")
    doc["flows"][1]["steps"][0]["aside"]["rules"].append("setup.no_such_rule")
    found = site.problems(_with_flow(fixture_corpus, doc), require_coverage=False)
    unknown = sorted(p.message for p in found if p.kind == "unknown-rule")
    assert unknown == [
        "spec/flow.yaml: flow round, step setup cites unknown rule ID 'setup.no_such_rule'",
        "spec/flow.yaml: flow turn, step order cites unknown rule ID 'turn.no_such_rule'"]


def test_a_flow_that_cannot_be_drawn_is_a_problem(fixture_corpus: site.Corpus) -> None:
    doc = copy.deepcopy(specdata.load_yaml("flow.yaml"))
    doc["flows"][0]["loops"] = [{"from": "next_player", "to": "nowhere", "label": "lost"},
                                {"from": "play", "to": "next_player", "label": "down"}]
    doc["flows"][1]["steps"][1]["id"] = doc["flows"][1]["steps"][0]["id"]
    messages = [p.message for p in site.problems(_with_flow(fixture_corpus, doc),
                                                 require_coverage=False)
                if p.kind == "flow-invalid"]
    assert any("names unknown step 'nowhere'" in m for m in messages), messages
    assert any("'down' does not go back" in m for m in messages), messages
    assert any("has two steps 'setup'" in m for m in messages), messages
    doc["flows"][0]["steps"][0]["colour"] = "red"    # a key the schema does not know
    kinds = {p.kind for p in site.problems(_with_flow(fixture_corpus, doc),
                                           require_coverage=False)}
    assert "flow-invalid" in kinds


def test_the_quick_reference_is_drawn_from_the_flow(fixture_corpus: site.Corpus) -> None:
    doc = copy.deepcopy(specdata.load_yaml("flow.yaml"))
    doc["intro"] = "An intro from the data."
    doc["flows"][0]["title"] = "A turn, retitled"
    doc["flows"][0]["steps"][0]["caption"] = "Put salami in the oven"
    page = quick_reference_page(_with_flow(fixture_corpus, doc))
    assert "An intro from the data." in page
    assert "## A turn, retitled" in page
    assert "| 1. Put salami in the oven / " in page
    assert page.count('class="mm-flow"') == 2
    flow, _ = read_flow(doc)
    for where, rule_id in cited_rules(flow):
        assert f"#{rule_id}" in page, (where, rule_id)


# --- the layers --------------------------------------------------------------------------


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_site_imports_no_higher_layer() -> None:
    """The command line and the tools sit above the site: the hook hands over what the
    site needs of them (the argument parser)."""
    files = sorted((ROOT / "mammamia_ref" / "site").glob("*.py"))
    assert len(files) > 10
    for path in files:
        higher = {m for m in _imported_modules(path)
                  if m.startswith(("mammamia_ref.cli", "mammamia_ref.tools"))}
        assert higher == set(), f"{path.name} imports {sorted(higher)}"


def test_the_command_line_page_documents_the_parser_it_is_given() -> None:
    parser = argparse.ArgumentParser(prog="pizzeria", description="Bakes pizzas.")
    sub = parser.add_subparsers()
    sub.add_parser("bake", help="bake one order").add_argument("--oven", help="which oven")
    page = cli_page(parser)
    assert "## `pizzeria`" in page and "### `pizzeria bake`" in page
    assert "--oven OVEN" in page and "which oven" in page
    assert "No argument parser" in cli_page(None)
    real = cli_page(build_parser())
    assert "`mammamia scenario run`" in real


def test_the_build_fails_on_an_unknown_rule_id_and_on_uncovered_rules(tmp_path: Path) -> None:
    _need_mkdocs()
    folder = tmp_path / "scenarios" / "turn"
    folder.mkdir(parents=True)
    (folder / "fixture-play.yaml").write_text(FIXTURE_SCENARIO, encoding="utf-8")
    (folder / "fixture-bad.yaml").write_text(BAD_SCENARIO, encoding="utf-8")
    result = _mkdocs_build(tmp_path / "site", MAMMAMIA_SITE_SCENARIOS=str(tmp_path / "scenarios"),
                           MAMMAMIA_SITE_ALLOW="")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "unknown rule ID 'oven.no_such_rule'" in output
    assert "rule oven.minimale has no scenario" in output
    assert "Aborted" in output


def test_broken_links_are_found(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text('<h1 id="top">A</h1><a href="b.html#here">b</a>'
                                     '<a href="b.html#gone">gone</a><a href="c.html">c</a>'
                                     '<a href="#top">top</a><a href="https://x.test/">x</a>',
                                     encoding="utf-8")
    (tmp_path / "b.html").write_text('<p id="here">B</p>', encoding="utf-8")
    assert site.broken_links(tmp_path) == ["a.html: link to missing anchor b.html#gone",
                                           "a.html: link to missing c.html"]


# --- in a real browser ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served_site(built_site: Path) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                               "127.0.0.1", "--directory", str(built_site)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def listening() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return server.poll() is not None  # no use waiting: failed below
        return True

    try:  # a hang guard, stretched by the load
        if not patience.Patience(20).wait(listening) or server.poll() is not None:
            raise RuntimeError("the site server did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        patience.communicate(server, 10)


SCREENSHOTS = ROOT / "build" / "screenshots"
"""Where the browser tests keep their screenshots, to be looked at after a run (build/
is not committed); $MAMMAMIA_SCREENSHOTS names another folder."""


def _screenshot_dir(tmp_path: Path) -> Path:
    """The folder the screenshots are kept in: $MAMMAMIA_SCREENSHOTS, or build/screenshots."""
    folder = Path(os.environ.get("MAMMAMIA_SCREENSHOTS") or SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _check_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    assert len(data) > 20_000, f"{path} is suspiciously small: is the page blank?"


def _rendered(browser: Browser) -> dict[str, object]:
    return browser.evaluate(
        "(() => { const a = document.querySelector('article.md-content__inner');"
        " const h = a && a.querySelector('h1');"
        " return {h1: h ? h.textContent : null, text: a ? a.innerText.length : 0,"
        " css: getComputedStyle(document.body).fontFamily.length > 0,"
        " styled: !!document.querySelector('link[href$=\"mammamia.css\"]')}; })()")


@pytest.mark.browser
def test_the_site_in_headless_chromium(served_site: str, tmp_path: Path) -> None:
    binary = find_chromium()
    if binary is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    shots = _screenshot_dir(tmp_path)
    with Browser(binary, tmp_path / "profile") as browser:
        # every kind of page renders: a heading, text, our stylesheet
        first_dispute = specdata.disputes()[0]["id"]
        first_chapter = specdata.load_yaml("rules.yaml")["chapters"][0]["id"]
        pages = ["index.html", "rules/index.html", "rules/quick-reference.html",
                 f"rules/{first_chapter}.html", f"disputes/{first_dispute}.html",
                 "disputes/index.html", "cards.html", "scenarios/index.html", "queries.html",
                 "porting/cli.html", "porting/api.html", "scenario-format.html"]
        for page in pages:
            browser.navigate(f"{served_site}/{page}")
            shown = _rendered(browser)
            assert shown["h1"], f"{page}: no heading rendered"
            assert shown["text"] > 200, f"{page}: almost no text rendered"
            assert shown["styled"], f"{page}: the site stylesheet is missing"

        # the cards are drawn: every order card has a size on screen
        browser.navigate(f"{served_site}/cards.html")
        drawn = browser.evaluate("[...document.querySelectorAll('svg.mm-order-card')]"
                                 ".filter(e => e.getBoundingClientRect().width > 50).length")
        assert drawn == len(ORDERS)
        _check_png(browser.screenshot(shots / "cards.png"))

        # a scenario story with the position drawn as cards
        browser.navigate(f"{served_site}/scenarios/index.html")
        browser.click("article table a[href$='.html']:not([href$='index.html'])")
        browser.wait_for("document.querySelectorAll('.mm-step').length > 0")
        assert browser.evaluate("document.querySelectorAll('.mm-board .mm-card').length") > 0
        _check_png(browser.screenshot(shots / "scenario.png"))

        # follow a link to a rule's anchor: the rule is on screen
        browser.navigate(f"{served_site}/rules/index.html")
        browser.click("article a[href='oven.html#oven.minimale']")
        browser.wait_for("location.href.endsWith('/rules/oven.html#oven.minimale')")
        browser.wait_for("(() => { const e = document.getElementById('oven.minimale');"
                         " if (!e || document.readyState !== 'complete') return false;"
                         " const r = e.getBoundingClientRect();"
                         " return r.top >= 0 && r.top < window.innerHeight / 2; })()")
        assert "Pizza Minimale" in browser.evaluate(
            "document.getElementById('oven.minimale').textContent")
        time.sleep(0.5)  # the header's title animation
        _check_png(browser.screenshot(shots / "rule-anchor.png"))

        # the quick reference: the diagram's boxes link to the rules
        browser.navigate(f"{served_site}/rules/quick-reference.html")
        assert browser.evaluate("document.querySelectorAll('svg.mm-flow a').length") > 20
        assert browser.evaluate("document.querySelector('svg.mm-flow')"
                                ".getBoundingClientRect().height") > 300
        _check_png(browser.screenshot(shots / "quick-reference.png"))

        # a rule's or a dispute's page is the first result for its name; no query
        # witness crowds the first results (they are found through their query)
        for word, pages in (("minimale", ("rules/oven.html", "disputes/D4.html")),
                            ("bombastica", ("rules/oven.html", "disputes/D13.html")),
                            ("D4", ("disputes/D4.html",))):
            browser.navigate(f"{served_site}/index.html")
            browser.click("input.md-search__input")
            browser.type_text(word)
            browser.wait_for("document.querySelectorAll('.md-search-result__item').length"
                             " > 0", idle_seconds=30)
            time.sleep(0.5)  # the results of the whole word, not of its first letters
            found = browser.evaluate("[...document.querySelectorAll("
                                     "'.md-search-result__item > a')].slice(0, 10)"
                                     ".map(a => new URL(a.href).pathname)")
            assert found and found[0].endswith(pages), (word, found)
            assert not [f for f in found if "/scenarios/queries/" in f], (word, found)
            _check_png(browser.screenshot(shots / f"search-{word.lower()}.png"))
        first = browser.evaluate("document.querySelector('.md-search-result__item').innerText")
        assert "d4" in first.lower(), first
        browser.navigate(f"{served_site}/index.html")
        browser.click("input.md-search__input")
        browser.type_text("Bombastica")
        browser.wait_for("document.querySelectorAll('.md-search-result__item').length > 0",
                         idle_seconds=30)
        first = browser.evaluate("document.querySelector('.md-search-result__item').innerText")
        assert "bombastica" in first.lower(), first
        time.sleep(0.5)  # let the overlay's animation finish before the picture
        _check_png(browser.screenshot(shots / "search.png"))
        browser.click(".md-search-result__item a")
        browser.wait_for("!location.href.endsWith('/index.html')")
        browser.wait_for("document.readyState === 'complete'")
        assert "Bombastica" in browser.evaluate("document.body.innerText")

        assert browser.errors == [], browser.errors


@pytest.mark.browser
def test_the_site_from_disk_in_headless_chromium(built_site: Path, tmp_path: Path) -> None:
    """The built folder opened from disk: search works, the dark mode toggle works, a
    dispute's ruling is on the first screen at 1280x800, and on a phone the pages do
    not overflow sideways. Screenshots: dispute-1280x800, search-from-disk, dark-mode,
    dark-scenario, dispute-phone, dispute-phone-positions, dispute-phone-side,
    dispute-phone-players, dispute-side-1280x800, dispute-players-1280x800."""
    binary = find_chromium()
    if binary is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    shots = _screenshot_dir(tmp_path)
    disk = built_site.resolve().as_uri()
    with Browser(binary, tmp_path / "profile", width=1280, height=800) as browser:
        # the ruling, question and reason, without scrolling
        browser.navigate(f"{disk}/disputes/D4.html")
        box = browser.evaluate("(() => { const r = document.querySelector("
                               "'article .admonition.success').getBoundingClientRect();"
                               " return {top: r.top, bottom: r.bottom, h: innerHeight}; })()")
        assert box["top"] > 0 and box["bottom"] <= box["h"] == 800, box
        assert browser.evaluate("scrollY") == 0
        time.sleep(0.5)
        _check_png(browser.screenshot(shots / "dispute-1280x800.png"))
        for anchor, name in (("one-situation-under-each-ruling", "dispute-side"),
                             ("by-player-count", "dispute-players")):
            browser.navigate(f"{disk}/disputes/D3.html")
            browser.evaluate(f"document.getElementById('{anchor}').scrollIntoView()")
            time.sleep(0.5)
            _check_png(browser.screenshot(shots / f"{name}-1280x800.png"))
        browser.navigate(f"{disk}/disputes/D4.html")

        # search from disk: the index is a script, the worker runs in a frame
        browser.click("input.md-search__input")
        browser.type_text("Bombastica")
        browser.wait_for("document.querySelectorAll('.md-search-result__item').length > 0",
                         idle_seconds=30)
        first = browser.evaluate("document.querySelector('.md-search-result__item').innerText")
        assert "bombastica" in first.lower(), first
        time.sleep(0.5)
        _check_png(browser.screenshot(shots / "search-from-disk.png"))
        browser.click(".md-search-result__item a")
        browser.wait_for("!location.href.endsWith('/D4.html')")
        browser.wait_for("document.readyState === 'complete'")
        assert "Bombastica" in browser.evaluate("document.body.innerText")

        # the colour-scheme toggle: light to dark, and it stays dark on the next page
        browser.navigate(f"{disk}/disputes/D4.html")
        scheme = "document.body.getAttribute('data-md-color-scheme')"
        assert browser.evaluate(scheme) == "default"
        browser.click("form[data-md-component='palette'] label:not([hidden])")
        browser.wait_for(f"{scheme} === 'slate'")
        assert browser.evaluate("getComputedStyle(document.body).backgroundColor") != \
            "rgb(255, 255, 255)"
        time.sleep(0.5)
        _check_png(browser.screenshot(shots / "dark-mode.png"))
        browser.navigate(f"{disk}/scenarios/oven/minimale-personal-lowest.html")
        assert browser.evaluate(scheme) == "slate"
        time.sleep(0.5)
        _check_png(browser.screenshot(shots / "dark-scenario.png"))
        browser.click("form[data-md-component='palette'] label:not([hidden])")
        browser.wait_for(f"{scheme} === 'default'")

        # a phone: nothing wider than the screen; the editions' positions stacked
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True},
                     session=True)
        browser.navigate(f"{disk}/disputes/D4.html")
        widths = browser.evaluate("({page: document.documentElement.scrollWidth,"
                                  " screen: innerWidth})")
        assert widths["page"] <= widths["screen"], widths
        # the rulings side by side and the impact tables are stacked, not cut off
        cut = browser.evaluate("[...document.querySelectorAll('.mm-side table, .mm-stack "
                               "table')].filter(t => t.scrollWidth > t.parentElement"
                               ".clientWidth + 1 || t.getBoundingClientRect().right > "
                               "innerWidth).length")
        assert cut == 0
        assert browser.evaluate("document.querySelectorAll('.mm-side table').length") > 0
        assert browser.evaluate("getComputedStyle(document.querySelector("
                                "'.mm-positions td')).display") == "block"
        time.sleep(0.5)
        _check_png(browser.screenshot(shots / "dispute-phone.png"))
        browser.evaluate("document.getElementById('the-editions-positions').scrollIntoView()")
        time.sleep(0.3)
        _check_png(browser.screenshot(shots / "dispute-phone-positions.png"))
        browser.evaluate("document.getElementById('one-situation-under-each-ruling')"
                         ".scrollIntoView()")
        time.sleep(0.3)
        _check_png(browser.screenshot(shots / "dispute-phone-side.png"))
        browser.navigate(f"{disk}/disputes/D3.html")
        browser.evaluate("document.getElementById('by-player-count').scrollIntoView()")
        time.sleep(0.3)
        _check_png(browser.screenshot(shots / "dispute-phone-players.png"))

        assert browser.errors == [], browser.errors


# The pages a designer and a reader see first, each looked at on a laptop and a phone.
READERS_PAGES = {"home": "index.html", "queries": "queries.html", "ask": "questions.html",
                 "dispute": "disputes/D3.html", "rule": "rules/oven.html#oven.minimale",
                 # an anchor of the page before would be no new page load: not next to it
                 "dispute-situation": "disputes/D3.html#one-situation-under-each-ruling",
                 "house-rules": "house/index.html", "house-rules-guide": "house-rules.html",
                 "ports": "porting/ports.html", "cards": "cards.html",
                 "rules-index": "rules/index.html", "disputes-index": "disputes/index.html",
                 "dispute-d4": "disputes/D4.html"}
SCREENS = ((1280, 800), (390, 844))


@pytest.mark.browser
def test_the_pages_fit_a_laptop_and_a_phone(built_site: Path, tmp_path: Path) -> None:
    """At 1280x800 and 390x844 (a phone): no word or identifier broken mid-word, no table
    cut off (wider than its box), no page wider than the screen, no flag value in
    capitals (tests/site_layout.py measures them); the search finds a rule's default
    before its variant, which says it is one. Screenshots of each page at each size:
    NAME-1280x800.png, NAME-390x844.png (and search-minimale-1280x800.png)."""
    from site_layout import layout_problems

    binary = find_chromium()
    if binary is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    shots = _screenshot_dir(tmp_path)
    disk = built_site.resolve().as_uri()
    problems: list[str] = []
    with Browser(binary, tmp_path / "profile", width=1280, height=800) as browser:
        for width, height in SCREENS:
            browser.send("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": height, "deviceScaleFactor": 1,
                          "mobile": width < 600}, session=True)
            for name, page in READERS_PAGES.items():
                browser.navigate(f"{disk}/{page}")
                browser.wait_for("document.readyState === 'complete'")
                assert browser.evaluate("innerWidth") == width
                problems += layout_problems(browser, f"{page} at {width}x{height}")
                time.sleep(0.3)
                _check_png(browser.screenshot(shots / f"{name}-{width}x{height}.png"))
            # the stacked tables really are stacked on a phone, labelled by their heads
            if width < 600:
                browser.navigate(f"{disk}/rules/index.html")
                browser.wait_for("document.readyState === 'complete'")
                if browser.evaluate("document.querySelectorAll('.mm-stacked "
                                    "td[data-label]').length") <= 20:
                    problems.append("rules/index.html: its tables are not stacked on a phone")

        # the search: the ruling's rule first, its variant marked as a variant
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False},
                     session=True)
        browser.navigate(f"{disk}/index.html")
        browser.click("input.md-search__input")
        browser.type_text("minimale")
        browser.wait_for("document.querySelectorAll('.md-search-result__item').length > 0",
                         idle_seconds=30)
        time.sleep(0.5)
        # the rules page's result: its sections in the order shown, the first visible
        sections = browser.evaluate(
            "[...[...document.querySelectorAll('.md-search-result__item')].find(li => "
            "li.querySelector('a').href.includes('/rules/oven.html'))"
            ".querySelectorAll('a.md-search-result__link')].slice(1).map(a => ({href: "
            "new URL(a.href).hash, title: (a.querySelector('h2') || a).textContent,"
            " shown: a.getClientRects().length > 0}))")
        assert sections[0]["href"] == "#oven.minimale" and sections[0]["shown"], sections
        variants = [s for s in sections if s["href"] == "#oven.minimale_all_kinds"]
        assert variants and all("(variant)" in s["title"] for s in variants), sections
        _check_png(browser.screenshot(shots / "search-minimale-1280x800.png"))
        assert browser.errors == [], browser.errors
    assert problems == []


@pytest.fixture(scope="module")
def queries_corpus() -> site.Corpus:
    """The query witnesses, loaded (and run) once for the two tests of their page."""
    return site.load_corpus([ROOT / "scenarios" / "queries"])


@pytest.fixture(scope="module")
def queries_page(queries_corpus: site.Corpus) -> str:
    """The queries page, written once for the two tests that read it (the witnesses'
    load and the page together took about 2.5 s of CPU a test)."""
    return site.queries_page(queries_corpus)


def test_the_queries_page_has_a_row_per_question_in_words(queries_page: str) -> None:
    """A row per query, its question in words and its answers grouped by player count,
    not a row per answer named by its slug; each question file by its question too."""
    page = queries_page
    catalogue = specdata.load_yaml("queries.yaml")["queries"]
    summary = page[page.index("## Questions"):page.index("## Each query in detail")]
    rows = [line for line in summary.splitlines() if line.startswith("| [Q")]
    assert len(rows) == len(catalogue)
    for query, row in zip(sorted(catalogue, key=lambda q: q.get("kind", "question") !=
                                 "question"), rows, strict=True):
        assert " ".join(query["question"].split())[:60] in row.replace("\\", ""), query["id"]
        counts = sorted({int(a.get("players", 2)) for a in query["answers"]})
        assert re.findall(r"\*\*(\d) players:\*\*", row) == [str(n) for n in counts]
    q05 = next(r for r in rows if "(#q05-most-pizzas-one-opening)" in r)
    assert "**2 players:** 8 (exact) under [our rulings](" in q05
    assert "**4 players:** 12 (exact) under" in q05
    assert "**5 players:** 12 (at most 14) under" in q05
    q01 = next(r for r in rows if "(#q01-minimale-impossible)" in r)
    assert "**2 players:** impossible under `minimale_lowest=eligible_kinds` (ours); " \
           "possible under [`minimale_lowest=all_kinds`](" in q01
    assert "| query | ruling | answer | evidence |" not in page
    # each query's details folded under its question: the page is the questions first
    details = page[page.index("## Each query in detail"):page.index("## Question files")]
    assert details.count("<details markdown>") == len(catalogue)
    files = page[page.index("## Question files"):]
    assert "| Can a whole game pass, three rounds, without a single order baked? |" in files


def test_the_queries_page_links_rules_disputes_and_witnesses(queries_corpus: site.Corpus,
                                                             queries_page: str) -> None:
    corpus, page = queries_corpus, queries_page
    assert "## Q01-minimale-impossible" in page
    assert "[`oven.minimale`](rules/oven.md#oven.minimale)" in page
    assert "[D4](disputes/D4.md)" in page
    witness = next(v for v in corpus.scenarios
                   if v.scenario.file.endswith("q05-most-pizzas-one-opening-default.yaml"))
    assert f"]({witness.page})" in page
    # each witness named by its own title (the page takes it from the loaded corpus)
    assert all(f"Witness [{v.doc['title']}]({v.page})" in page for v in corpus.scenarios)
    empty = site.Corpus(site.Spec(corpus.spec.rules_doc, corpus.spec.disputes_doc,
                                  corpus.spec.cards_doc, None), [], [])
    assert "No queries yet" in site.queries_page(empty)


def test_docstrings_are_made_markdown_for_the_api_pages() -> None:
    """Doctests fenced (an output line such as ``[1, 2]`` is not a link) and reST roles
    as inline code, before mkdocstrings renders them."""
    spec = importlib.util.spec_from_file_location(
        "griffe_docstrings", ROOT / "docs" / "hooks" / "griffe_docstrings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "Deal.\n\n>>> deal(2)\n[7, 7]\n\nSee :func:`~mammamia_ref.rules.setup.deal`."
    assert module.markdown_docstring(text) == (
        "Deal.\n\n```pycon\n>>> deal(2)\n[7, 7]\n```\n\nSee `mammamia_ref.rules.setup.deal`.")


def test_a_source_note_is_shown_on_the_rule_page(fixture_corpus: site.Corpus) -> None:
    from mammamia_ref.site.rule_pages import chapter_page

    spec = fixture_corpus.spec
    rules_doc = copy.deepcopy(spec.rules_doc)
    bake = next(r for r in rules_doc["rules"] if r["id"] == "oven.bake")
    bake["sources"][0]["note"] = "prints the second bullet twice"
    noted = site.Corpus(site.Spec(rules_doc, spec.disputes_doc, spec.cards_doc, None),
                        fixture_corpus.scenarios, [])
    chapter = next(c for c in noted.spec.chapters if c["id"] == "oven")
    page = chapter_page(noted, chapter)
    section = page[page.index("{ #oven.bake }"):]
    assert "| Edition | Section | Note |" in section
    assert "prints the second bullet twice" in section
    plain = next(r for r in rules_doc["rules"] if r["chapter"] == "oven" and r.get("sources")
                 and not any(src.get("note") for src in r["sources"]))
    start = page.index(f"{{ #{plain['id']} }}")
    end = page.find("\n## ", start)
    assert "| Edition | Section |" in page[start:end]
    assert "| Note |" not in page[start:end if end > 0 else None]
