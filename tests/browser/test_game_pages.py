#!/usr/bin/env python3
"""The game and match pages' engine data in a real browser (Selenium driving headless Chromium):
score, depth and time beside each move, the evaluation graph (one line per player with three) that
steps the board when clicked, the clocks of a clocked game, a board that fits the window, and the
legend. Real clicks and keys; every position shown is checked against a Podium of the test's own.

    PODIUM_BIN=target/release/podium python3 -m unittest tests/browser/test_game_pages.py

Without Chromium, ChromeDriver or Selenium the tests skip, saying what is missing, unless
PODIUM_REQUIRE_BROWSER=1 (then they fail). See browser_support.py.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import unittest

from browser_support import (PODIUM, SCRIPTS, WINDOW, Referee, play_match, require_tools, run, screenshot,
                             start_browser, temporary_directory, wait_for)


def records_of(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle][1:]  # the first line is the match's settings


def clock_text(milliseconds: float) -> str:
    """As the page writes a clock: minutes, then seconds to a tenth."""
    minutes, rest = divmod(max(0.0, milliseconds), 60000)
    return f"{int(minutes)}:{rest / 1000:04.1f}"


class GamePages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_tools()
        cls.directory = temporary_directory("podium-pages-")
        cls.poldr_path = play_match(cls.directory, "poldr3.jsonl", [
            "--game", "poldr", "--players", "3", "--size", "5", "--bricks", "8",
            "--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}",
            "--engine", "name=three", f"cmd={PODIUM}", "--games", "1", "--movetime", "10", "--seed", "4"])
        cls.pods_path = play_match(cls.directory, "pods.jsonl", [
            "--engine", "name=alpha", f"cmd={PODIUM}", "--engine", "name=beta", f"cmd={PODIUM}",
            "--games", "2", "--tc", "1+0.05", "--random-plies", "2", "--seed", "9"])
        cls.driver = start_browser(os.path.join(cls.directory, "profile"))
        cls.referee = Referee()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.referee.close()
        shutil.rmtree(cls.directory, ignore_errors=True)

    def find(self, selector: str):
        return self.driver.find_element("css selector", selector)

    def finds(self, selector: str):
        return self.driver.find_elements("css selector", selector)

    def open_page(self, argv: list[str], name: str, fragment: str) -> None:
        path = os.path.join(self.directory, name)
        run([sys.executable, *argv, "--engine", PODIUM, "-o", path], self.directory)
        self.driver.get(f"file://{path}#{fragment}")
        wait_for(lambda: self.find("#viewer").get_attribute("data-ply"), "the page's script")

    def shown_ply(self) -> int:
        return int(self.find("#viewer").get_attribute("data-ply"))

    def expect_position(self, record: dict, ply: int) -> None:
        moves = record["opening_moves"] + record["moves"]
        self.referee.select("poldr" if record["game"] == "poldr" else record["variant"])
        fen, _ = self.referee.after(record["opening_base"], moves[:ply])
        wait_for(lambda: self.shown_ply() == ply and self.find("#fen").text == fen,
                 f"ply {ply} ({fen}) on the page, which shows ply {self.shown_ply()}")

    def test_three_player_game_page_has_engine_data_and_a_graph_line_per_player(self):
        record = records_of(self.poldr_path)[0]
        self.open_page([os.path.join(SCRIPTS, "picture.py"), "--records", self.poldr_path, "--game", "1"],
                       "poldr-game.html", "ply=3")
        infos = [element.text for element in self.finds("#moves .minfo")]
        self.assertEqual(len(infos), len(record["moves"]), "score, depth and time beside each engine move")
        first = record["move_info"][0]
        self.assertIn(f"d{first['depth']}", infos[0])
        lines = self.finds("#eval-graph polyline.eval-line")
        self.assertEqual(sorted(line.get_attribute("data-seat") for line in lines), ["0", "1", "2"])
        self.assertIn("Each player", self.find("#eval-caption").text)
        # a click on the graph shows that move, as does the right arrow key after it
        target = min(6, len(record["opening_moves"] + record["moves"]))
        self.find(f'#eval-graph .ply-band[data-ply="{target}"]').click()
        self.expect_position(record, target)
        cursor = float(self.find("#eval-graph .eval-cursor").get_attribute("x1"))
        band = self.find(f'#eval-graph .ply-band[data-ply="{target}"]')
        middle = float(band.get_attribute("x")) + float(band.get_attribute("width")) / 2
        self.assertAlmostEqual(cursor, middle, places=1, msg="the graph's cursor stands at the ply shown")
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).send_keys("\ue014").perform()  # ArrowRight
        self.expect_position(record, target + 1)
        legend = self.find("#legend").text
        for words in ("the pawn", "marker", "brick", "last move", "reserve", "evaluation graph", "opening"):
            self.assertIn(words, legend)
        screenshot(self.driver, "page-poldr-3-game.png")

    def test_pods_match_page_shows_clocks_and_a_board_that_fits_the_window(self):
        records = records_of(self.pods_path)
        record = records[1]
        self.open_page([os.path.join(SCRIPTS, "arbiter.py"), "report", self.pods_path], "pods-match.html",
                       "game=2&ply=6")
        self.expect_position(record, 6)
        # the clocks after ply 6, as the arbiter charged them: base, less each move's time, plus the increment
        clocks = {"White": 1000.0, "Black": 1000.0}
        opening = len(record["opening_moves"])
        for index, info in enumerate(record["move_info"][:6 - opening]):
            mover = "White" if (opening + index) % 2 == 0 else "Black"
            clocks[mover] = max(clocks[mover] - info["time_ms"], 0) + 50
        shown = [element.text for element in self.finds("#clocks span")]
        self.assertEqual(shown, [f"{colour} {clock_text(clocks[colour])}" for colour in ("White", "Black")])
        # the board: in sight at once, as tall as the window allows, above the match's summary
        board = self.find('.board-frame:not([hidden]) svg.board')
        rect = self.driver.execute_script("const r = arguments[0].getBoundingClientRect(); "
                                          "return [r.top, r.bottom, r.width, window.innerHeight];", board)
        top, bottom, width, height = rect
        self.assertLess(top, 80)
        self.assertLessEqual(bottom, height + 1, "the board fits the window's height")
        self.assertGreater(bottom - top, 0.8 * height, "the board takes most of the window's height")
        self.assertGreater(width, 420)
        summary = self.find("#summary").location["y"]
        self.assertGreater(summary, top, "the viewer comes before the summary")
        self.assertLessEqual(WINDOW[0], 1400)
        # a pod on the board and a pod in hand are told apart by the legend's words
        legend = self.find("#legend").text
        for words in ("last move", "in its side", "now on the board", "out of the game", "side to move"):
            self.assertIn(words, legend)
        self.assertEqual(len(self.finds("#eval-graph polyline.eval-line")), 1, "two players: one line")
        screenshot(self.driver, "page-pods-match.png")


if __name__ == "__main__":
    unittest.main()
