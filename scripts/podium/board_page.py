"""The analysis board's page (board_server.py serves it): its HTML and style, as strings. The
board itself comes from the server as SVG (boards.py), drawn at each change; the script decorates
it with what can be clicked, sends the clicks, and draws the engine's lines as they come.

The script is in board_script.py. The page's handles, for people and for tests:
  - `#board` holds the board: every point or cell has `data-point` and `data-token` ("pt:c3"),
    every pod of a hand `data-pod` and `data-token` ("pod:A"); `#tray` holds POLD.R's pawn and
    marker before they are on the board (`data-token` "pawn", "marker") and the pass
    (`data-token` "pass"). What can be clicked first has `data-choice`, what is chosen
    `data-chosen`, where it can go `data-target`.
  - `#fen` the position line shown, `#moves-text` the moves from the start; `body[data-ply]`.
  - `#lines` the engine's lines (rows with `data-multipv`, `data-depth`), `#engine-status`,
    `body[data-analysis]` "on" or "off"; `#error` says what was refused.
  - keys: Space starts and stops the engine, left and right arrows step, Home and End, Escape
    drops the piece chosen.
"""

from .page_assets import BOARD_STYLE

BOARD_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Podium analysis board</title>
<link rel="stylesheet" href="/board.css">
</head>
<body data-analysis="off">
<main id="board-page">
<div class="board-column">
<div id="board" aria-label="the board: click a piece, then where it goes"></div>
<div id="tray">
<button type="button" data-token="pawn" hidden title="the pawn, not yet on the board">Pawn</button>
<button type="button" data-token="marker" hidden
 title="the marker of the player to move, not yet on the board">Marker</button>
<button type="button" data-token="pass" hidden title="no clearing turn: pass">Pass</button>
</div>
</div>
<div class="panel">
<header><h1>Podium analysis board</h1><span id="connection"></span></header>
<form id="setup" autocomplete="off">
<label>Game <select id="game">
<option value="standard">Pods, standard</option>
<option value="advanced">Pods, advanced</option>
<option value="poldr">POLD.R</option>
</select></label>
<label data-for="pods">Rotation <select id="rotation">
<option value="0">0</option><option value="90">90</option><option value="180">180</option>
<option value="270">270</option>
</select></label>
<label data-for="poldr">Players <select id="players"><option value="2">2</option><option value="3">3</option>
</select></label>
<label data-for="poldr">Size <select id="size">
<option value="4">4</option><option value="5">5</option><option value="6">6</option><option value="7">7</option>
<option value="8">8</option><option value="9">9</option>
</select></label>
<label data-for="poldr">Bricks <input id="bricks" type="number" min="1" max="40" value="16"></label>
<button type="submit" id="new-game">New game</button>
</form>
<form id="paste" autocomplete="off">
<input id="position-input" type="text" spellcheck="false"
 placeholder="paste a position line (and moves ... after it)" aria-label="position line">
