"""Pictures of games: self-contained HTML pages with the board drawn as SVG, a move list that steps
through the game, and for a match its summary and a plot of the running score. Pure functions from
replays (replay.py) and summaries (summary.py) to strings; no processes, no files.

A page needs nothing from outside (inline CSS, SVG and script, no address of any kind), so it opens
offline. Every position of every game is in the page as data; the script only shows one: it sets
each point's `data-piece` and the piece drawn there, the hands or reserves, the move list. The
boards themselves are drawn by boards.py.

The page's handles, for people and for tests:
  - `#ply=K` (a game page) or `#game=N&ply=K` (a match page, N the game's number) shows game N
    after its first K moves; without K, the game's end. The viewer (`#viewer`) echoes both in
    `data-game` and `data-ply`.
  - every point or cell of the board shown is an element with `data-point="c3"` and
    `data-piece` ("" when empty; a pod letter, or P, B, Y, R, b, y, r).
  - keys: left and right arrows step, Home and End go to the start and the end, up and down
    change the game (a match page); clicking a move shows the position after it.
"""

from __future__ import annotations

import html
import json
import re

from .boards import (HAND_STATE_CODES, board_data, board_points, board_svg, hand_slots, hand_state, svg_number,
                     symbol_definitions, symbol_ids)
from .notation import seat_to_move
from .replay import PoldrBoard, PodsBoard, Replay
from .stats import count_of, elo_basis, format_elo
from .summary import DEFAULT_SPRT, MatchSummary

OPENING_NOTE = '<span class="opening">Grey moves</span> are the opening, not chosen by the engines.'
PLOT_COLOURS = ("#7b3fb5", "#1b9e77", "#d95f02")  # engines: not the POLD.R seats' colours
POINT_IN_MOVE_RE = re.compile(r"[a-i][1-9]")


# -- pages


def game_page(replay: Replay, title: str | None = None) -> str:
    """The page of one game, or of a position and moves from it."""
    return _page(title or _game_title(replay), [replay])


def match_page(replays: list[Replay], summary: MatchSummary, title: str | None = None) -> str:
    """The page of a match: its summary and running score, the viewer, the list of games."""
    title = title or f"{' vs '.join(summary.engines)}: {summary.rules.describe()}, {count_of(summary.games, 'game')}"
    return _page(title, replays, summary)


def _page(title: str, replays: list[Replay], summary: MatchSummary | None = None) -> str:
    boards = _distinct_boards(replays)
    sections = [_replays_viewer(replays, boards)]
    if summary is not None:
        overview = f'<div class="overview">{summary_section(summary)}{score_plot_section(summary)}</div>'
        sections = [overview, *sections, _game_list(replays)]
    data = {"games": [_game_data(replay, boards) for replay in replays],
            "boards": {board_id: board_data(board) for board, board_id in boards.items()},
            "symbols": symbol_ids(boards),
            "handStates": {code: state for state, code in HAND_STATE_CODES.items()}}
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_text(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{_text(title)}</h1>",
        symbol_definitions(boards),
        *sections,
        f'<script type="application/json" id="podium-data">{_script_json(data)}</script>',
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
        "",
    ])


def _replays_viewer(replays: list[Replay], boards: dict[PodsBoard | PoldrBoard, str]) -> str:
    """The boards (one per kind of board in the page, the first game's at its end drawn already),
    the game's caption, the controls and the move list."""
    first = replays[0]
    frames = []
    for board, board_id in boards.items():
        shown = board == first.board
        position = first.positions[-1] if shown else None
        frames.append(f'<div class="board-frame" data-board="{board_id}"{"" if shown else " hidden"}>'
                      f"{board_svg(board, board_id, position)}</div>")
    return f"""<section id="viewer" data-game="{first.number or ''}" data-ply="{len(first.moves)}">
<div class="boards">{"".join(frames)}</div>
<div class="side">
<h2 id="game-title">{_text(_game_title(first))}</h2>
<p id="outcome">{_text(_outcome(first))}</p>
<p id="status"></p>
<p class="fen">Position: <code id="fen">{_text(first.positions[-1].fen)}</code></p>
<div class="controls">
<button type="button" data-step="first" title="start (Home)">&#xAB;</button>
<button type="button" data-step="back" title="back (left arrow)">&#x2039;</button>
<button type="button" data-step="forward" title="forward (right arrow)">&#x203A;</button>
<button type="button" data-step="last" title="end (End)">&#xBB;</button>
</div>
<p class="keys">Keys: &#x2190; &#x2192; step, Home and End{", &#x2191; &#x2193; game" if len(replays) > 1 else ""}.
{OPENING_NOTE if any(replay.opening_plies for replay in replays) else ""}</p>
<div id="moves" role="list"></div>
</div>
</section>"""


