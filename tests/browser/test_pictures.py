#!/usr/bin/env python3
"""The game and match pages (scripts/podium/pictures.py) in a real browser: headless Chromium loads a
page generated from a real match at a given move (`#ply=N`, `#game=G&ply=N`), takes a screenshot,
and dumps the DOM after the page's script has run; the board shown must have the pieces the
engine's own `d` draws at that move, on the same points.

    PODIUM_BIN=target/release/podium python3 -m unittest discover -s tests/browser

Chromium (Debian: apt-get install -y chromium) draws the pages; $CHROMIUM names another binary. Without
it the tests are skipped, each saying why and how to get it, unless PODIUM_REQUIRE_BROWSER=1 (as
.ci/run sets): then they fail, saying so. $PODIUM_SCREENSHOTS, a directory, keeps
the screenshots.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
from html.parser import HTMLParser

from browser_support import REQUIRED, chromium_path

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(ROOT, "scripts")
PODIUM = os.path.abspath(os.environ.get("PODIUM_BIN") or os.path.join(ROOT, "target", "release", "podium"))
SCREENSHOTS = os.environ.get("PODIUM_SCREENSHOTS")  # where to keep the screenshots (else a scratch directory)
WINDOW = (1200, 1100)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# Left twice from ply 5, Home, End, Right at the end; then a click on the move to ply 2.
STEPPING_SCRIPT = """<script>
(function () {
  const ply = function () { return document.getElementById("viewer").dataset.ply; };
  const press = function (key) { document.dispatchEvent(new KeyboardEvent("keydown", {key: key, bubbles: true})); };
  const seen = [];
  press("ArrowLeft"); press("ArrowLeft"); seen.push(ply());
  press("Home"); seen.push(ply());
  press("End"); seen.push(ply());
  press("ArrowRight"); seen.push(ply());
  document.body.dataset.steps = seen.join(",");
  document.querySelector('#moves a[data-ply="2"]').click();
})();
</script>"""


HOW_TO_GET_IT = "install it with `apt-get install -y chromium` (or name it in $CHROMIUM)"


def chromium() -> str:
    """The browser's path; a test that needs it fails with the way to get it."""
    found = chromium_path()
    if not found:
        raise AssertionError(f"headless Chromium is needed for the browser tests and was not found: {HOW_TO_GET_IT}")
    return found


def run(argv: list[str], cwd: str, timeout: float = 120) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def engine_drawing(setup: str, start: str, moves: list[str]) -> list[str]:
    """The engine's own `d` after moves from start (setup: the game's newgame line)."""
    position = f"position fen {start}" + (f" moves {' '.join(moves)}" if moves else "")
    commands = f"ugi\n{setup}\n{position}\nd\nquit\n"
    done = subprocess.run([PODIUM], input=commands, capture_output=True, text=True, timeout=30)
    lines = done.stdout.splitlines()
    return lines[lines.index("ugiok") + 1:]


def pieces_in_drawing(lines: list[str], poldr: bool) -> dict[str, str]:
    """Point -> piece of a `d`, read here apart from the code under test. Pods: the 11-row picture,
    a letter where a point's `o` would be (row r, column c even: file c/2, rank 6 - r/2). POLD.R:
    `5 . . P . .` rows, a rank and its cells from file a."""
    pieces = {}
    if not poldr:
        for row in range(0, 11, 2):
            for column in range(0, 11, 2):
                char = lines[row].ljust(11)[column]
                if char != "o":
                    pieces[f"{'abcdef'[column // 2]}{6 - row // 2}"] = char
        return pieces
    for line in lines:
        if re.match(r"^\s*[1-9]( [.PBYRbyr])+\s*$", line):
            rank, *cells = line.split()
            for file, char in enumerate(cells):
                if char != ".":
                    pieces[f"{'abcdefghi'[file]}{rank}"] = char
    return pieces


