"""What the tools that run the live table share: a free port for its web server, and
headless Chromium (Debian's chromium and chromedriver, through WebDriver) to open it."""

from __future__ import annotations

import shutil
import socket

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")


class NoBrowser(Exception):
    """Chromium or its driver is missing; the message says what to install."""


def free_port() -> int:
    """A TCP port free on this machine now (the bot binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def browser() -> tuple[str, str]:
    """Chromium's path and its driver's; NoBrowser where either is missing."""
    found = next((shutil.which(name) for name in CHROMIUM if shutil.which(name)), None)
    driver = shutil.which("chromedriver")
    if found is None or driver is None:
        raise NoBrowser(
            "no headless Chromium and chromedriver here (`make test` installs Debian's "
            "chromium and chromium-driver where it can: devtools/chromium.sh)"
        )
    return found, driver


def chromium(width: int, height: int, scale: float = 1, *, logs: bool = False):
    """Headless Chromium with a fresh profile, its viewport `width` x `height` CSS pixels (a
    phone's, under 500 wide), `scale` device pixels each; with `logs`, it keeps the
    console and the network events (each WebSocket frame received) for `get_log`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    path, driver = browser()
    options = webdriver.ChromeOptions()
    options.binary_location = path
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        f"--force-device-scale-factor={scale}",
        f"--window-size={width},{height}",
        "--lang=en-US",
    ):
        options.add_argument(argument)
    if logs:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    chrome = webdriver.Chrome(service=Service(driver), options=options)
    metrics = {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": width < 500}
    chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    return chrome