def _distinct_boards(replays: list[Replay]) -> dict[PodsBoard | PoldrBoard, str]:
    """Each kind of board of the page (a Pods board per rotation, a POLD.R grid per size and number
    of players) -> its element id, so that games share the drawing of their board."""
    boards: dict[PodsBoard | PoldrBoard, str] = {}
    for replay in replays:
        boards.setdefault(replay.board, f"board-{len(boards)}")
    return boards


def _game_data(replay: Replay, boards: dict[PodsBoard | PoldrBoard, str]) -> dict:
    """What the script needs to show a game: per ply the pieces on the points (in the board's
    order, `.` for none), the hands or reserves, the seat to move, the points the last move named."""
    points = board_points(replay.board)
    plies: list[dict] = []
    for ply, position in enumerate(replay.positions):
        entry = {"fen": position.fen, "pieces": "".join(position.pieces.get(point, ".") for point in points),
                 "turn": position.turn, "over": position.over,
                 "toMove": None if position.over else int(seat_to_move(position.fen)[1:]) - 1,
                 "last": POINT_IN_MOVE_RE.findall(replay.moves[ply - 1]) if ply else []}
        if isinstance(replay.board, PodsBoard):
            entry["handStates"] = "".join(HAND_STATE_CODES[hand_state(pod, position)]
                                          for pod in hand_slots(replay.board))
        else:
            entry["reserves"] = position.reserves
        plies.append(entry)
    return {"number": replay.number, "game": replay.game, "board": boards[replay.board],
            "title": _game_title(replay), "outcome": _outcome(replay), "colours": list(replay.colours),
            "openingPlies": replay.opening_plies, "moves": replay.moves, "notes": replay.notes, "plies": plies}


def _game_title(replay: Replay) -> str:
    if replay.number is not None:
        return f"Game {replay.number}: {' vs '.join(replay.seats)}"
    return "Position" + (f" and {count_of(len(replay.moves), 'move')}" if replay.moves else "")


def _outcome(replay: Replay) -> str:
    """Who sat where and how the game ended, as its record says."""
    seating = ", ".join(f"{colour} {name}" for colour, name in zip(replay.colours, replay.seats) if colour != name)
    if replay.result is None:
        return seating
    if replay.game == "poldr":
        seat = _winning_seat(replay)
        result = f"{replay.colours[seat]} ({replay.seats[seat]}) wins"
    else:
        result = replay.result
    ending = "; ".join(part for part in (replay.reason, replay.detail) if part)
    return f"{seating}. Result: {result}" + (f" ({ending})" if ending else "")


def _winning_seat(replay: Replay) -> int:
    """POLD.R: the seat the record's result names, from 0 (p2win -> 1)."""
    return int(replay.result[1:-len("win")]) - 1


# -- a match


