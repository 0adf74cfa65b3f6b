#!/usr/bin/env python3
"""The analysis board (scripts/board.py) in a real browser: headless Chromium, driven by Selenium
through ChromeDriver, clicks the board's points, pods, pawn and markers and presses keys as a
person would; after every move the position line the page shows must be the one a Podium process
of the test's own gives after the same moves.

    PODIUM_BIN=target/release/podium python3 -m unittest tests/browser/test_board.py

Without Chromium, ChromeDriver or Selenium the tests skip, saying what is missing, unless
PODIUM_REQUIRE_BROWSER=1 (then they fail). See browser_support.py.
"""

from __future__ import annotations

import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import unittest

from browser_support import (PODIUM, SCRIPTS, Referee, play_match, require_tools, screenshot, start_browser,
                             temporary_directory, wait_for)

BOARD = os.path.join(SCRIPTS, "board.py")
SERVER_START = 30.0  # seconds for the server to say where it listens


class BoardProcess:
    """scripts/board.py on a free port of 127.0.0.1, stopped by Ctrl-C (SIGINT) as a person would."""

    def __init__(self, directory: str, records: list[str]):
        self.log = open(os.path.join(directory, "board.log"), "w+", encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, BOARD, "--engine", PODIUM, "--port", "0", "--hash", "8", "--records", *records],
            cwd=directory, stdout=subprocess.PIPE, stderr=self.log, text=True)
        ready, _, _ = select.select([self.process.stdout], [], [], SERVER_START)
        line = self.process.stdout.readline() if ready else ""
        found = re.match(r"board: (http://127\.0\.0\.1:\d+/) ", line)
        if not found:
            self.stop()
            raise AssertionError(f"board.py did not start: {line!r}\n{self.output()}")
        self.url = found.group(1)

    def engines(self) -> set[int]:
        """The podium processes the server runs (its children)."""
        children = set()
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{entry}/comm", encoding="utf-8") as comm:
                    name = comm.read().strip()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid and name == "podium" and fields[0] != "Z":
                children.add(int(entry))
        return children

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()[-4000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.log.close()


class AnalysisBoard(unittest.TestCase):
    """Each test opens the board afresh: a new page, a new session, its own engine."""

    @classmethod
    def setUpClass(cls):
        require_tools()
        cls.directory = temporary_directory("podium-board-")
        cls.pods_records = play_match(cls.directory, "pods.jsonl", [
            "--engine", "name=alpha", f"cmd={PODIUM}", "--engine", "name=beta", f"cmd={PODIUM}",
            "--games", "1", "--tc", "1+0.02", "--rotation", "270", "--random-plies", "2", "--seed", "3"])
        cls.server = BoardProcess(cls.directory, [cls.pods_records])
        try:
            cls.driver = start_browser(os.path.join(cls.directory, "profile"))
        except BaseException:
            cls.server.stop()
            raise
        cls.referee = Referee()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.referee.close()
        cls.server.stop()
        shutil.rmtree(cls.directory, ignore_errors=True)

    def setUp(self):
        self.driver.get(self.server.url)
        wait_for(lambda: self.fen() and self.driver.find_element("css selector", "#board svg.board"),
                 "the board to be drawn")

    # -- the page

    def find(self, selector: str):
        return self.driver.find_element("css selector", selector)

    def fen(self) -> str:
        return self.find("#fen").text

    def settled(self) -> bool:
        return self.driver.execute_script("return !document.body.dataset.busy")

    def wait_for_fen(self, fen: str, what: str) -> None:
        wait_for(lambda: self.settled() and self.fen() == fen, f"{what}: the page to show {fen!r} "
                 f"(it shows {self.fen()!r}; error {self.find('#error').text!r})")

    def choose(self, selector: str, value: str) -> None:
        from selenium.webdriver.support.select import Select
        Select(self.find(selector)).select_by_value(value)

    def press(self, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).send_keys(key).perform()

    def click_token(self, token: str) -> None:
        """A real click on what the token names: a point or cell, a pod of a hand, the tray's pawn,
        marker or pass."""
        element = wait_for(lambda: next((found for found in self.driver.find_elements(
            "css selector", f'[data-token="{token}"]') if found.is_displayed()), None), f"{token} on the page")
        element.click()

    def new_game(self, game: str, **settings) -> str:
        """Sets up a game with the page's own controls; returns its start, checked by the referee."""
        self.choose("#game", game)
        for name, value in settings.items():
            if name == "bricks":
                field = self.find("#bricks")
                field.clear()
                field.send_keys(str(value))
            else:
                self.choose(f"#{name}", str(value))
        self.find("#new-game").click()
        self.referee.select(game, **settings)
        start = self.referee.start()
        self.wait_for_fen(start, f"a new {game} game")
        return start

    def tokens(self, move: str) -> list[str]:
        """What a person clicks to play move, read from the move and the board shown: a placement
        is its pod in the hand, then the point; a move on the board its two points; a POLD.R turn
        picks the pawn or the marker where it stands (or in the tray before it is on the board),
        then its cell."""
        if move == "pass":
            return ["pass"]
        if "@" in move:
            black = self.fen().split()[1] == "b"
            return [f"pod:{move[0].lower() if black else move[0].upper()}", f"pt:{move[2:]}"]
        found = re.fullmatch(r"(?:P([a-i][1-9]))?(?:M([a-i][1-9]))?", move)
        if found is None or not any(found.groups()):
            return [f"pt:{move[:2]}", f"pt:{move[2:]}"]  # Pods, a pod moved on the board
        side = self.fen().split()[1].upper()
        tokens = []
        for piece, off_board, target in (("P", "pawn", found.group(1)), (side, "marker", found.group(2))):
            if target:
                if not tokens:  # the piece picked: where it stands, else the tray's
                    standing = self.driver.find_elements("css selector", f'#board [data-point][data-piece="{piece}"]')
                    tokens.append(f"pt:{standing[0].get_attribute('data-point')}" if standing else off_board)
                tokens.append(f"pt:{target}")
        return tokens

    def play(self, start: str, moves: list[str], move: str) -> str:
        """Plays move by clicks; the page must then show the referee's position line."""
        for token in self.tokens(move):
            self.click_token(token)
        fen, _ = self.referee.after(start, moves + [move])
        self.wait_for_fen(fen, f"after {' '.join(moves + [move])}")
        return fen

    def play_game(self, start: str, rng: random.Random, plies: int | None = None, prefer=None) -> list[str]:
        """Moves picked at random among the referee's legal moves (prefer: a test of those to pick
        from first), each played by clicks and checked, to the end of the game or for plies moves."""
        moves: list[str] = []
        while plies is None or len(moves) < plies:
            _, legal = self.referee.after(start, moves)
            if not legal:
                break
            preferred = [move for move in legal if prefer and prefer(move)]
            move = rng.choice(preferred or legal)
            self.play(start, moves, move)
            moves.append(move)
        self.assertEqual(self.find("#moves-text").text, " ".join(moves))
        return moves

    # -- whole games, by clicks

    def test_pods_standard_game_played_by_clicks_on_a_board_turned_90_degrees(self):
        start = self.new_game("standard", rotation=90)
        self.assertEqual(start.split()[3], "90")
        moves = self.play_game(start, random.Random(11))
        self.assertGreater(len(moves), 10)
        self.assertIn("Game over", self.find("#status").text)
        screenshot(self.driver, "board-pods-standard-end.png")

    def test_pods_advanced_pods_moved_on_the_board_then_taken_back(self):
        start = self.new_game("advanced", rotation=180)
        rng = random.Random(5)
        moves = self.play_game(start, rng, plies=8)
        # then moves of pods on the board, wherever there are some
        moves += self.play_game_from(start, moves, rng, plies=6, prefer=lambda move: "@" not in move)
        self.assertTrue(any("@" not in move for move in moves), f"no pod moved on the board: {moves}")
        # taken back: the left arrow key, then the back button; forward again with the right arrow
        self.press("\ue012")  # ArrowLeft
        self.wait_for_fen(self.referee.after(start, moves[:-1])[0], "a move taken back by the left arrow")
        self.find('.controls [data-step="back"]').click()
        self.wait_for_fen(self.referee.after(start, moves[:-2])[0], "a move taken back by the button")
        self.press("\ue014")  # ArrowRight
        self.wait_for_fen(self.referee.after(start, moves[:-1])[0], "a move replayed by the right arrow")
        # the position line copied, pasted back: the same position
        copied = self.fen()
        self.find("#copy-fen").click()
        wait_for(lambda: self.find("#copy-fen").text == "Copied", "the copy button to say it copied")
        field = self.find("#position-input")
        field.clear()
        field.click()
        from selenium.webdriver.common.keys import Keys
        field.send_keys(Keys.CONTROL, "v")
        self.assertEqual(field.get_attribute("value"), copied, "the clipboard holds the position line")
        # another move from here replaces the rest of the line
        _, legal = self.referee.after(start, moves[:-1])
        other = next(move for move in legal if move != moves[-1])
        self.play(start, moves[:-1], other)
        self.assertEqual(self.find("#moves-text").text, " ".join(moves[:-1] + [other]))

    def play_game_from(self, start: str, played: list[str], rng: random.Random, plies: int, prefer) -> list[str]:
        moves = list(played)
        for _ in range(plies):
            _, legal = self.referee.after(start, moves)
            if not legal:
                break
            preferred = [move for move in legal if prefer(move)]
            move = rng.choice(preferred or legal)
            self.play(start, moves, move)
            moves.append(move)
        return moves[len(played):]

    def test_poldr_three_player_game_played_by_clicks_with_passes(self):
        start = self.new_game("poldr", players=3, size=4, bricks=5)
        self.assertEqual(start, "4/4/4/4 b 5,5,5 1 0 -,-,-")
        self.assertEqual(len(self.driver.find_elements("css selector", "#board [data-point]")), 16)
        moves = self.play_game(start, random.Random(3))
        self.assertIn("pass", moves, "the game had no pass to click")
        self.assertIn("Game over", self.find("#status").text)
        screenshot(self.driver, "board-poldr-3-end.png")

    # -- the engine

    def test_engine_lines_appear_and_stop_with_the_space_key(self):
        start = self.new_game("standard", rotation=0)
        moves = self.play_game(start, random.Random(2), plies=4)
        self.choose("#multipv", "2")
        self.press(" ")
        rows = lambda: self.driver.find_elements("css selector", "#lines tbody tr")  # noqa: E731
        wait_for(lambda: len(rows()) == 2 and int(rows()[0].get_attribute("data-depth")) >= 3,
                 "two lines of depth 3 or more", timeout=30)
        self.assertEqual(self.driver.execute_script("return document.body.dataset.analysis"), "on")
        wait_for(lambda: self.driver.find_elements("css selector", "#board g.pv [data-n]"), "the best line drawn")
        # the table is drawn anew at each line the engine prints: read it again if it went stale meanwhile
        best = wait_for(lambda: rows()[0].find_elements("css selector", "td")[5].text.split(), "the best line's moves")
        _, legal = self.referee.after(start, moves)
        self.assertIn(best[0], legal)
        screenshot(self.driver, "board-pods-lines.png")
        self.press(" ")
        wait_for(lambda: self.driver.execute_script("return document.body.dataset.analysis") == "off",
                 "the engine to stop")
        shown = self.find("#lines").get_attribute("innerHTML")
        time.sleep(1.5)
        self.assertEqual(self.find("#lines").get_attribute("innerHTML"), shown, "lines came after the stop")
        self.assertIn("off", self.find("#engine-status").text)

    def test_the_engine_follows_the_moves_clicked(self):
        """Started, the engine goes on with the position after each move, and stops with the game."""
        start = self.new_game("poldr", players=2, size=5, bricks=16)
        self.press(" ")
        rows = lambda: self.driver.find_elements("css selector", "#lines tbody tr")  # noqa: E731
        wait_for(lambda: rows(), "a line for the start")
        self.play(start, [], "Pc3Me5")
        wait_for(lambda: rows() and rows()[0].find_elements("css selector", "td")[5].text.split()[0] in
                 self.referee.after(start, ["Pc3Me5"])[1], "a line for the position after the move", timeout=30)
        screenshot(self.driver, "board-poldr-lines.png")
        self.press(" ")
        wait_for(lambda: self.driver.execute_script("return document.body.dataset.analysis") == "off",
                 "the engine to stop")

    def test_closing_the_page_stops_its_search_and_its_engine(self):
        self.press(" ")
        wait_for(lambda: self.driver.find_elements("css selector", "#lines tbody tr"), "a line")
        engines = wait_for(self.server.engines, "the page's engine")
        self.driver.get("about:blank")
        wait_for(lambda: not (engines & self.server.engines()), "the page's engine to be closed", timeout=15)

    # -- positions pasted

    def test_a_bad_position_pasted_is_an_error_on_the_page(self):
        before = self.fen()
        for pasted, said in (("6/6/6/6/6/6 x ABCDEFGHIJKLMNabcdefghijklmn 0 0", "side"),
                             ("rm -rf /", "5 fields"),
                             ("6/6/6/6/6/6 w ABCDEFGHIJKLMN;reboot 0 0", "letters, digits"),
                             ("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0 moves C@c3", "C@c3"),
                             ("6/6/6/6/6/6 w $(reboot) 0 0", "letters, digits")):
            field = self.find("#position-input")
            field.clear()
            field.send_keys(pasted)
            self.find("#set-position").click()
            wait_for(lambda: self.find("#error").is_displayed() and said in self.find("#error").text,
                     f"the page to refuse {pasted!r} saying {said!r} (it says {self.find('#error').text!r})")
            self.assertEqual(self.fen(), before, "a refused position changed the board")
        # the server is still there: a good POLD.R line with moves is taken
        field = self.find("#position-input")
        field.clear()
        field.send_keys("5/5/5/5/5 b 16,16 1 0 -,- moves Pc3Me5")
        self.find("#set-position").click()
        self.referee.select("poldr")
        self.wait_for_fen(self.referee.after("5/5/5/5/5 b 16,16 1 0 -,-", ["Pc3Me5"])[0], "a pasted POLD.R line")
        self.assertFalse(self.find("#error").is_displayed())
        self.assertEqual(len(self.driver.find_elements("css selector", "#board [data-point]")), 25)

    # -- a records file

    def test_a_game_of_the_records_steps_with_its_engine_data(self):
        import json
        with open(self.pods_records, encoding="utf-8") as handle:
            record = [json.loads(line) for line in handle][1]
        start, moves = record["opening_base"], record["opening_moves"] + record["moves"]
        self.choose("#record-game", "0:1")
        self.find("#load-record").click()
        self.referee.select(record["variant"])
        self.wait_for_fen(self.referee.after(start, moves)[0], "the game's end")
        infos = [element.text for element in self.driver.find_elements("css selector", "#moves .minfo")]
        self.assertEqual(len(infos), len(record["moves"]), "one line of engine data per engine move")
        self.assertRegex(infos[0], r"^[+\u2212#\-\d]+ d\d+ \d")
        self.assertTrue(self.find("#clocks").is_displayed(), "a clocked game shows its clocks")
        self.assertEqual(len(self.driver.find_elements("css selector", "#eval-graph polyline.eval-line")), 1)
        self.press("\ue011")  # Home
        self.wait_for_fen(self.referee.after(start, [])[0], "the game's start")
        self.find('#eval-graph .ply-band[data-ply="5"]').click()
        self.wait_for_fen(self.referee.after(start, moves[:5])[0], "ply 5, clicked on the graph")
        self.assertEqual(self.driver.execute_script("return document.body.dataset.ply"), "5")
        screenshot(self.driver, "board-pods-record.png")


if __name__ == "__main__":
    unittest.main()