<button type="submit" id="set-position">Set position</button>
</form>
<p id="error" role="alert" hidden></p>
<p id="status"></p>
<p class="copy">Position <code id="fen"></code> <button type="button" id="copy-fen">Copy</button></p>
<p class="copy">Moves <code id="moves-text"></code> <button type="button" id="copy-moves">Copy</button></p>
<div class="controls">
<button type="button" data-step="first" title="start (Home)">&#xAB;</button>
<button type="button" data-step="back" title="back (left arrow)">&#x2039;</button>
<button type="button" data-step="forward" title="forward (right arrow)">&#x203A;</button>
<button type="button" data-step="last" title="end (End)">&#xBB;</button>
<span class="keys">Keys: Space engine on/off, &#x2190; &#x2192; step, Home, End, Esc drops the piece chosen.</span>
</div>
<div id="moves" role="list"></div>
<section id="engine">
<div class="engine-head">
<button type="button" id="analyse" aria-pressed="false">Start the engine (Space)</button>
<label>Lines <select id="multipv">
<option value="1">1</option><option value="2">2</option><option value="3">3</option><option value="4">4</option>
<option value="5">5</option>
</select></label>
<span id="engine-status">The engine is off.</span>
</div>
<table id="lines"><thead><tr><th>#</th><th>depth</th><th id="score-head">score</th><th>nodes</th><th>time</th>
<th>line</th></tr></thead><tbody></tbody></table>
</section>
<section id="records" hidden>
<h2>Games of the records</h2>
<form id="record-form"><select id="record-game" aria-label="a game of the records"></select>
<button type="submit" id="load-record">Load</button></form>
<div id="record-view" hidden>
<p id="record-title"></p>
<p id="record-outcome"></p>
<p id="clocks" hidden></p>
<figure id="eval" hidden><svg id="eval-graph" role="img" aria-label="the engines' evaluations, move by move"></svg>
<figcaption id="eval-caption"></figcaption></figure>
</div>
</section>
<div id="legend-box"></div>
<textarea id="clipboard" aria-hidden="true" tabindex="-1" readonly></textarea>
</div>
</main>
<script src="/board.js"></script>
</body>
</html>
"""

BOARD_CSS = BOARD_STYLE + """
body { font: 15px/1.4 system-ui, sans-serif; margin: 10px 18px; color: #222; background: #fcfbf8; }
h1 { font-size: 18px; margin: 0; display: inline; }
h2 { font-size: 15px; margin: 8px 0 4px; }
p { margin: 0 0 6px; }
#board-page { display: flex; gap: 24px; align-items: flex-start; }
.board-column { flex: 0 1 auto; min-width: 0; }
#board .board { height: calc(100vh - 66px); min-height: 440px; width: auto; max-width: 100%; }
#tray { display: flex; gap: 8px; min-height: 34px; align-items: center; }
#tray button { font-size: 15px; padding: 4px 14px; }
#tray button[data-choice] { outline: 3px solid #2f6fd6; }
#tray button[data-chosen] { background: #2f6fd6; color: #fff; }
.panel { flex: 1 1 420px; min-width: 340px; max-width: 660px; }
header { display: flex; gap: 12px; align-items: baseline; margin-bottom: 8px; }
#connection { color: #a33; font-size: 13px; }
form { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; margin-bottom: 8px; }
#position-input { flex: 1 1 260px; font-family: ui-monospace, monospace; font-size: 13px; padding: 3px 5px; }
#error { background: #fde8e6; border: 1px solid #e0a39c; color: #8a1c12; padding: 4px 8px; border-radius: 4px; }
.copy code { font-size: 13px; overflow-wrap: anywhere; }
.copy button { font-size: 12px; }
.controls { display: flex; gap: 4px; align-items: center; flex-wrap: wrap; }
.controls button { font-size: 16px; min-width: 40px; }
.keys { color: #666; font-size: 12px; margin-left: 8px; }
#moves { position: relative; display: grid; gap: 2px 14px; max-height: 22vh; overflow-y: auto; align-items: baseline;
         margin: 6px 0; }
#moves .number, #moves .head { color: #777; font-size: 13px; }
#moves a { color: #224; text-decoration: none; padding: 1px 4px; border-radius: 3px; cursor: pointer;
           font-family: ui-monospace, monospace; }
#moves a:hover { background: #e8e4da; }
#moves a.current { background: #f0b43c; color: #000; }
#moves a.ahead { color: #999; }
#moves .start { grid-column: 1 / -1; }
#moves .mv { white-space: nowrap; }
.engine-head { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
#analyse[aria-pressed="true"] { background: #2a7d4f; color: #fff; }
#engine-status { color: #555; font-size: 13px; }
#lines { width: 100%; margin-top: 6px; font-size: 13px; border-collapse: collapse; }
#lines th { text-align: left; border-bottom: 1px solid #bbb; font-weight: 600; }
#lines td { padding: 2px 8px 2px 0; vertical-align: top; }
#lines td.pv { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
#lines tbody tr:first-child td { font-weight: 600; }
#clocks span { margin-right: 14px; padding: 1px 4px; border-radius: 3px; font-family: ui-monospace, monospace; }
#clocks span[data-to-move] { background: #fbe2a8; }
#clipboard { position: absolute; left: -9999px; width: 1px; height: 1px; }
.board [data-token] { cursor: pointer; }
svg.key .target-dot, svg.key .choice-ring { display: inline; }
.board .target-dot { fill: #2a7d4f; opacity: 0.55; display: none; pointer-events: none; }
.board [data-target] .target-dot { display: inline; }
.board .choice-ring { fill: none; stroke: #2f6fd6; stroke-width: 2; display: none; pointer-events: none; }
.board [data-choice] .choice-ring { display: inline; stroke-dasharray: 4 3; }
.board [data-chosen] .choice-ring { display: inline; stroke-width: 4; }
.hand-slot[data-choice] .hit { fill: #2f6fd614; stroke: #2f6fd6; stroke-width: 1.5; stroke-dasharray: 4 3; }
.hand-slot[data-chosen] .hit { fill: #2f6fd640; stroke: #2f6fd6; stroke-width: 3; }
.board .pv { pointer-events: none; }
.board .pv-arrow { stroke-width: 7; stroke-linecap: round; fill: none; }
.board .pv-ring { fill: none; stroke-width: 4; }
.board .pv-number { font-size: 11px; font-weight: 700; fill: #fff; text-anchor: middle; }
.board .pv-piece { font-size: 12px; font-weight: 700; text-anchor: middle; }
"""