def summary_section(summary: MatchSummary) -> str:
    """Two players: W-L-D, Elo with its interval, LOS, pentanomial, SPRT. Every match: each
    engine's wins and win share, POLD.R each seat's too; faults."""
    rows = [("Game", summary.rules.describe()), ("Games", str(summary.games))]
    if (duel := summary.head_to_head) is not None:
        first, second = summary.engines
        sprt = duel.sprt
        test = (f"elo0 {sprt.test.elo0:g}, elo1 {sprt.test.elo1:g}, alpha {sprt.test.alpha:g}, "
                f"beta {sprt.test.beta:g}" + (" (the arbiter's defaults)" if sprt.test == DEFAULT_SPRT else ""))
        rows += [
            (f"W-L-D of {first} against {second}", f"{duel.wins}-{duel.losses}-{duel.draws}, score "
             f"{100 * duel.score:.1f}%"),
            ("Elo", f"{format_elo(duel.elo)} ({elo_basis(duel.elo)})"),
            ("LOS", f"{100 * duel.los:.1f}%"),
            ("Pentanomial [LL, LD, WL+DD, WD, WW]",
             f"{duel.pentanomial} over {count_of(sum(duel.pentanomial), 'pair')}"),
            ("SPRT", f"LLR {sprt.llr:.2f} in ({sprt.lower:.2f}, {sprt.upper:.2f}): {sprt.verdict}; {test}"),
        ]
    figures = "".join(f"<tr><th>{_text(name)}</th><td>{_text(value)}</td></tr>" for name, value in rows)
    tables = [f'<table class="figures">{figures}</table>', _share_table("Engine", summary.engine_wins)]
    if summary.seat_wins:
        tables.append(_share_table("Seat", summary.seat_wins))
    if summary.faults:
        faults = "".join(f"<li>{_text(engine)} lost {count} by {_text(reason)}</li>"
                         for engine, reason, count in summary.faults)
        tables.append(f'<ul class="faults">{faults}</ul>')
    return (f'<section id="summary" data-players="{len(summary.engines)}"><h2>Summary</h2>'
            f'{"".join(tables)}</section>')


def _share_table(kind: str, shares: list) -> str:
    rows = "".join(f'<tr><td>{_text(share.label)}</td><td>{share.wins}</td><td>{share.games}</td>'
                   f"<td>{100 * share.share:.1f}%</td><td>{100 * share.low:.1f}% to {100 * share.high:.1f}%</td></tr>"
                   for share in shares)
    return (f'<table class="shares" data-kind="{kind.lower()}"><thead><tr><th>{kind}</th><th>wins</th><th>games</th>'
            f"<th>win share</th><th>95% interval</th></tr></thead><tbody>{rows}</tbody></table>")


