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

from .boards import (HAND_STATE_CODES, POLDR_FILLS, board_data, board_points, board_svg, hand_slots, hand_state,
                     svg_number, symbol_definitions, symbol_ids)
from .clock import GameClock, parse_tc
from .errors import UsageError
from .notation import seat_to_move
from .page_assets import SCRIPT, STYLE
from .replay import PoldrBoard, PodsBoard, Replay
from .stats import count_of
from .summary import MatchSummary, figure_rows

OPENING_NOTE = '<span class="opening">Grey moves</span> are the opening, not chosen by the engines.'
PLOT_COLOURS = ("#7b3fb5", "#1b9e77", "#d95f02")  # engines: not the POLD.R seats' colours
# The evaluation graph: one line from the first seat's view with two players (Pods: White's, dark),
# one per seat, in its colour, with three.
EVAL_COLOURS = {"pods": ("#333333",), "poldr": tuple(POLDR_FILLS.values())}
POINT_IN_MOVE_RE = re.compile(r"[a-i][1-9]")


# -- pages


def game_page(replay: Replay, title: str | None = None) -> str:
    """The page of one game, or of a position and moves from it."""
    return _page(title or game_title(replay), [replay])


def match_page(replays: list[Replay], summary: MatchSummary, title: str | None = None) -> str:
    """The page of a match: its summary and running score, the viewer, the list of games."""
    title = title or f"{' vs '.join(summary.engines)}: {summary.rules.describe()}, {count_of(summary.games, 'game')}"
    return _page(title, replays, summary)


def _page(title: str, replays: list[Replay], summary: MatchSummary | None = None) -> str:
    boards = _distinct_boards(replays)
    sections = [_replays_viewer(replays, boards)]
    if summary is not None:  # the viewer first, in sight; the figures and the games under it
        overview = f'<div class="overview">{summary_section(summary)}{score_plot_section(summary)}</div>'
        sections = [*sections, _game_list(replays), overview]
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
<h2 id="game-title">{_text(game_title(first))}</h2>
<p id="outcome">{_text(game_outcome(first))}</p>
<p id="status"></p>
<p id="clocks" hidden></p>
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
<figure id="eval" hidden><svg id="eval-graph" role="img" aria-label="the engines' evaluations, move by move"></svg>
<figcaption id="eval-caption"></figcaption></figure>
{legend_section(replays)}
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
            "title": game_title(replay), "outcome": game_outcome(replay), "colours": list(replay.colours),
            "openingPlies": replay.opening_plies, "moves": replay.moves, "notes": replay.notes, "plies": plies,
            **engine_data(replay)}


def engine_data(replay: Replay) -> dict:
    """What the engines said of each move, for the move list, the evaluation graph and the clocks:
    `movers` (the seat, from 0, that played each move), `info` (per move the record's score, depth,
    nodes and time, None for the opening's moves and positions' moves), `clocks` (per ply each
    seat's time left, in ms, when every seat played on a clock `tc B+I`; None under any other
    limit), `timeControl` (each seat's, {"p1": "tc 1+0.05", ...}) and `evalColours` (the graph's
    line colours)."""
    movers = [int(seat_to_move(position.fen)[1:]) - 1 for position in replay.positions[:len(replay.moves)]]
    info = []
    for index in range(len(replay.moves)):
        given = replay.move_info[index] if index < len(replay.move_info) else None
        info.append(None if not given else {key: given.get(key) for key in ("score", "depth", "nodes", "time_ms")})
    return {"movers": movers, "info": info, "clocks": clock_readings(replay, movers, info),
            "timeControl": replay.time_control, "evalColours": list(EVAL_COLOURS[replay.game])}


def clock_readings(replay: Replay, movers: list[int], info: list[dict | None]) -> list[list[int]] | None:
    """Each seat's clock after each ply (the start first), as the arbiter charged it: the time a
    move took off its mover's clock, then the increment added. Each seat has its own control (time
    odds: `tc 2+0.1` against `tc 1+0.05`). None unless every seat played on a clock."""
    seats = tuple(range(len(replay.seats)))
    controls = {}
    for seat in seats:
        text = (replay.time_control or {}).get(f"p{seat + 1}")
        if not isinstance(text, str) or not text.startswith("tc "):
            return None
        try:
            controls[seat] = parse_tc(text[len("tc "):])
        except UsageError:
            return None
    clock = GameClock(controls, 0, seats)
    readings = [[controls[seat].base_ms for seat in seats]]
    for mover, given in zip(movers, info):
        if given and isinstance(given.get("time_ms"), (int, float)) and not clock.charge(mover, given["time_ms"]):
            clock.remaining[mover] = 0.0  # out of time: the game ends here
        readings.append([round(clock.remaining[seat]) for seat in seats])
    return readings