class Element:
    def __init__(self, tag: str, attributes: dict[str, str], parent: Element | None):
        self.tag, self.attributes, self.parent, self.children, self.text = tag, attributes, parent, [], ""

    def find_all(self, predicate) -> list[Element]:
        found = [self] if predicate(self) else []
        for child in self.children:
            found += child.find_all(predicate)
        return found

    def find(self, predicate) -> Element:
        found = self.find_all(predicate)
        if not found:
            raise AssertionError("no such element in the page")
        return found[0]

    def all_text(self) -> str:
        return self.text + "".join(child.all_text() for child in self.children)


class DomTree(HTMLParser):
    """The DOM Chromium dumped, as a tree of Elements."""
    VOID = {"meta", "link", "br", "img", "input", "hr", "source"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {}, None)
        self._open = self.root
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {name: value or "" for name, value in attrs}, self._open)
        self._open.children.append(element)
        if tag not in self.VOID:
            self._open = element

    def handle_startendtag(self, tag, attrs):
        self._open.children.append(Element(tag, {name: value or "" for name, value in attrs}, self._open))

    def handle_endtag(self, tag):
        element = self._open
        while element is not self.root and element.tag != tag:
            element = element.parent
        if element is not self.root:
            self._open = element.parent

    def handle_data(self, data):
        self._open.text += data


@unittest.skipIf(not REQUIRED and chromium_path() is None,
                 f"headless Chromium was not found: {HOW_TO_GET_IT} to run this test "
                 "(PODIUM_REQUIRE_BROWSER=1 makes a missing Chromium a failure)")
