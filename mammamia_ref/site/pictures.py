"""Pictures for the rules site: the cards as SVG, a position as styled HTML, the flow
of a turn and of a round as SVG (from ``spec/flow.yaml``, read by
:mod:`mammamia_ref.site.flow`), and the site's stylesheet.

Everything is drawn from the card vocabulary (``spec/cards.yaml``) and a game state;
only the palette and the shapes are chosen here. Every function returns a string of
HTML or SVG on one line, so that Markdown passes it through as a raw block.

>>> "salami" in order_requirement_text(ORDERS["green.salami4"])
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from urllib.parse import quote

from mammamia_ref.rules.state import GameState
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    KINDS,
    MAMMA_MIA,
    ORDER_TYPES,
    ORDERS,
    PERSONAL,
    Order,
)
from mammamia_ref.site.flow import FlowLoop, FlowNode

# --- the palette -----------------------------------------------------------------------

KIND_COLOURS: dict[str, tuple[str, str]] = {  # fill, outline
    "salami": ("#b83227", "#7a1d16"),
    "pineapple": ("#f4c430", "#a8830f"),
    "mushroom": ("#c9a27e", "#7d5b3d"),
    "pepper": ("#2e8b57", "#1b5534"),
    "olive": ("#3d3349", "#17121d"),
}
PLAYER_COLOURS: dict[str, tuple[str, str]] = {  # card colour, text colour on it
    "red": ("#c62828", "#ffffff"),
    "yellow": ("#f9c80e", "#3b2f00"),
    "green": ("#2e7d32", "#ffffff"),
    "brown": ("#6d4c41", "#ffffff"),
    "purple": ("#6a1b9a", "#ffffff"),
}
_FALLBACK_KIND = ("#9e9e9e", "#616161")
_FALLBACK_PLAYER = ("#607d8b", "#ffffff")

TYPE_NAMES = {
    "standard": "Standard order",
    "one_of_each": "One of each",
    "bombastica": "Pizza Bombastica",
    "monotoni": "Pizza Monotoni",
    "minimale": "Pizza Minimale",
}


def kind_colour(kind: str) -> tuple[str, str]:
    return KIND_COLOURS.get(kind, _FALLBACK_KIND)


def player_colour(colour: str) -> tuple[str, str]:
    return PLAYER_COLOURS.get(colour, _FALLBACK_PLAYER)


def _icon_shapes(kind: str) -> str:
    """The drawing of one ingredient in a 24 by 24 box."""
    fill, line = kind_colour(kind)
    if kind == "salami":
        return (f'<circle cx="12" cy="12" r="10" fill="{fill}" stroke="{line}" stroke-width="1.5"/>'
                '<circle cx="8" cy="9" r="1.6" fill="#f3d3c8"/><circle cx="15" cy="8" r="1.3" '
                'fill="#f3d3c8"/><circle cx="14" cy="15" r="1.7" fill="#f3d3c8"/>'
                '<circle cx="8" cy="15" r="1.1" fill="#f3d3c8"/>')
    if kind == "pineapple":
        return ('<path d="M12 1 L9 7 L12 5 L15 7 Z" fill="#3c8d2f"/>'
                f'<ellipse cx="12" cy="15" rx="7" ry="8" fill="{fill}" stroke="{line}" '
                'stroke-width="1.5"/><path d="M7 11 L17 19 M7 19 L17 11 M9 8.5 L16 14 M8 14 '
                f'L15 8.5" stroke="{line}" stroke-width="0.9"/>')
    if kind == "mushroom":
        return (f'<path d="M2 13 C2 4 22 4 22 13 Z" fill="{fill}" stroke="{line}" '
                'stroke-width="1.5"/><rect x="9" y="13" width="6" height="9" rx="2" '
                f'fill="#f5ead8" stroke="{line}" stroke-width="1.2"/>')
    if kind == "pepper":
        return ('<path d="M12 2 L12 6" stroke="#1b5534" stroke-width="2.5"/>'
                f'<path d="M12 5 C4 4 3 14 7 20 C9 23 15 23 17 20 C21 14 20 4 12 5 Z" '
                f'fill="{fill}" stroke="{line}" stroke-width="1.5"/>')
    if kind == "olive":
        return (f'<ellipse cx="12" cy="12" rx="8" ry="10" fill="{fill}" stroke="{line}" '
                'stroke-width="1.5"/><ellipse cx="12" cy="12" rx="3" ry="4" fill="#b5473a"/>')
    return (f'<circle cx="12" cy="12" r="10" fill="{fill}" stroke="{line}"/>'
            f'<text x="12" y="16" text-anchor="middle" font-size="11" fill="#fff">'
            f'{escape(kind[:2].title())}</text>')


_JOKER_SHAPES = ('<circle cx="12" cy="12" r="10" fill="#fff" stroke="#555" stroke-width="1.5"/>'
                 '<path d="M12 4 L14.2 9.6 L20 9.8 L15.4 13.4 L17 19 L12 15.8 L7 19 L8.6 13.4 '
                 'L4 9.8 L9.8 9.6 Z" fill="#e0a800"/>')
_LOWEST_SHAPES = ('<circle cx="12" cy="12" r="10" fill="#fff" stroke="#555" stroke-width="1.5"/>'
                  '<text x="12" y="17" text-anchor="middle" font-size="15" font-weight="bold" '
                  'fill="#555" font-family="sans-serif">?</text>')


def _symbols() -> dict[str, str]:
    """Every icon's drawing in a 24 by 24 box: one per ingredient kind, plus the joker (a
    named kind) and the question mark (the lowest kind)."""
    return {**{kind: _icon_shapes(kind) for kind in KINDS}, "joker": _JOKER_SHAPES,
            "lowest": _LOWEST_SHAPES}


def icon_sprite() -> str:
    """Hidden SVG symbols, one per icon (see :func:`_symbols`), for the big card drawings
    (``<use href="#mm-i-salami">``); pages that draw full-size cards include it once. The
    small cards of a position draw their icons from the stylesheet instead (:func:`icon`)."""
    symbols = [f'<symbol id="mm-i-{name}" viewBox="0 0 24 24">{shapes}</symbol>'
               for name, shapes in _symbols().items()]
    return ('<svg class="mm-sprite" width="0" height="0" aria-hidden="true" '
            'style="position:absolute">' + "".join(symbols) + "</svg>")


def icon(kind: str, size: int = 18) -> str:
    """A small icon, drawn by the stylesheet (a class per icon, its picture given once in
    ``mammamia.css``): a position draws thousands, the page holds one short tag each.

    >>> icon("salami", 16)
    '<i class="mm-i mm-i16 mm-i-salami"></i>'
    """
    return f'<i class="mm-i mm-i{size} mm-i-{escape(kind)}"></i>'


def _icon_css() -> list[str]:
    """The icons of :func:`icon`: each drawing as an SVG data address, once, and the
    sizes the positions use."""
    rules = [".mm-i { display: inline-block; vertical-align: middle; flex: none; "
             "background: no-repeat center / contain; }"]
    rules += [f".mm-i{size} {{ width: {size}px; height: {size}px; }}" for size in _ICON_SIZES]
    for name, shapes in _symbols().items():
        svg = (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'>"
               f"{shapes.replace(chr(34), chr(39))}</svg>")
        rules.append(f'.mm-i-{name} {{ background-image: url("data:image/svg+xml,'
                     f'{quote(svg, safe=_DATA_SAFE)}"); }}')
    return rules


_ICON_SIZES = (12, 13, 16, 18)
_DATA_SAFE = " =:/,.-_()!~*;+@&'"  # left as they are in an SVG data address


# --- the orders ------------------------------------------------------------------------


def order_parts(order: Order) -> list[tuple[int | str, str]]:
    """The requirement of an order as (count, icon) pairs; icon ``joker`` is a kind the
    owner names, ``lowest`` the lowest kind on the table."""
    shape = ORDER_TYPES[order.type]
    if order.type == "standard":
        return [(shape["personal"], order.personal), (shape["count"], order.other or "")]
    if order.type == "one_of_each":
        return [(shape["each"], kind) for kind in KINDS]
    if order.type == "bombastica":
        return [(f"&ge;{shape['total']}", "any")]
    if order.type == "monotoni":
        return [(shape["personal"], order.personal), (shape["count"], "joker")]
    if order.type == "minimale":
        return [(shape["personal"], order.personal), (shape["count"], "lowest")]
    return []


def order_requirement_text(order: Order) -> str:
    """The requirement in words, e.g. ``1 pepper + 4 salami``."""
    shape = ORDER_TYPES[order.type]
    if order.type == "standard":
        return f"{shape['personal']} {order.personal} + {shape['count']} {order.other}"
    if order.type == "one_of_each":
        return f"{shape['each']} of each kind"
    if order.type == "bombastica":
        return f"at least {shape['total']} of any kinds"
    if order.type == "monotoni":
        return f"{shape['personal']} {order.personal} + {shape['count']} of one named kind"
    if order.type == "minimale":
        return f"{shape['personal']} {order.personal} + {shape['count']} of the lowest kind"
    return order.type


def order_card_svg(order: Order, href: str | None = None) -> str:
    """A full-size order card: its colour, its name, the requirement as icons and words."""
    fill, text = player_colour(order.colour)
    w, h = 150, 210
    label = f"{escape(order.id)}: {escape(order_requirement_text(order))}"
    parts = [f'<svg class="mm-order-card" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
             f'role="img" aria-label="{label}">', f'<title>{label}</title>',
             f'<rect x="1.5" y="1.5" width="{w - 3}" height="{h - 3}" rx="10" fill="#fffdf6" '
             f'stroke="{fill}" stroke-width="3"/>',
             f'<path d="M1.5 40 V11.5 A10 10 0 0 1 11.5 1.5 H{w - 11.5} A10 10 0 0 1 {w - 1.5} '
             f'11.5 V40 Z" fill="{fill}"/>',
             f'<text x="{w / 2}" y="17" text-anchor="middle" font-size="11" fill="{text}" '
             f'class="mm-svg-text">{escape(order.colour)}</text>',
             f'<text x="{w / 2}" y="33" text-anchor="middle" font-size="13" font-weight="bold" '
             f'fill="{text}" class="mm-svg-text">{escape(TYPE_NAMES.get(order.type, order.type))}'
             '</text>']
    items = order_parts(order)
    if order.type == "bombastica":
        parts.append(f'<text x="{w / 2}" y="92" text-anchor="middle" font-size="30" '
                     f'font-weight="bold" fill="#333" class="mm-svg-text">{items[0][0]}</text>')
        for i, kind in enumerate(KINDS):
            x = w / 2 - len(KINDS) * 12 + i * 24
            parts.append(f'<use href="#mm-i-{kind}" x="{x + 1}" y="104" width="22" height="22"/>')
    elif order.type == "one_of_each":
        for i, kind in enumerate(KINDS):
            x = 12 + (i % 3) * 44 if i < 3 else 34 + (i - 3) * 44
            y = 58 if i < 3 else 104
            parts.append(f'<use href="#mm-i-{kind}" x="{x}" y="{y}" width="36" height="36"/>')
    else:
        for i, (count, kind) in enumerate(items):
            y = 52 + i * 44
            parts.append(f'<text x="44" y="{y + 28}" text-anchor="end" font-size="24" '
                         f'font-weight="bold" fill="#333" class="mm-svg-text">{count}</text>')
            parts.append(f'<text x="56" y="{y + 26}" text-anchor="middle" font-size="16" '
                         f'fill="#777" class="mm-svg-text">&#215;</text>')
            parts.append(f'<use href="#mm-i-{kind}" x="68" y="{y}" width="38" height="38"/>')
    words = order_requirement_text(order)
    for i, line in enumerate(wrap(words, 22)):
        parts.append(f'<text x="{w / 2}" y="{160 + i * 15}" text-anchor="middle" font-size="12" '
                     f'fill="#333" class="mm-svg-text">{escape(line)}</text>')
    parts.append(f'<text x="{w / 2}" y="{h - 9}" text-anchor="middle" font-size="10" '
                 f'fill="#888" class="mm-svg-mono">{escape(order.id)}</text>')
    parts.append("</svg>")
    body = "".join(parts)
    return f'<a class="mm-card-link" href="{escape(href)}">{body}</a>' if href else body


def ingredient_card_svg(kind: str, name: str, copies: int) -> str:
    line = kind_colour(kind)[1]
    w, h = 110, 154
    return (f'<svg class="mm-ingredient-card" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'role="img" aria-label="{escape(name)}"><title>{escape(name)}</title>'
            f'<rect x="1.5" y="1.5" width="{w - 3}" height="{h - 3}" rx="9" fill="#fffdf6" '
            f'stroke="{line}" stroke-width="3"/>'
            f'<use href="#mm-i-{escape(kind)}" x="20" y="24" width="70" height="70"/>'
            f'<text x="{w / 2}" y="118" text-anchor="middle" font-size="15" font-weight="bold" '
            f'fill="{line}" class="mm-svg-text">{escape(name)}</text>'
            f'<text x="{w / 2}" y="138" text-anchor="middle" font-size="11" fill="#666" '
            f'class="mm-svg-text">{copies} cards</text></svg>')


def mamma_mia_card_svg() -> str:
    w, h = 110, 154
    return (f'<svg class="mm-ingredient-card" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            'role="img" aria-label="the Mamma Mia! card"><title>The Mamma Mia! card</title>'
            f'<rect x="1.5" y="1.5" width="{w - 3}" height="{h - 3}" rx="9" fill="#c62828" '
            'stroke="#7f0000" stroke-width="3"/>'
            f'<rect x="10" y="10" width="{w - 20}" height="{h - 20}" rx="6" fill="none" '
            'stroke="#fff" stroke-width="1.5" stroke-dasharray="4 3"/>'
            f'<text x="{w / 2}" y="70" text-anchor="middle" font-size="19" font-weight="bold" '
            'fill="#fff" class="mm-svg-text">Mamma</text>'
            f'<text x="{w / 2}" y="94" text-anchor="middle" font-size="19" font-weight="bold" '
            'fill="#fff" class="mm-svg-text">Mia!</text></svg>')


# --- cards in a position (styled HTML) ------------------------------------------------


def ingredient_chip(kind: str, count: int | None = None) -> str:
    """A small ingredient card; with ``count``, a stack of that many."""
    badge = f'<span class="mm-count">&#215;{count}</span>' if count is not None else ""
    return (f'<span class="mm-card mm-k-{escape(kind)}" title="{escape(kind)}">'
            f'{icon(kind, 16)}{badge}</span>')


def order_chip(order_id: str) -> str:
    """A small order card: its colour and its requirement as icons."""
    order = ORDERS.get(order_id)
    if order is None:
        return f'<span class="mm-ocard" title="{escape(order_id)}">{escape(order_id)}</span>'
    inner = []
    for count, kind in order_parts(order):
        if kind == "any":
            inner.append(f'<b>{count}</b>')
        elif order.type == "one_of_each":
            inner.append(icon(kind, 12))
        else:
            inner.append(f'<b>{count}</b>{icon(kind, 13)}')
    return (f'<span class="mm-ocard mm-c-{escape(order.colour)}" '
            f'title="{escape(order_id)}: {escape(order_requirement_text(order))}">'
            f'{"".join(inner)}</span>')


def mamma_mia_chip() -> str:
    return '<span class="mm-mm" title="the Mamma Mia! card">Mamma Mia!</span>'


def card_chip(card: str) -> str:
    if card == MAMMA_MIA:
        return mamma_mia_chip()
    if card in ORDERS:
        return order_chip(card)
    return ingredient_chip(card)


def backs(count: int, title: str = "") -> str:
    """A face-down stack of ``count`` cards."""
    if not count:
        return '<span class="mm-empty">empty</span>'
    return (f'<span class="mm-back" title="{escape(title)}"><span class="mm-count">'
            f'&#215;{count}</span></span>')


def colour_chip(colour: str) -> str:
    return f'<span class="mm-chip mm-c-{escape(colour)}">{escape(colour)}</span>'


def counts_html(counts: Sequence[int], *, empty: str = "none") -> str:
    chips = [ingredient_chip(kind, n) for kind, n in zip(KINDS, counts, strict=True) if n]
    return "".join(chips) or f'<span class="mm-empty">{escape(empty)}</span>'


def hand_html(counts: Sequence[int], orders: Sequence[str]) -> str:
    cards = [ingredient_chip(kind) for kind, n in zip(KINDS, counts, strict=True)
             for _ in range(n)]
    cards += [order_chip(o) for o in orders]
    return "".join(cards) or '<span class="mm-empty">no cards</span>'


def pile_html(cards: Sequence[str], limit: int = 14) -> str:
    shown = [card_chip(c) for c in cards[:limit]]
    if len(cards) > limit:
        shown.append(f'<span class="mm-more">+{len(cards) - limit} more</span>')
    return "".join(shown) or '<span class="mm-empty">empty</span>'


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _zone(title: str, body: str, css: str = "") -> str:
    return (f'<div class="mm-zone {css}"><div class="mm-zone-h">{title}</div>'
            f'<div class="mm-row">{body}</div></div>')


def _phase_text(state: GameState) -> str:
    if state.phase == "shuffle":
        return f"chance: the {escape(state.step)} pile is to be shuffled"
    if state.phase == "over":
        return "the game is over"
    who = escape(state.colour(state.current))
    if state.phase == "oven":
        reveal = state.reveal.order if state.reveal else "the revealed order"
        return f"oven: {who} decides on {escape(reveal)} ({escape(state.step.replace('_', ' '))})"
    return f"turn: {who} to {escape(state.step)}"


def board_html(state: GameState, *, compact: bool = False) -> str:
    """A position drawn as cards: the oven, the table, the piles and every player's
    hand, waiter and delivered orders, with the Mamma Mia! card where it lies."""
    head = (f'<div class="mm-meta">round {state.round} &middot; {state.resolutions} '
            f'{"opening" if state.resolutions == 1 else "openings"} so far &middot; '
            f'{_phase_text(state)}</div>')
    zones = [_zone(f"Oven &middot; {plural(len(state.oven), 'card')}, first played first",
                   pile_html(state.oven, 20), "mm-oven")]
    if any(state.table) or state.phase == "oven" or not compact:
        zones.append(_zone("Table", counts_html(state.table, empty="no cards")))
    if state.reveal is not None:
        kind = f" &middot; kind {escape(state.reveal.kind)}" if state.reveal.kind else ""
        zones.append(_zone(f"Revealed{kind}", order_chip(state.reveal.order)))
    if not compact:
        zones.append(_zone(f"Supply &middot; {plural(len(state.supply), 'card')}, top first",
                           pile_html(state.supply)))
        zones.append(_zone("Used pile", counts_html(state.used, empty="none")))
        if any(state.box):
            zones.append(_zone("Box (trimmed)", counts_html(state.box)))
    players = []
    for seat, hand in enumerate(state.hands):
        colour = state.colour(seat)
        marks = []
        if state.mamma_mia == seat:
            marks.append(mamma_mia_chip())
        deciding = state.phase in ("turn", "oven") and state.current == seat
        if deciding:
            marks.append('<span class="mm-tomove">to move</span>')
        waiter = state.waiters[seat]
        delivered = state.delivered[seat]
        rows = [f'<div class="mm-player-h">{colour_chip(colour)} seat {seat}{"".join(marks)}'
                '</div>',
                f'<div class="mm-row"><span class="mm-label">hand</span>'
                f'{hand_html(hand.ingredients, hand.orders)}</div>',
                f'<div class="mm-row"><span class="mm-label">waiter</span>'
                f'{backs(len(waiter), ", ".join(waiter))}'
                f'<span class="mm-label">delivered</span>'
                f'{"".join(order_chip(o) for o in delivered) or backs(0)}</div>']
        css = f"mm-player mm-b-{escape(colour)}" + (" mm-current" if deciding else "")
        players.append(f'<div class="{css}">{"".join(rows)}</div>')
    return (f'<div class="mm-board{" mm-compact" if compact else ""}">{head}'
            f'<div class="mm-zones">{"".join(zones)}</div>'
            f'<div class="mm-players">{"".join(players)}</div></div>')


# --- flow diagrams -------------------------------------------------------------------


@dataclass
class _Box:
    x: float
    y: float
    w: float
    h: float
    lines: list[str] = field(default_factory=list)
    rule_lines: list[list[str]] = field(default_factory=list)


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _wrap_ids(ids: Sequence[str], width: int) -> list[list[str]]:
    lines: list[list[str]] = []
    used = 0
    for rule_id in ids:
        if lines and used + 3 + len(rule_id) <= width:
            lines[-1].append(rule_id)
            used += 3 + len(rule_id)
        else:
            lines.append([rule_id])
            used = len(rule_id)
    return lines


def flow_svg(name: str, title: str, nodes: Sequence[FlowNode], loops: Sequence[FlowLoop],
             link: Callable[[str], str], variant: Callable[[str], bool]) -> str:
    """A vertical flow chart: one box per node, an arrow between consecutive nodes, side
    notes to the right, loops drawn back up the left margin. Each rule ID in a box is a
    link (``link(rule_id)`` gives its address); variant rules are set in italics."""
    main_x = 30.0 + 16 * len(loops)    # one lane per loop in the left margin
    side_x = main_x + _FLOW_MAIN_W + 40
    width = side_x + _FLOW_SIDE_W + 6
    boxes, sides, height = _flow_layout(nodes, main_x, side_x)
    marker = f"mm-arrow-{name}"
    out = [f'<svg class="mm-flow" viewBox="0 0 {width:.0f} {height:.0f}" width="100%" '
           f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>',
           f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" '
           'fill="#555"/></marker></defs>',
           f'<text x="{main_x}" y="24" font-size="16" font-weight="bold" fill="#333" '
           f'class="mm-svg-text">{escape(title)}</text>']
    for i, (node, box) in enumerate(zip(nodes, boxes, strict=True)):
        fill, stroke = ("#fff4d6", "#c99a00") if node.decision else ("#eef4ff", "#5b7db8")
        radius = 18 if node.decision else 6
        out.append(f'<rect x="{box.x}" y="{box.y:.0f}" width="{box.w}" height="{box.h:.0f}" '
                   f'rx="{radius}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')
        out += _flow_text(box, 14, 18, node.decision, link, variant)
        if i + 1 < len(boxes):
            x = box.x + box.w / 2
            out.append(f'<line x1="{x}" y1="{box.y + box.h:.0f}" x2="{x}" '
                       f'y2="{boxes[i + 1].y - 2:.0f}" stroke="#555" stroke-width="1.5" '
                       f'marker-end="url(#{marker})"/>')
        note = sides[i]
        if note is not None:
            out += _flow_note(box, note, marker, link, variant)
    out += _flow_loops(loops, boxes, main_x, marker)
    out.append("</svg>")
    return "".join(out)


_FLOW_MAIN_W = 372.0  # a box's width
_FLOW_SIDE_W = 262.0  # a side note's width
_FLOW_GAP = 30.0  # between a box (or its side note) and the next
_FLOW_PAD = 10.0  # inside a box
_CAPTION_CHARS, _RULE_CHARS, _SIDE_CHARS = 46, 48, 32  # a line's characters, at most


def _flow_layout(nodes: Sequence[FlowNode], main_x: float,
                 side_x: float) -> tuple[list[_Box], list[_Box | None], float]:
    """Each node's box and side note (if any), top to bottom, and the chart's height."""
    pad, y = _FLOW_PAD, 46.0
    boxes: list[_Box] = []
    sides: list[_Box | None] = []
    for node in nodes:
        lines = wrap(node.caption, _CAPTION_CHARS)
        rule_lines = _wrap_ids(node.rules, _RULE_CHARS)
        h = pad * 2 + 18 * len(lines) + 15 * len(rule_lines)
        box = _Box(main_x, y, _FLOW_MAIN_W, h, lines, rule_lines)
        boxes.append(box)
        bottom = y + h
        if node.side is not None:
            s_lines = wrap(node.side[0], _SIDE_CHARS)
            s_rules = _wrap_ids(node.side[1], _SIDE_CHARS + 4)
            sh = pad * 2 + 16 * len(s_lines) + 15 * len(s_rules)
            side = _Box(side_x, y, _FLOW_SIDE_W, sh, s_lines, s_rules)
            sides.append(side)
            bottom = max(bottom, y + sh)
        else:
            sides.append(None)
        y = bottom + _FLOW_GAP
    return boxes, sides, y - _FLOW_GAP + 16


def _flow_text(box: _Box, size: int, step: int, bold: bool, link: Callable[[str], str],
               variant: Callable[[str], bool]) -> list[str]:
    """A box's lines, then its rule IDs, each a link (variant rules in italics)."""
    parts = []
    ty = box.y + _FLOW_PAD + size
    weight = ' font-weight="bold"' if bold else ""
    for line in box.lines:
        parts.append(f'<text x="{box.x + _FLOW_PAD}" y="{ty:.0f}" font-size="{size}"{weight} '
                     f'fill="#222" class="mm-svg-text">{escape(line)}</text>')
        ty += step
    for ids in box.rule_lines:
        links = []
        for rule_id in ids:
            style = ' font-style="italic"' if variant(rule_id) else ""
            links.append(f'<a href="{escape(link(rule_id))}"><tspan fill="#1a5fb4"{style}>'
                         f'{escape(rule_id)}</tspan></a>')
        parts.append(f'<text x="{box.x + _FLOW_PAD}" y="{ty - 2:.0f}" font-size="12" '
                     f'class="mm-svg-mono">{" &#183; ".join(links)}</text>')
        ty += 15
    return parts


