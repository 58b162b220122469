"""The demo's page as headless Chromium lays it out at a phone's, a tablet's and a desktop's
width: how wide the page is, its smallest type, and what scrolls sideways inside it."""

from __future__ import annotations

from typing import Any

from tests.web.browser import Page

#: A phone, a tablet and a desktop, in CSS pixels.
WIDTHS = (360, 768, 1280)

MEASURE = """
const texts = [...document.querySelectorAll('body *')].filter(e =>
  e.getClientRects().length && [...e.childNodes].some(n => n.nodeType === 3 && n.data.trim()));
return {
  page: document.documentElement.scrollWidth,
  smallest_type: Math.min(...texts.map(e => parseFloat(getComputedStyle(e).fontSize))),
  widest_image: Math.max(0, ...[...document.images].map(i => i.getBoundingClientRect().width)),
  scrolling: [...document.querySelectorAll('body *')].filter(e =>
    e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'
  ).map(e => e.className).slice(0, 5),
};
"""


async def measured(page: Page, url: str) -> dict[int, dict[str, Any]]:
    """`url` drawn at each of WIDTHS (a phone's as a phone draws it): what MEASURE finds."""
    found = {}
    for width in WIDTHS:
        metrics = {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 500}
        await page.call(page.driver.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride", metrics)
        await page.call(page.driver.get, url)
        found[width] = await page.js(MEASURE)
    return found
