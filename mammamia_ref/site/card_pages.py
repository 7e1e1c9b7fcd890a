"""The cards page: the component manifest (``spec/cards.yaml``) drawn as cards, the
deck trimming table and the numbers of the game."""

from __future__ import annotations

from html import escape

from mammamia_ref.rules.ruleset import default_rules
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    KINDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ORDERS,
    ORDERS_OF,
    PERSONAL,
)
from mammamia_ref.site import pictures as pic
from mammamia_ref.site.inputs import Corpus
from mammamia_ref.site.links import html_link, rule_link, rule_page
from mammamia_ref.site.text import raw_block

ORDER_TYPE_RULES = {"standard": "oven.standard", "one_of_each": "oven.one_of_each",
                    "bombastica": "oven.bombastica", "monotoni": "oven.monotoni",
                    "minimale": "oven.minimale"}


def cards_page(corpus: Corpus) -> str:
    """The component manifest drawn as cards, each order linked to the rule of its kind."""
    spec = corpus.spec
    cards = spec.cards_doc
    source = "cards.md"
    out = ["# The cards", "", raw_block(pic.icon_sprite()),
           "The component manifest (`spec/cards.yaml`) drawn as cards: the ingredients, "
           f"the Mamma Mia! card and the orders. {rule_link(spec, source, 'setup.components')} "
           "lists them.", "", "## Ingredients", "", '<div class="mm-card-grid">']
    for entry in cards["ingredients"]:
        out.append(f"<figure>{pic.ingredient_card_svg(entry['id'], entry['name'], entry['copies'])}"
                   f"<figcaption>{escape(entry['id'])}</figcaption></figure>")
    out.append(f"<figure>{pic.mamma_mia_card_svg()}<figcaption>"
               f"{escape(cards.get('mamma_mia_card', 'mamma_mia'))}</figcaption></figure>")
    out += ["</div>", "", "## Orders", "",
            "Every colour has eight orders; the personal ingredient of each colour is on every "
            "order of that colour that needs one. A card links to the rule for its kind of "
            "order.", ""]
    for colour in COLOURS:
        out += [f"### {colour.capitalize()}: personal ingredient {PERSONAL[colour]}", "",
                '<div class="mm-card-grid">']
        for order_id in ORDERS_OF[colour]:
            order = ORDERS[order_id]
            target = ORDER_TYPE_RULES.get(order.type)
            href = html_link(source, rule_page(spec, target), target) if target else None
            out.append(f"<figure>{pic.order_card_svg(order, href)}</figure>")
        out += ["</div>", ""]
    total = sum(int(e["copies"]) for e in cards["ingredients"])
    out += ["## Deck trimming", "",
            f"Applies under {rule_link(spec, source, 'setup.trim')}; the variant "
            f"{rule_link(spec, source, 'setup.full_deck')} uses every card.", "",
            "| Players | Removed of each kind | Ingredient cards in play |", "|---|---|---|"]
    trimming = default_rules().parameters.trimming   # the spec's (a house rule may differ)
    for players, removed in ((n, trimming[n]) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)):
        out.append(f"| {players} | {removed} | {total - removed * len(KINDS)} |")
    out += ["", "## Numbers", "", "| | |", "|---|---|",
            f"| Players | {cards['players']['min']} to {cards['players']['max']} |",
            f"| Starting ingredient cards | {cards['starting_ingredients']} |",
            f"| Starting orders | {cards['starting_orders']} |",
            f"| Hand limit | {cards['hand_limit']} |",
            f"| Rounds | {cards['rounds']} |", ""]
    return "\n".join(out)