def game_title(replay: Replay) -> str:
    if replay.number is not None:
        return f"Game {replay.number}: {' vs '.join(replay.seats)}"
    return "Position" + (f" and {count_of(len(replay.moves), 'move')}" if replay.moves else "")


def game_outcome(replay: Replay) -> str:
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


# -- the legend


def legend_section(replays: list[Replay]) -> str:
    """What every mark of the page means: the board's (each game of the page), the move list's and
    the evaluation graph's."""
    boards = {replay.game: replay.board for replay in reversed(replays)}
    rows = [*board_legend_rows(boards), MOVE_DATA_KEY, OPENING_KEY, EVAL_GRAPH_KEY]
    return legend_html(rows)


def legend_html(rows: list[tuple[str, str]]) -> str:
    items = "".join(f"<li>{key}<span>{text}</span></li>" for key, text in rows)
    return f'<details id="legend" open><summary>Legend</summary><ul>{items}</ul></details>'


def board_legend_rows(boards: dict[str, PodsBoard | PoldrBoard]) -> list[tuple[str, str]]:
    """(key, words) for each mark of the boards of these games (game -> its board): the keys are
    drawn with the page's own piece definitions."""
    rows = []
    if "pods" in boards:
        board = boards["pods"]
        pod = symbol_ids({board: ""})["pods"][board.letters[0]]
        rows += [
            (_key_svg('<circle class="spot" r="3"/><circle class="mark" r="16"/>', '<g data-last="true">'),
             "a point of the last move (the point a pod was placed on, or left and reached)"),
            (_key_svg(_hand_key(pod, "hand")), "a pod in its side&#x2019;s hand, yet to be placed"),
            (_key_svg(_hand_key(pod, "board")), "faint: a pod of that hand now on the board"),
            (_key_svg(_hand_key(pod, "out")), "faint and crossed out: a pod out of the game (removed, "
                                              "advanced game)"),
            (_key_svg('<rect class="band" data-to-move="true" x="-16" y="-11" width="32" height="22" rx="4"/>'),
             "the hand of the side to move"),
        ]
    if "poldr" in boards:
        rows += [
            (_key_svg('<use href="#poldr-pawn"/>', scale=0.62), "the pawn, shared by the players"),
            (_key_svg('<use href="#poldr-marker-b"/>', scale=0.62),
             "a player&#x2019;s marker (B Blue, Y Yellow, R Red)"),
            (_key_svg('<use href="#poldr-brick-b"/>', scale=0.62), "a player&#x2019;s brick, in its colour"),
            (_key_svg('<rect class="square" x="-16" y="-16" width="32" height="32"/>'
                      '<rect class="mark" x="-14" y="-14" width="28" height="28"/>',
                      '<g class="cell" data-last="true">'),
             "a cell of the last move (where the pawn or a marker went)"),
            (_key_svg('<rect class="band" data-to-move="true" x="-16" y="-11" width="32" height="22" rx="4"/>'),
             "bricks left in each reserve; the player to move&#x2019;s is highlighted"),
        ]
    return rows


MOVE_DATA_KEY = ('<span class="minfo">+35 d6 0.10 s</span>', "beside a move: its engine&#x2019;s score from the "
                 "mover&#x2019;s view, in the evaluation&#x2019;s units (#3: wins in 3 of its own moves, #-3: "
                 "loses), the depth it reached and the time it took; the tooltip adds the nodes")
OPENING_KEY = ('<span class="opening">A@c3</span>', "a move of the opening, not chosen by the engines")
EVAL_GRAPH_KEY = ('<svg class="key" viewBox="-18 -12 36 24" width="30" height="20"><path class="eval-line" '
                  'stroke="#333" d="M-15 6L-5 -2L5 3L15 -7"/></svg>',
                  "the evaluation graph: with two players the first seat&#x2019;s view (up is good for it), with "
                  "three one line per player, each from its own view; a click on it shows that move")


def _key_svg(content: str, group: str = "<g>", scale: float = 1.0) -> str:
    transform = f' transform="scale({scale:g})"' if scale != 1 else ""
    return (f'<svg class="board key" viewBox="-20 -20 40 40" width="36" height="36" aria-hidden="true">'
            f'{group[:-1]}{transform}>{content}</g></svg>')


def _hand_key(pod: str, state: str) -> str:
    return (f'<g class="hand-slot" data-state="{state}"><g transform="scale(0.62)"><use href="#{pod}"/></g>'
            f'<path class="out-mark" d="M-12 -12L12 12M12 -12L-12 12"/></g>')


# -- a match


def summary_section(summary: MatchSummary) -> str:
    """The figures as summary.figure_rows gives them (two players: W-L-D, Elo with its interval
    and LOS once there are enough game pairs, the pentanomial, the SPRT if one was asked for).
    Every match: each engine's wins and win share, POLD.R each seat's too; faults."""
    rows = figure_rows(summary)
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
