#!/usr/bin/env python3
"""The Monte Carlo yardstick: a POLD.R engine of the Podium protocol that knows only the rules and
plays by plain MCTS (UCT, c = 2, one random playout per leaf, a solver for proved nodes, a fresh tree
every move), N simulations a move whatever the clock says. See docs/poldr-yardstick.md.

    mcts_player.py [--simulations N] [--seed N]     an engine, on stdin and stdout
    mcts_player.py --speed [--simulations N]       simulations per second on 5x5/16 and 9x9/40

As an arbiter engine:

    python3 scripts/arbiter.py --game poldr --movetime 100 --timemargin 600000 \\
        --engine name=podium cmd=target/release/podium \\
        --engine name=mcts10k "cmd=python3 scripts/mcts_player.py --simulations 10000"

It answers ugi/uci (options Game, Players, Size, Bricks, Simulations, Seed), isready, setoption,
newgame [poldr] [players N] [size N] [bricks N], uginewgame, ucinewgame, position startpos|fen ...
[moves ...], go (any limits: time is ignored; `go nodes N` runs N simulations for that move),
stop and ponderhit (nothing to do: the search has already answered), quit, and for scripts
`query gameover|p1turn|turn|result|fen|islegal <move>`, `moves` and `d`. Its rules are its own
(scripts/podium/poldr_rules.py): no Podium runs behind it.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the checkout's podium package first
from podium.mcts import search  # noqa: E402
from podium.poldr_rules import Rules, parse_fen, play_names  # noqa: E402

NAME = "MCTS yardstick"
DEFAULT_SIMULATIONS = 1000
SPINS = {  # option: (default, min, max)
    "players": (2, 2, 3), "size": (5, 4, 9), "bricks": (16, 1, 40),
    "simulations": (DEFAULT_SIMULATIONS, 1, 100_000_000), "seed": (0, 0, 2**31 - 1),
}
OPTION_NAMES = {"game": "Game", "players": "Players", "size": "Size", "bricks": "Bricks",
                "simulations": "Simulations", "seed": "Seed"}


def reply(*lines: str) -> None:
    print("\n".join(lines), flush=True)


class Player:
    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, seed: int = 0):
        self.settings = {"players": 2, "size": 5, "bricks": 16, "simulations": simulations, "seed": seed}
        self.rng = random.Random()
        self.reseed()
        self.new_game()

    def reseed(self) -> None:
        """Seed 0: a seed drawn from the system's entropy; any other: reproducible."""
        self.rng.seed(self.settings["seed"] or None)

    def new_game(self) -> None:
        self.rules = Rules(self.settings["size"], self.settings["players"])
        self.start = self.state = self.rules.start(self.settings["bricks"])
        self.forfeit: int = -1  # the winner after an illegal move in `position`, else -1

    def option_lines(self) -> list[str]:
        lines = ["option name Game type combo default poldr var poldr"]
        for key, (default, low, high) in SPINS.items():
            default = self.settings[key] if key in ("simulations", "seed") else default
            lines.append(f"option name {OPTION_NAMES[key]} type spin default {default} min {low} max {high}")
        return lines

    # -- commands ---------------------------------------------------------------------------
    def setoption(self, words: list[str]) -> None:
        if len(words) < 2 or words[1] != "name":
            return reply("info string error: setoption: expected 'setoption name <name> value <value>'")
        rest = words[2:]
        name = " ".join(rest[:rest.index("value")] if "value" in rest else rest).lower()
        value = " ".join(rest[rest.index("value") + 1:]) if "value" in rest else ""
        if name == "game":
            if value.lower() != "poldr":
                return reply(f"info string error: Game: this engine plays poldr only, not '{value}'")
            return self.new_game()
        if name not in SPINS:
            return reply(f"info string error: unknown option '{name}' ignored "
                         f"(options: {', '.join(OPTION_NAMES.values())})")
        _, low, high = SPINS[name]
        if not value.isdigit() or not low <= int(value) <= high:
            return reply(f"info string error: {OPTION_NAMES[name]}: '{value}' is not a whole number "
                         f"from {low} to {high}")
        self.settings[name] = int(value)
        if name == "seed":
            self.reseed()
        elif name != "simulations":
            self.new_game()

    def newgame(self, words: list[str]) -> None:
        index = 1
        while index < len(words):
            word = words[index]
            if word == "poldr":
                index += 1
            elif word in ("players", "size", "bricks") and index + 1 < len(words) and words[index + 1].isdigit():
                _, low, high = SPINS[word]
                if low <= int(words[index + 1]) <= high:
                    self.settings[word] = int(words[index + 1])
                else:
                    reply(f"info string error: newgame: {word} must be from {low} to {high}")
                index += 2
            else:
                reply(f"info string warning: newgame: unexpected '{word}' (ignored)")
                index += 1
        self.new_game()

    def position(self, words: list[str]) -> None:
        moves_at = words.index("moves") if "moves" in words else len(words)
        head, moves = words[1:moves_at], words[moves_at + 1:]
        if head[:1] == ["startpos"]:
            rules, start = Rules(self.settings["size"], self.settings["players"]), None
            start = rules.start(self.settings["bricks"])
        elif head[:1] == ["fen"]:
            try:
                rules, start = parse_fen(" ".join(head[1:]))
            except ValueError as error:
                return reply(f"info string error: invalid position: {error}")
        else:
            return reply("info string error: position: expected startpos or fen <position line>")
        self.rules, self.start, self.state, self.forfeit = rules, start, start, -1
        for index, name in enumerate(moves):
            try:
                self.state = play_names(rules, self.state, [name])
            except ValueError as error:
                reply(f"info string error: illegal move {name} at index {index}: {error}")
                # The side that tried it loses: the best standing other seat by the rules' ranking wins.
                mover = self.state[5] % rules.players
                reserves, changed = self.state[3], self.state[6]
                others = [s for s in range(rules.players) if s != mover]
                self.forfeit = max(others, key=lambda s: (reserves[s], -changed[s], -s))
                return

    def winner(self) -> int:
        return self.forfeit if self.forfeit >= 0 else self.rules.winner(self.state)

    def go(self, words: list[str]) -> None:
        simulations = self.settings["simulations"]
        if "nodes" in words:
            index = words.index("nodes")
            if index + 1 < len(words) and words[index + 1].isdigit() and int(words[index + 1]) > 0:
                simulations = int(words[index + 1])
        if self.winner() >= 0:
            return reply(f"info string game over: p{self.winner() + 1} wins", "bestmove (none)")
        started = time.monotonic()
        result = search(self.rules, self.state, simulations, self.rng)
        elapsed = time.monotonic() - started
        ms = int(elapsed * 1000)
        nps = int(result.simulations / elapsed) if elapsed > 0 else 0
        move = self.rules.move_name(result.move)
        cp = round(result.value * 100)
        reply(f"info depth {result.max_depth} score cp {cp} nodes {result.simulations} nps {nps} time {ms} pv {move}")
        if result.proved >= 0:
            reply(f"info string proved: p{result.proved + 1} wins")
        reply(f"bestmove {move}")

    def query(self, words: list[str]) -> None:
        what = words[1] if len(words) > 1 else ""
        winner = self.winner()
        if what == "gameover":
            reply(f"response {'true' if winner >= 0 else 'false'}")
        elif what == "p1turn":
            reply(f"response {'true' if self.state[5] % self.rules.players == 0 else 'false'}")
        elif what == "turn":
            reply(f"response p{self.state[5] % self.rules.players + 1}")
        elif what == "result":
            reply(f"response {'none' if winner < 0 else f'p{winner + 1}win'}")
        elif what == "fen":
            reply(f"response {self.rules.fen(self.state)}")
        elif what == "islegal" and len(words) > 2:
            try:
                legal = winner < 0 and self.rules.parse_move(words[2]) in self.rules.legal_moves(self.state)
            except ValueError:
                legal = False
            reply(f"response {'true' if legal else 'false'}")
        else:
            reply(f"info string error: query: unknown '{what}' (gameover, p1turn, turn, result, fen, islegal)")

    def moves(self) -> None:
        names = [self.rules.move_name(move) for move in self.rules.legal_moves(self.state)] if self.forfeit < 0 else []
        reply(" ".join(names) if names else "(none)")

    def serve(self, lines) -> None:
        for line in lines:
            words = line.split()
            if not words:
                continue
            command = words[0]
            if command in ("ugi", "uci"):
                seed = f" (seed {self.settings['seed']})" if self.settings["seed"] else ""
                reply(f"id name {NAME} {self.settings['simulations']}{seed}", "id author the Podium developers",
                      *self.option_lines(), f"{command}ok")
            elif command == "isready":
                reply("readyok")
            elif command == "setoption":
                self.setoption(words)
            elif command == "newgame":
                self.newgame(words)
            elif command in ("uginewgame", "ucinewgame"):
                self.new_game()
            elif command == "position":
                self.position(words)
            elif command == "go":
                self.go(words)
            elif command == "query":
                self.query(words)
            elif command == "moves":
                self.moves()
            elif command == "d":
                reply(f"fen {self.rules.fen(self.state)}")
            elif command in ("stop", "ponderhit", "debug"):
                pass
            elif command == "quit":
                return
            else:
                reply(f"info string error: unknown command '{command}'")