def _flow_note(box: _Box, note: _Box, marker: str, link: Callable[[str], str],
               variant: Callable[[str], bool]) -> list[str]:
    """A side note, dashed, and the dashed arrow to it from its box."""
    out = [f'<rect x="{note.x}" y="{note.y:.0f}" width="{note.w}" '
           f'height="{note.h:.0f}" rx="6" fill="#f6f6f6" stroke="#999" '
           'stroke-dasharray="5 3"/>']
    out += _flow_text(note, 13, 16, False, link, variant)
    cy = box.y + min(box.h, note.h) / 2
    out.append(f'<line x1="{box.x + box.w}" y1="{cy:.0f}" x2="{note.x - 2}" '
               f'y2="{cy:.0f}" stroke="#999" stroke-width="1.3" stroke-dasharray="4 3" '
               f'marker-end="url(#{marker})"/>')
    return out


def _flow_loops(loops: Sequence[FlowLoop], boxes: Sequence[_Box], main_x: float,
                marker: str) -> list[str]:
    """The loops, each back up its own lane in the left margin with its label: the
    shortest loop runs nearest the boxes; each label stands upright, left of its lane."""
    out = []
    by_span = sorted(loops, key=lambda loop: abs(loop.source - loop.target))
    for number, loop in enumerate(by_span):
        src, dst = boxes[loop.source], boxes[loop.target]
        lane = main_x - 10 - 16 * number
        y1 = src.y + src.h / 2
        y2 = dst.y + min(dst.h / 2, 22)
        mid = (y1 + y2) / 2
        out.append(f'<path d="M{src.x} {y1:.0f} H{lane} V{y2:.0f} H{dst.x - 2}" fill="none" '
                   f'stroke="#8a4b00" stroke-width="1.5" marker-end="url(#{marker})"/>')
        out.append(f'<text x="{lane - 4}" y="{mid:.0f}" font-size="11" fill="#8a4b00" '
                   f'text-anchor="middle" transform="rotate(-90 {lane - 4} {mid:.0f})" '
                   f'class="mm-svg-text">{escape(loop.label)}</text>')
    return out


