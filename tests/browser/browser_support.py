"""What the browser tests driven by WebDriver share: finding Chromium, ChromeDriver and Selenium (a
missing one skips the tests, saying which, unless PODIUM_REQUIRE_BROWSER=1 makes them compulsory),
starting a headless Chromium with a fresh profile, a referee (a Podium process of the test's own,
through the podium package) to check every position the page shows, waiting, and screenshots.

    pip install selenium; apt-get install -y chromium chromium-driver
    PODIUM_BIN=target/release/podium python3 -m unittest discover -s tests/browser

$CHROMIUM and $CHROMEDRIVER name other binaries; $PODIUM_SCREENSHOTS, a directory, keeps
screenshots of what the tests saw.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(ROOT, "scripts")
PODIUM = os.path.abspath(os.environ.get("PODIUM_BIN") or os.path.join(ROOT, "target", "release", "podium"))
SCREENSHOTS = os.environ.get("PODIUM_SCREENSHOTS")
REQUIRED = os.environ.get("PODIUM_REQUIRE_BROWSER") == "1"
WINDOW = (1400, 900)

if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)


def missing_tools() -> list[str]:
    """What the WebDriver tests need and this machine lacks, each with the way to get it."""
    missing = []
    if not chromium_path():
        missing.append("Chromium (apt-get install -y chromium, or name it in $CHROMIUM)")
    if not chromedriver_path():
        missing.append("ChromeDriver (apt-get install -y chromium-driver, or name it in $CHROMEDRIVER)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("Selenium (pip install selenium)")
    if not os.path.exists(PODIUM):
        missing.append(f"the podium binary at {PODIUM} (cargo build --release, or set PODIUM_BIN)")
    return missing


def require_tools() -> None:
    """Skips the calling test class when a tool is missing, or fails when PODIUM_REQUIRE_BROWSER=1."""
    missing = missing_tools()
    if not missing:
        return
    message = "the browser tests need " + "; ".join(missing)
    if REQUIRED:
        raise AssertionError(message + " (PODIUM_REQUIRE_BROWSER=1: they may not be skipped)")
    print(f"\nSKIPPED: {message}", file=sys.stderr)
    raise unittest.SkipTest(message)


def chromium_path() -> str | None:
    return shutil.which(os.environ.get("CHROMIUM") or "chromium") or shutil.which("chromium-browser")


def chromedriver_path() -> str | None:
    return shutil.which(os.environ.get("CHROMEDRIVER") or "chromedriver")


def start_browser(profile: str):
    """Headless Chromium driven by ChromeDriver, with a fresh profile and nothing that goes out."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager fetches nothing: the paths are given
    options = webdriver.ChromeOptions()
    options.binary_location = chromium_path()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--hide-scrollbars", f"--user-data-dir={profile}",
                 f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(chromedriver_path()), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    return driver


def wait_for(condition: Callable[[], object], what: str, timeout: float = 15.0, interval: float = 0.05):
    """condition's first true value, polled; past timeout an AssertionError that says what was awaited."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # noqa: BLE001 - an element not there yet, gone stale: try again
            last_error = error
        if time.monotonic() > deadline:
            detail = f" (last error: {last_error})" if last_error else ""
            raise AssertionError(f"waited {timeout:g} s for {what}{detail}")
        time.sleep(interval)


def screenshot(driver, name: str) -> None:
    """Keeps a screenshot in $PODIUM_SCREENSHOTS, if set."""
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        driver.save_screenshot(os.path.join(SCREENSHOTS, name))


def run(argv: list[str], cwd: str, timeout: float = 180) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def play_match(directory: str, name: str, arguments: list[str]) -> str:
    """A short match of the arbiter; returns its records file."""
    path = os.path.join(directory, name)
    run([sys.executable, os.path.join(SCRIPTS, "arbiter.py"), *arguments, "--records", path], directory)
    return path


class Referee:
    """A Podium process of the test's own: the legal moves and the position line after moves, to
    check what the page shows against."""

    def __init__(self):
        from podium import Engine
        self.engine = Engine([PODIUM])

    def close(self) -> None:
        self.engine.close()

    def select(self, game: str, **settings) -> None:
        self.engine.new_game(game, **settings)

    def start(self) -> str:
        self.engine.set_position("startpos")
        return self.engine.fen()

    def after(self, start: str, moves: list[str]) -> tuple[str, list[str]]:
        """(position line, legal moves) after moves from start."""
        self.engine.set_position(start, moves)
        return self.engine.fen(), self.engine.legal_moves()


def temporary_directory(prefix: str) -> str:
    return tempfile.mkdtemp(prefix=prefix)
