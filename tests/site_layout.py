"""What the browser test measures on a rendered page of the site: words and identifiers
broken mid-word by the line wrapping, tables wider than the box that holds them (cut off,
a reader must scroll them sideways), a page wider than the screen, and values shown in
capitals by the stylesheet. Used by ``tests/test_site.py`` through ``chromium_cdp``."""

from __future__ import annotations

from typing import Any

# A line break between two letters or digits of one text node: a word or an identifier
# cut in two (a break after "_", "." or "-" is the identifier's own joint, not mid-word).
# Hidden text and pictures are left out; code blocks scroll, by design.
MID_WORD_JS = r"""
(() => {
  const root = document.querySelector('article.md-content__inner');
  if (!root) return [];
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const alnum = /[A-Za-z0-9]/;
  let node;
  while ((node = walker.nextNode())) {
    const text = node.textContent;
    const el = node.parentElement;
    if (text.trim().length < 2 || !el || el.closest('svg, pre, script, style')) continue;
    range.selectNodeContents(node);
    if (range.getClientRects().length < 2) continue;
    let previous = null;
    for (let i = 0; i < text.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rects = range.getClientRects();
      if (!rects.length || rects[0].width === 0) continue;
      const top = rects[0].top;
      if (previous !== null && top > previous.top + 2 && alnum.test(text[previous.i])
          && alnum.test(text[i]) && previous.i === i - 1) {
        found.push(text.slice(Math.max(0, i - 20), i) + '|' + text.slice(i, i + 20));
      }
      previous = {top: top, i: i};
    }
  }
  return found;
})()
"""

# Every table of the article wider than the box that scrolls it (Material wraps each
# table in one, ``md-typeset__scrollwrap``, drawn a little wider than the text column),
# and the page's own width against the screen's.
CUT_OFF_JS = r"""
(() => {
  const root = document.querySelector('article.md-content__inner');
  const tables = root ? [...root.querySelectorAll('table')] : [];
  const cut = tables.filter(t => t.getClientRects().length).map(t => {
      const box = t.closest('.md-typeset__scrollwrap') || t.parentElement;
      return {t: t, box: box}; })
    .filter(x => x.box.scrollWidth > x.box.clientWidth + 1
          || x.t.getBoundingClientRect().right > x.box.getBoundingClientRect().right + 1)
    .map(x => (x.t.querySelector('th, td') || x.t).innerText.slice(0, 40) + ' ('
         + x.box.scrollWidth + ' px in ' + x.box.clientWidth + ')');
  return {cut: cut, tables: tables.length, page: document.documentElement.scrollWidth,
          screen: innerWidth};
})()
"""

# Visible elements holding code (a flag value, a rule ID) whose text the stylesheet shows
# in capitals.
UPPER_CASED_CODE_JS = r"""
[...document.querySelectorAll('article code')].filter(c => c.getClientRects().length
    && getComputedStyle(c).textTransform === 'uppercase')
  .map(c => c.textContent).slice(0, 10)
"""


def layout_problems(browser: Any, page: str) -> list[str]:
    """What is wrong with the layout of the page shown: mid-word breaks, cut-off tables,
    a page wider than the screen, code in capitals; each named with the page."""
    problems = [f"{page}: broken mid-word: {text!r}"
                for text in browser.evaluate(MID_WORD_JS)[:10]]
    widths = browser.evaluate(CUT_OFF_JS)
    problems += [f"{page}: table cut off: {what}" for what in widths["cut"]]
    if widths["page"] > widths["screen"]:
        problems.append(f"{page}: the page is {widths['page']} px wide on a screen of "
                        f"{widths['screen']}")
    problems += [f"{page}: code in capitals: {text!r}"
                 for text in browser.evaluate(UPPER_CASED_CODE_JS)]
    return problems