# --- the stylesheet --------------------------------------------------------------------

_CSS = """
.mm-sprite { overflow: hidden; }
.mm-svg-text { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
.mm-svg-mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.mm-card-grid { display: flex; flex-wrap: wrap; gap: .6rem; margin: .8rem 0 1.2rem; }
.mm-card-grid figure { margin: 0; text-align: center; }
.mm-card-grid figcaption { font-size: .65rem; color: var(--md-default-fg-color--light);
  max-width: 150px; margin: .2rem auto 0; }
.mm-card-grid.mm-rule-cards svg.mm-order-card { width: 105px; height: 147px; }
.md-typeset .mm-queries td:first-child { font-weight: normal; }
.mm-card-link:hover svg { filter: drop-shadow(0 2px 4px rgba(0,0,0,.35)); }
.mm-card, .mm-ocard, .mm-back, .mm-mm { display: inline-flex; align-items: center;
  justify-content: center; gap: 1px; box-sizing: border-box; border-radius: 4px;
  margin: 1px 2px; vertical-align: middle; line-height: 1; }
.mm-card { min-width: 22px; height: 30px; padding: 0 2px; background: #fffdf6;
  border: 2px solid #999; }
.mm-ocard { height: 30px; padding: 0 4px; background: #fffdf6; border: 2px solid #777;
  border-top-width: 6px; font-size: .62rem; }
.mm-ocard b { margin-left: 2px; }
.mm-back { width: 28px; height: 30px; background: repeating-linear-gradient(45deg, #8d6e63,
  #8d6e63 3px, #a1887f 3px, #a1887f 6px); border: 2px solid #5d4037; color: #fff; }
.mm-mm { height: 30px; padding: 0 5px; background: #c62828; color: #fff; font-weight: bold;
  font-size: .6rem; border: 2px solid #7f0000; }
.mm-count { font-size: .62rem; font-weight: bold; margin-left: 1px; }
.mm-back .mm-count { background: rgba(0,0,0,.55); padding: 1px 2px; border-radius: 2px; }
.mm-empty, .mm-more { color: var(--md-default-fg-color--light); font-size: .65rem;
  font-style: italic; margin: 0 4px; }
.mm-chip { display: inline-block; padding: 0 .45em; border-radius: .6em; font-size: .7rem;
  font-weight: bold; line-height: 1.5; vertical-align: baseline; }
.mm-board { border: 1px solid var(--md-default-fg-color--lightest); border-radius: 6px;
  padding: .4rem .6rem; margin: .6rem 0 1rem; background: var(--md-code-bg-color); }
.mm-meta { font-size: .68rem; color: var(--md-default-fg-color--light); margin-bottom: .3rem; }
.mm-zones, .mm-players { display: flex; flex-wrap: wrap; gap: .4rem .8rem; }
.mm-players { margin-top: .4rem; }
.mm-zone-h, .mm-label { font-size: .62rem; text-transform: uppercase; letter-spacing: .03em;
  color: var(--md-default-fg-color--light); }
.mm-label { margin: 0 .3rem 0 .5rem; }
.mm-label:first-child { margin-left: 0; }
.mm-row { display: flex; flex-wrap: wrap; align-items: center; min-height: 32px; }
.mm-player { border-left: 4px solid #999; padding: .2rem .5rem; background:
  var(--md-default-bg-color); border-radius: 4px; flex: 1 1 16rem; }
.mm-player.mm-current { box-shadow: 0 0 0 2px #f9a825; }
.mm-player-h { font-size: .7rem; display: flex; align-items: center; gap: .4rem; }
.mm-tomove { font-size: .6rem; background: #f9a825; color: #000; padding: 0 .35em;
  border-radius: .4em; }
.md-typeset .mm-step { border-left: 3px solid var(--md-default-fg-color--lightest);
  padding: .1rem 0 .2rem .6rem; margin-bottom: .5rem; }
.md-typeset .mm-step > p { margin: .2rem 0; }
.md-typeset .mm-step.mm-rejected { border-left-color: #e65100; }
.md-typeset .mm-step.mm-diverged { border-left-color: #c62828; background: rgba(198,40,40,.07); }
.mm-step-n { font-weight: bold; margin-right: .3rem; }
.md-typeset .mm-events { font-size: .72rem; }
.md-typeset .mm-events ul { margin: .1rem 0 .2rem .2rem; }
.md-typeset .mm-events li { margin: 0 0 0 1rem; }
.mm-checks { font-size: .65rem; color: var(--md-default-fg-color--light); }
.mm-note { font-style: italic; font-size: .72rem; }
.mm-runs { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
  gap: 1rem; align-items: start; }
.mm-run { border: 1px solid var(--md-default-fg-color--lightest); border-radius: 6px;
  padding: 0 .7rem .5rem; min-width: 0; }
.mm-verdict-pass { color: #2e7d32; font-weight: bold; }
.mm-verdict-fail { color: #c62828; font-weight: bold; }
.mm-positions td { vertical-align: top; min-width: 9rem; }
.mm-flow { max-width: 760px; display: block; margin: .5rem 0 1rem; }
.mm-flow a:hover tspan { text-decoration: underline; }
.mm-when { font-size: .72rem; }
.mm-rule-meta { font-size: .72rem; color: var(--md-default-fg-color--light); }
.mm-ocard { color: #222; }  /* cream card, dark text, in either colour scheme */
.mm-question { font-size: .85rem; margin: .4rem 0 .8rem; }
.mm-forest { vertical-align: middle; color: var(--md-default-fg-color); }
.mm-impact table { font-size: .68rem; }
.md-typeset .mm-impact table td, .md-typeset .mm-impact table th { min-width: 0; }
.md-typeset .mm-impact table:not([class]) td:first-child { min-width: 8rem; }
.md-typeset .mm-side table:not([class]) td { vertical-align: top; min-width: 12rem;
  font-size: .7rem; }
/* a cell's column heading, shown only where the rows are stacked (on a phone); in the
   case it is written in, as flag values are */
.mm-col { display: none; }
@media screen and (max-width: 44em) {
  /* the editions' positions, and the rulings side by side, read as stacked cards: the
     row's first cell, then each column's cell under its heading (mm-col) */
  .mm-positions table, .mm-positions tbody, .mm-positions tr, .mm-positions td,
  .mm-side table, .mm-side tbody, .mm-side tr, .mm-side td,
  .mm-stack table, .mm-stack tbody, .mm-stack tr, .mm-stack td {
    display: block; width: 100%; min-width: 0; }
  .mm-positions thead, .mm-side thead, .mm-stack thead { display: none; }
  .mm-positions tr, .mm-side tr, .mm-stack tr {
    border-top: 1px solid var(--md-default-fg-color--lightest); padding: .3rem 0; }
  .md-typeset .mm-positions table td, .md-typeset .mm-side table td,
  .md-typeset .mm-stack table td { border: none; padding: .1rem .6rem; }
  .md-typeset .mm-side table:not([class]) td,
  .md-typeset .mm-stack table:not([class]) td { min-width: 0; }
  .mm-positions td:first-child, .mm-side td:first-child, .mm-stack td:first-child {
    font-weight: bold; }
  .mm-side .mm-col, .mm-stack .mm-col { display: inline; font-weight: bold;
    color: var(--md-default-fg-color--light); }
  .mm-side td:empty, .mm-stack td:empty { display: none; }
}
"""


def stylesheet() -> str:
    """The site's CSS: the layout above (and :mod:`mammamia_ref.site.layout`'s) plus one
    class per kind and per colour."""
    from mammamia_ref.site.layout import LAYOUT_CSS

    rules = [_CSS, LAYOUT_CSS, *_icon_css()]
    for kind in KINDS:
        fill, line = kind_colour(kind)
        rules.append(f".mm-k-{kind} {{ border-color: {line}; background: {fill}22; }}")
    for colour in COLOURS:
        fill, text = player_colour(colour)
        rules.append(f".mm-c-{colour} {{ border-color: {fill}; }}")
        rules.append(f".mm-chip.mm-c-{colour} {{ background: {fill}; color: {text}; }}")
        rules.append(f".mm-b-{colour} {{ border-left-color: {fill}; }}")
    return "\n".join(rules) + "\n"


def personal_of(colour: str) -> str:
    return PERSONAL[colour]