def score_plot_section(summary: MatchSummary) -> str:
    """Each engine's share of the points after every game, against the share of an equal match."""
    width, height, left, right, top, bottom = 640, 260, 48, 16, 12, 36
    plot_width, plot_height = width - left - right, height - top - bottom
    games = summary.games

    def x(game: int) -> str:
        return svg_number(left + (game - 1) / max(games - 1, 1) * plot_width)

    def y(share: float) -> str:
        return svg_number(top + (1 - share) * plot_height)

    def across(share: float, kind: str) -> str:
        return f'<line class="{kind}" x1="{left}" x2="{width - right}" y1="{y(share)}" y2="{y(share)}"/>'

    parts = []
    for share in (0, 0.25, 0.5, 0.75, 1):
        parts.append(across(share, "grid") + f'<text class="axis" x="{left - 6}" y="{y(share)}" dy="4" '
                     f'text-anchor="end">{share:.0%}</text>')
    parts.append(across(1 / len(summary.engines), "even"))
    for game in sorted({1, (games + 1) // 2, games}):
        parts.append(f'<text class="axis" x="{x(game)}" y="{height - bottom + 16}" text-anchor="middle">{game}</text>')
    parts.append(f'<text class="axis" x="{left + plot_width / 2}" y="{height - 4}" text-anchor="middle">games</text>')
    legend = []
    for (name, shares), colour in zip(summary.running_score.items(), PLOT_COLOURS):
        points = " ".join(f"{x(game)},{y(share)}" for game, share in enumerate(shares, 1))
        parts.append(f'<polyline class="score" data-engine="{_text(name)}" stroke="{colour}" points="{points}"/>'
                     f'<circle cx="{x(games)}" cy="{y(shares[-1])}" r="3.5" fill="{colour}"/>')
        legend.append(f'<li><span class="swatch" style="background:{colour}"></span>{_text(name)} '
                      f"{100 * shares[-1]:.1f}%</li>")
    return (f'<section id="running-score"><h2>Running score</h2>'
            f'<svg id="score-plot" data-games="{games}" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-label="share of the points after each game">{"".join(parts)}</svg>'
            f'<ul class="legend">{"".join(legend)}</ul><p class="note">Each engine&#x2019;s share of the points '
            f"so far; the dashed line is an even share.</p></section>")


def _game_list(replays: list[Replay]) -> str:
    colours = max((replay.colours for replay in replays), key=len)
    head = "".join(f"<th>{colour}</th>" for colour in colours)
    rows = []
    for replay in replays:
        seats = "".join(f"<td>{_text(name)}</td>" for name in replay.seats)
        result = replay.result or ""
        if replay.game == "poldr" and result:
            result = replay.colours[_winning_seat(replay)]
        rows.append(f'<tr data-game="{replay.number}"><td><a href="#game={replay.number}">{replay.number}</a></td>'
                    f"{seats}<td>{_text(result)}</td><td>{_text(replay.reason)}</td><td>{len(replay.moves)}</td></tr>")
    return (f'<section id="games"><h2>Games</h2><div class="game-list"><table><thead><tr><th>game</th>{head}'
            f'<th>{"winner" if replays[0].game == "poldr" else "result"}</th><th>reason</th><th>plies</th></tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table></div></section>')


# -- text


def _text(value: object) -> str:
    return html.escape(str(value), quote=True)


def _script_json(data: dict) -> str:
    """JSON that cannot end its <script> element early: <, > and & are written as escapes."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e") \
        .replace("&", "\\u0026")


# -- the page's style and script

STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 16px 24px; color: #222; background: #fcfbf8; }
h1 { font-size: 20px; margin: 0 0 12px; }
h2 { font-size: 16px; margin: 0 0 8px; }
section { margin-bottom: 20px; }
.overview { display: flex; flex-wrap: wrap; gap: 8px 32px; align-items: flex-start; }
table { border-collapse: collapse; margin-bottom: 8px; }
th, td { text-align: left; padding: 2px 10px 2px 0; vertical-align: top; }
.figures th { font-weight: 600; }
.shares th, .game-list th { border-bottom: 1px solid #bbb; }
.legend { list-style: none; padding: 0; margin: 4px 0; display: flex; gap: 18px; }
.swatch { display: inline-block; width: 12px; height: 12px; margin-right: 6px; border-radius: 2px; }
.note, .keys { color: #666; font-size: 13px; }
#score-plot .grid { stroke: #ddd; }
#score-plot .even { stroke: #888; stroke-dasharray: 5 4; }
#score-plot .score { fill: none; stroke-width: 2; }
#score-plot .axis { font-size: 12px; fill: #555; }
#viewer { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.side { min-width: 300px; max-width: 460px; }
.fen code { font-size: 13px; overflow-wrap: anywhere; }
.controls button { font-size: 16px; min-width: 40px; }
#moves { position: relative; display: grid; gap: 2px 18px; max-height: 420px; overflow-y: auto; align-items: baseline; }
#moves .number, #moves .head { color: #777; font-size: 13px; }
#moves a { color: #224; text-decoration: none; padding: 1px 4px; border-radius: 3px; }
#moves a { font-family: ui-monospace, monospace; }
#moves a:hover { background: #e8e4da; }
#moves a.current { background: #f0b43c; color: #000; }
#moves .start { grid-column: 1 / -1; }
.opening, #moves a.opening { color: #999; font-style: italic; }
.game-list { max-height: 360px; overflow-y: auto; display: inline-block; }
.game-list tr.current { background: #f6e2b3; }
svg.definitions { position: absolute; }
.board { display: block; max-width: 100%; height: auto; }
.board .lines { stroke: #8d8068; stroke-width: 2.5; stroke-linecap: round; fill: none; }
.board .label { font-size: 13px; fill: #777; text-anchor: middle; }
.board .spot { fill: #8d8068; }
.board .mark { fill: none; stroke: #f0a020; stroke-width: 3; display: none; }
.board [data-last] .mark { display: inline; }
.board .band { fill: #f1ede3; }
.board .band[data-to-move] { fill: #fbe2a8; }
.board .band-label, .board .reserve-label { font-size: 13px; fill: #555; }
.board .reserve { font-weight: 700; fill: #222; }
.hand-slot[data-state="board"], .hand-slot[data-state="out"] { opacity: 0.22; }
.hand-slot .out-mark { stroke: #c22; stroke-width: 3; display: none; }
.hand-slot[data-state="out"] .out-mark { display: inline; }
.pod .leg { stroke-linecap: round; }
.pod .leg.short { stroke-width: 3; }
.pod .leg.long { stroke-width: 4; }
.pod.white .leg, .pod.white .knob, .pod.white .arrow { stroke: #333; fill: #333; }
.pod.white .body { fill: #fffdf5; stroke: #333; stroke-width: 2; }
.pod.white .letter { fill: #222; }
.pod.black .leg, .pod.black .knob, .pod.black .arrow { stroke: #111; fill: #111; }
.pod.black .body { fill: #2b2b2b; stroke: #000; stroke-width: 2; }
.pod.black .letter { fill: #fff; }
.pod .letter, .marker .letter { font-size: 14px; font-weight: 700; text-anchor: middle; }
.cell .square { fill: #f3efe4; stroke: #b9ad93; }
.pawn { fill: #1d1d1d; }
.marker circle { stroke: #222; stroke-width: 2; }
.marker .letter { fill: #fff; font-size: 16px; paint-order: stroke; stroke: #0006; stroke-width: 2px; }
.brick path { stroke: #0005; stroke-width: 1.5; fill: none; }
.brick rect { stroke: #0008; stroke-width: 1.5; }
"""

SCRIPT = """
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("podium-data").textContent);
  const viewer = document.getElementById("viewer");
  const movesList = document.getElementById("moves");
  const gameIndex = new Map(data.games.map((game, index) => [String(game.number), index]));
  const state = {game: 0, ply: 0, listed: -1};

  function lastPly(game) { return data.games[game].plies.length - 1; }

  // #game=N&ply=K; either may be left out (the game shown, its end).
  function fromHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    let game = state.game;
    if (params.has("game") && gameIndex.has(params.get("game"))) game = gameIndex.get(params.get("game"));
    let ply = parseInt(params.get("ply"), 10);
    if (isNaN(ply)) ply = lastPly(game);
    return {game: game, ply: Math.max(0, Math.min(lastPly(game), ply))};
  }

  function hashFor(game, ply) {
    return "#" + (data.games.length > 1 ? "game=" + data.games[game].number + "&" : "") + "ply=" + ply;
  }

  function showBoard(game, position) {
    const board = data.boards[game.board];
    const symbols = data.symbols[game.game];
    for (const frame of document.querySelectorAll(".board-frame")) frame.hidden = frame.dataset.board !== game.board;
    const svg = document.getElementById(game.board);
    board.points.forEach(function (point, index) {
      const element = svg.querySelector('[data-point="' + point + '"]');
      const piece = position.pieces[index] === "." ? "" : position.pieces[index];
      const use = element.querySelector("use.piece");
      element.dataset.piece = piece;
      if (piece) use.setAttribute("href", "#" + symbols[piece]); else use.removeAttribute("href");
      if (position.last.includes(point)) element.dataset.last = "true"; else delete element.dataset.last;
    });
    for (const band of svg.querySelectorAll(".band")) {
      if (Number(band.dataset.seat) === position.toMove) band.dataset.toMove = "true"; else delete band.dataset.toMove;
    }
    if (position.handStates) {
      board.handSlots.split("").forEach(function (pod, index) {
        const slot = svg.querySelector('.hand-slot[data-pod="' + pod + '"]');
        slot.dataset.state = data.handStates[position.handStates[index]];
      });
    }
    if (position.reserves) {
      for (const reserve of svg.querySelectorAll("[data-reserve-seat]")) {
        reserve.textContent = position.reserves[Number(reserve.dataset.reserveSeat)];
      }
    }
  }

  // One row per round of turns: its number, then one move per seat.
  function listMoves(index) {
    const game = data.games[index];
    const seats = game.colours.length;
    movesList.replaceChildren();
    movesList.style.gridTemplateColumns = "2.5em repeat(" + seats + ", max-content)";
    const cell = function (tag, className, text) {
      const element = document.createElement(tag);
      element.className = className;
      element.textContent = text;
      movesList.appendChild(element);
      return element;
    };
    cell("span", "head", "");
    game.colours.forEach(function (colour) { cell("span", "head", colour); });
    const link = function (ply, text, className) {
      const element = cell("a", "move " + className, text);
      element.href = hashFor(index, ply);
      element.dataset.ply = ply;
      element.setAttribute("role", "listitem");
      return element;
    };
    link(0, "start", "start");
    const skipped = game.plies[0].toMove || 0;  // a start with another seat to move than the first
    game.moves.forEach(function (move, moveIndex) {
      const column = (skipped + moveIndex) % seats;
      if (column === 0 || moveIndex === 0) {
        cell("span", "number", String(Math.floor((skipped + moveIndex) / seats) + 1) + ".");
        for (let blank = 0; moveIndex === 0 && blank < column; blank++) cell("span", "blank", "");
      }
      const played = link(moveIndex + 1, move, moveIndex < game.openingPlies ? "opening" : "played");
      if (game.notes[moveIndex]) played.title = game.notes[moveIndex];  // the engine's score, depth, nodes, time
    });
    state.listed = index;
  }

  // Only the list scrolls, never the page: the move shown stays in sight.
  function scrollIntoList(element) {
    if (!element) return;
    const top = element.offsetTop, bottom = top + element.offsetHeight;
    const height = movesList.clientHeight;
    if (top < movesList.scrollTop) movesList.scrollTop = top;
    else if (bottom > movesList.scrollTop + height) movesList.scrollTop = bottom - height;
  }

  function show(index, ply) {
    const game = data.games[index];
    const position = game.plies[ply];
    const newGame = index !== state.listed;
    state.game = index;
    state.ply = ply;
    viewer.dataset.game = game.number === null ? "" : game.number;
    viewer.dataset.ply = ply;
    if (newGame) listMoves(index);
    showBoard(game, position);
    document.getElementById("game-title").textContent = game.title;
    document.getElementById("outcome").textContent = game.outcome;
    document.getElementById("status").textContent = "Ply " + ply + " of " + lastPly(index) + ". " +
        (position.over ? "Game over: " + position.over : "To move: " + position.turn);
    document.getElementById("fen").textContent = position.fen;
    for (const link of movesList.querySelectorAll("a.move")) {
      const current = Number(link.dataset.ply) === ply;
      link.classList.toggle("current", current);
      if (current) { link.setAttribute("aria-current", "step"); } else { link.removeAttribute("aria-current"); }
    }
    scrollIntoList(movesList.querySelector("a.current"));
    for (const row of document.querySelectorAll("#games tr[data-game]")) {
      row.classList.toggle("current", row.dataset.game === String(game.number));
    }
    if (newGame && state.shown && viewer.scrollIntoView) viewer.scrollIntoView({block: "nearest"});
    state.shown = true;
  }

  function go(index, ply) {
    history.replaceState(null, "", hashFor(index, ply));
    show(index, ply);
  }

  const steps = {
    first: function () { return [state.game, 0]; },
    back: function () { return [state.game, Math.max(0, state.ply - 1)]; },
    forward: function () { return [state.game, Math.min(lastPly(state.game), state.ply + 1)]; },
    last: function () { return [state.game, lastPly(state.game)]; },
    previousGame: function () { const game = Math.max(0, state.game - 1); return [game, lastPly(game)]; },
    nextGame: function () {
      const game = Math.min(data.games.length - 1, state.game + 1);
      return [game, lastPly(game)];
    }
  };
  const keys = {ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last"};
  if (data.games.length > 1) { keys.ArrowUp = "previousGame"; keys.ArrowDown = "nextGame"; }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !keys[event.key]) return;
    event.preventDefault();
    go.apply(null, steps[keys[event.key]]());
  });
  for (const button of document.querySelectorAll(".controls button")) {
    button.addEventListener("click", function () { go.apply(null, steps[button.dataset.step]()); });
  }
  window.addEventListener("hashchange", function () { const target = fromHash(); show(target.game, target.ply); });
  const target = fromHash();
  show(target.game, target.ply);
})();
"""