class BrowserPages(unittest.TestCase):
    """Each test: a page, a move, a screenshot and the DOM at that move."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp(prefix="podium-pictures-")
        cls.profile = os.path.join(cls.directory, "chromium-profile")
        if not os.path.exists(PODIUM):
            raise AssertionError(f"no podium binary at {PODIUM}: build it (cargo build --release) or set PODIUM_BIN")
        cls.pods_records = cls._match("pods.jsonl", [
            "--engine", "name=alpha", f"cmd={PODIUM}", "--engine", "name=beta", f"cmd={PODIUM}",
            "--games", "2", "--movetime", "10", "--rotation", "90", "--random-plies", "2", "--seed", "7"])
        random_mover = f"{sys.executable} {os.path.join(SCRIPTS, 'random_mover.py')} --podium {PODIUM}"
        cls.poldr_records = cls._match("poldr3.jsonl", [
            "--game", "poldr", "--players", "3", "--engine", "name=podium", f"cmd={PODIUM}",
            "--engine", "name=random1", f"cmd={random_mover} --seed 1",
            "--engine", "name=random2", f"cmd={random_mover} --seed 2",
            "--games", "6", "--movetime", "10", "--random-plies", "1", "--seed", "5"])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory, ignore_errors=True)

    @classmethod
    def _match(cls, name: str, arguments: list[str]) -> list[dict]:
        path = os.path.join(cls.directory, name)
        run([sys.executable, os.path.join(SCRIPTS, "arbiter.py"), *arguments, "--records", path], cls.directory)
        with open(path, encoding="utf-8") as records:
            games = [json.loads(line) for line in records][1:]  # the first line is the match's settings
        return sorted(games, key=lambda record: record.get("index", record["game"]))

    # -- the browser

    def load(self, page: str, fragment: str) -> DomTree:
        """The DOM after the page's script ran at #fragment, and a screenshot of it (checked to be a
        PNG of the window's size)."""
        browser = chromium()
        url = f"file://{page}#{fragment}"
        flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--user-data-dir={self.profile}", "--hide-scrollbars", "--virtual-time-budget=5000"]
        dom = run([*flags, "--dump-dom", url], self.directory)
        screenshot = os.path.join(SCREENSHOTS or self.directory,
                                  f"{os.path.basename(page)}.{re.sub(r'[^a-z0-9]+', '-', fragment)}.png")
        run([*flags, f"--screenshot={screenshot}", f"--window-size={WINDOW[0]},{WINDOW[1]}", url], self.directory)
        with open(screenshot, "rb") as image:
            head = image.read(24)
            image.seek(0, os.SEEK_END)
            size = image.tell()
        self.assertEqual(head[:8], PNG_SIGNATURE, f"{screenshot} is not a PNG")
        self.assertEqual(struct.unpack(">II", head[16:24]), WINDOW, "the screenshot is not of the window's size")
        self.assertGreater(size, 10_000, "the screenshot is (nearly) blank")
        return DomTree(dom)

    def make_page(self, argv: list[str], name: str) -> str:
        path = os.path.join(self.directory, name)
        run([sys.executable, *argv, "--engine", PODIUM, "-o", path], self.directory)
        with open(path, encoding="utf-8") as page:
            text = page.read()
        self.assertIsNone(re.search(r"https?:", text), "the page refers to something outside itself")
        self.assertNotRegex(text, r"<(?:link|img|iframe)\b|\bsrc=|@import|url\(", "the page loads a resource")
        return path

    # -- what the page shows

    def check_board(self, dom: DomTree, record: dict, ply: int, game: int | None = None) -> list[str]:
        """The page shows the game at ply: the viewer says so, its board's points hold what the
        engine's `d` draws there, and the move list marks the ply's move. Returns the `d`."""
        viewer = dom.root.find(lambda element: element.attributes.get("id") == "viewer")
        self.assertEqual(viewer.attributes["data-ply"], str(ply))
        if game is not None:
            self.assertEqual(viewer.attributes["data-game"], str(game))
        frames = viewer.find_all(lambda element: "board-frame" in element.attributes.get("class", "").split()
                                 and "hidden" not in element.attributes)
        self.assertEqual(len(frames), 1, "exactly one board is shown")
        points = frames[0].find_all(lambda element: "data-point" in element.attributes)
        shown = {point.attributes["data-point"]: point.attributes["data-piece"] for point in points}
        moves = record["opening_moves"] + record["moves"]
        setup = "newgame poldr" if record["game"] == "poldr" else f"newgame {record['variant']}"
        drawing = engine_drawing(setup, record["opening_base"], moves[:ply])
        expected = pieces_in_drawing(drawing, poldr=record["game"] == "poldr")
        self.assertTrue(expected, "the engine drew no pieces at this ply: pick a later one")
        self.assertEqual({point: piece for point, piece in shown.items() if piece}, expected)
        self.assertEqual(len(shown), 36 if record["game"] != "poldr" else record["size"] ** 2)
        current = viewer.find(lambda element: "current" in element.attributes.get("class", "").split())
        self.assertEqual(current.all_text(), moves[ply - 1])
        return drawing

    def test_pods_game_page_shows_the_engines_board_at_the_move_asked(self):
        record = self.pods_records[1]
        page = self.make_page([os.path.join(SCRIPTS, "picture.py"), "--records", self.pods_records_path(),
                               "--game", "2"], "pods-game.html")
        ply = 7
        dom = self.load(page, f"ply={ply}")
        drawing = self.check_board(dom, record, ply)
        fen = next(line[4:] for line in drawing if line.startswith("fen "))
        self.assertEqual(fen.split()[3], "90", "the match was played on the board turned by 90 degrees")
        self.assertEqual(dom.root.find(lambda element: element.attributes.get("id") == "fen").all_text(), fen)
        hands = fen.split()[2]
        slots = dom.root.find_all(lambda element: "hand-slot" in element.attributes.get("class", "").split()
                                  and element.parent is not None)
        visible = [slot for slot in slots if self._on_visible_board(slot)]
        self.assertEqual(len(visible), 28, "both hands show the 14 pods of each side")
        for slot in visible:
            pod = slot.attributes["data-pod"]
            self.assertEqual(slot.attributes["data-state"] == "hand", pod in hands, f"pod {pod} in hand {hands}")

    def test_keys_and_clicks_step_through_the_game(self):
        """Keys pressed and a move clicked by a script added to a copy of the page, after its own."""
        record = self.pods_records[0]
        page = self.make_page([os.path.join(SCRIPTS, "picture.py"), "--records", self.pods_records_path(),
                               "--game", "1"], "pods-steps.html")
        with open(page, encoding="utf-8") as handle:
            text = handle.read()
        with open(page, "w", encoding="utf-8") as handle:
            handle.write(text.replace("</body>", STEPPING_SCRIPT + "</body>"))
        dom = self.load(page, "ply=5")
        body = dom.root.find(lambda element: element.tag == "body")
        last = len(record["opening_moves"] + record["moves"])
        self.assertEqual(body.attributes["data-steps"], f"3,0,{last},{last}")
        self.check_board(dom, record, 2)  # the move clicked

    def test_poldr_three_player_game_page_shows_the_engines_board_at_the_move_asked(self):
        record = self.poldr_records[3]
        page = self.make_page([os.path.join(SCRIPTS, "picture.py"), "--records", self.poldr_records_path(),
                               "--game", "4"], "poldr-game.html")
        ply = 9
        dom = self.load(page, f"ply={ply}")
        drawing = self.check_board(dom, record, ply)
        reserves = next(line for line in drawing if line.startswith("fen ")).split()[3].split(",")
        shown = {element.attributes["data-reserve-seat"]: element.all_text()
                 for element in dom.root.find_all(lambda element: "data-reserve-seat" in element.attributes)}
        self.assertEqual(shown, {str(seat): reserve for seat, reserve in enumerate(reserves)})

    def test_pods_match_page_has_its_summary_plot_and_games(self):
        page = self.make_page([os.path.join(SCRIPTS, "arbiter.py"), "report", self.pods_records_path()],
                              "pods-match.html")
        dom = self.load(page, "game=2&ply=5")
        self.check_board(dom, self.pods_records[1], 5, game=2)
        summary = dom.root.find(lambda element: element.attributes.get("id") == "summary").all_text()
        for figure in ("W-L-D of alpha against beta", "Elo", "LOS", "Pentanomial", "win share"):
            self.assertIn(figure, summary)
        # one game pair: Elo and LOS say only that the games are too few; no SPRT was asked for, so none is shown
        self.assertIn("too few games (1 pair; Elo and LOS need 10)", summary)
        self.assertNotIn("SPRT", summary)
        self.check_plot(dom, ["alpha", "beta"], games=2)

    def test_poldr_match_page_has_win_shares_per_engine_and_seat(self):
        page = self.make_page([os.path.join(SCRIPTS, "arbiter.py"), "report", self.poldr_records_path()],
                              "poldr-match.html")
        dom = self.load(page, "game=6&ply=6")
        self.check_board(dom, self.poldr_records[5], 6, game=6)
        tables = {table.attributes["data-kind"]: table.all_text() for table in
                  dom.root.find_all(lambda element: element.tag == "table" and "data-kind" in element.attributes)}
        self.assertEqual(set(tables), {"engine", "seat"})
        for name in ("podium", "random1", "random2"):
            self.assertIn(name, tables["engine"])
        for seat in ("p1 (Blue)", "p2 (Yellow)", "p3 (Red)"):
            self.assertIn(seat, tables["seat"])
        self.assertNotIn("Elo", dom.root.find(lambda element: element.attributes.get("id") == "summary").all_text())
        self.check_plot(dom, ["podium", "random1", "random2"], games=6)

    def check_plot(self, dom: DomTree, engines: list[str], games: int) -> None:
        plot = dom.root.find(lambda element: element.attributes.get("id") == "score-plot")
        self.assertEqual(plot.attributes["data-games"], str(games))
        lines = plot.find_all(lambda element: element.tag == "polyline")
        self.assertEqual([line.attributes["data-engine"] for line in lines], engines)
        for line in lines:
            self.assertEqual(len(line.attributes["points"].split()), games, "one point per game")

    # -- helpers

    def pods_records_path(self) -> str:
        return os.path.join(self.directory, "pods.jsonl")

    def poldr_records_path(self) -> str:
        return os.path.join(self.directory, "poldr3.jsonl")

    @staticmethod
    def _on_visible_board(element: Element) -> bool:
        while element is not None:
            if "board-frame" in element.attributes.get("class", "").split():
                return "hidden" not in element.attributes
            element = element.parent
        return False


if __name__ == "__main__":
    unittest.main()