def speed(simulations: int, seed: int) -> None:
    """Simulations per second on 5x5/16 and 9x9/40, two players: from the start, and from positions
    of random games at plies 2, 8 and 16 (the same positions every run)."""
    print(f"simulations a move: {simulations}; Python {sys.version.split()[0]}")
    for size, bricks in ((5, 16), (9, 40)):
        rules = Rules(size, 2)
        rng = random.Random(seed)
        total_sims = total_time = 0.0
        for plies in (0, 2, 8, 16):
            state = rules.start(bricks)
            walk = random.Random(plies)
            for _ in range(plies):
                state = rules.play(state, walk.choice(rules.legal_moves(state)))
            started = time.perf_counter()
            result = search(rules, state, simulations, rng)
            elapsed = time.perf_counter() - started
            total_sims += result.simulations
            total_time += elapsed
            print(f"{size}x{size}/{bricks} ply {plies:2}: {result.simulations} simulations in {elapsed:.2f} s, "
                  f"{result.simulations / elapsed:.0f} a second", flush=True)
        print(f"{size}x{size}/{bricks}: {total_sims / total_time:.0f} simulations a second over these positions",
              flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="mcts_player.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS,
                        help=f"simulations a move (default {DEFAULT_SIMULATIONS}; the option Simulations)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random choices (default 0: random)")
    parser.add_argument("--speed", action="store_true", help="report simulations per second and exit")
    args = parser.parse_args(argv)
    if args.simulations < 1:
        parser.error("--simulations must be at least 1")
    if args.speed:
        speed(args.simulations, args.seed or 1)
        return 0
    Player(args.simulations, args.seed).serve(sys.stdin)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
