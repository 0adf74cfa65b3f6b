"""The style and scripts of the game and match pages (pictures.py), and what the analysis board's
page (board_page.py) shares with them: the boards' style, and PodiumViews, the script that writes
a move's engine data, the clocks, and draws the evaluation graph."""

BOARD_STYLE = """
svg.definitions { position: absolute; }
.board { display: block; max-width: 100%; height: auto; }
.board .lines { stroke: #8d8068; stroke-width: 2.5; stroke-linecap: round; fill: none; }
.board .label { font-size: 13px; fill: #777; text-anchor: middle; }
.board .spot { fill: #8d8068; }
.board .mark { fill: none; stroke: #f0a020; stroke-width: 3; display: none; }
.board [data-last] .mark { display: inline; }
.board .hit { fill: transparent; }
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
.minfo { color: #667; font-size: 12px; white-space: nowrap; }
.opening, #moves a.opening { color: #999; font-style: italic; }
#eval { margin: 10px 0 0; }
#eval-graph { display: block; width: 100%; max-width: 560px; height: auto; }
#eval-graph .grid { stroke: #e4e0d6; }
#eval-graph .zero { stroke: #aaa; }
#eval-graph .axis { font-size: 10px; fill: #777; }
#eval-graph .eval-dot { pointer-events: none; }
.eval-line { fill: none; stroke-width: 2; stroke-linejoin: round; pointer-events: none; }
#eval-graph .eval-cursor { stroke: #f0a020; stroke-width: 2; pointer-events: none; }
#eval-graph .ply-band { fill: transparent; cursor: pointer; }
#eval-graph .ply-band:hover { fill: #0000000d; }
#eval-caption { color: #666; font-size: 12px; }
#legend { font-size: 13px; color: #444; margin-top: 10px; }
#legend summary { cursor: pointer; font-weight: 600; }
#legend ul { list-style: none; padding: 0; margin: 6px 0; display: grid; grid-template-columns: max-content 1fr;
             gap: 3px 10px; align-items: center; }
#legend li { display: contents; }
svg.key { display: inline-block; vertical-align: middle; }
"""

PAGE_STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 12px 20px; color: #222; background: #fcfbf8; }
h1 { font-size: 19px; margin: 0 0 8px; }
h2 { font-size: 16px; margin: 0 0 8px; }
section { margin-bottom: 20px; }
p { margin: 0 0 6px; }
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
#viewer { display: flex; gap: 24px; align-items: flex-start; }
.boards { flex: 0 1 auto; min-width: 0; }
.boards .board { height: calc(100vh - 64px); min-height: 440px; width: auto; max-width: 100%; }
.side { flex: 1 1 380px; min-width: 320px; max-width: 620px; }
.fen code { font-size: 13px; overflow-wrap: anywhere; }
#clocks { font-family: ui-monospace, monospace; font-size: 14px; }
#clocks span { margin-right: 14px; padding: 1px 4px; border-radius: 3px; }
#clocks span[data-to-move] { background: #fbe2a8; }
.controls button { font-size: 16px; min-width: 40px; }
#moves { position: relative; display: grid; gap: 2px 14px; max-height: 30vh; overflow-y: auto; align-items: baseline; }
#moves .number, #moves .head { color: #777; font-size: 13px; }
#moves a { color: #224; text-decoration: none; padding: 1px 4px; border-radius: 3px; }
#moves a { font-family: ui-monospace, monospace; }
#moves a:hover { background: #e8e4da; }
#moves a.current { background: #f0b43c; color: #000; }
#moves .start { grid-column: 1 / -1; }
#moves .mv { white-space: nowrap; }
.game-list { max-height: 360px; overflow-y: auto; display: inline-block; }
.game-list tr.current { background: #f6e2b3; }
"""

STYLE = PAGE_STYLE + BOARD_STYLE

# What the game pages and the analysis board (board.py) share: the engines' data of a move in
# words, the clocks, and the evaluation graph (one line from the first seat's view with two
# players, one per player with three), whose plies are bands a click picks.
VIEWS_SCRIPT = """
const PodiumViews = (function () {
  "use strict";

  // "cp 35" -> {cp: 35}; "mate -3" -> {mate: -3}; anything else -> null.
  function parseScore(text) {
    const found = typeof text === "string" ? /^(cp|mate) (-?\\d+)$/.exec(text) : null;
    if (!found) return null;
    return found[1] === "cp" ? {cp: Number(found[2])} : {mate: Number(found[2])};
  }

  function formatScore(text) {
    const score = parseScore(text);
    if (!score) return "";
    if (score.mate !== undefined) return "#" + score.mate;
    return (score.cp > 0 ? "+" : score.cp < 0 ? "\\u2212" : "") + Math.abs(score.cp);
  }

  function formatTime(ms) {
    if (typeof ms !== "number") return "";
    return ms < 1000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + " s";
  }

  function formatClock(ms) {
    const left = Math.max(0, ms), minutes = Math.floor(left / 60000), seconds = (left - minutes * 60000) / 1000;
    return minutes + ":" + (seconds < 10 ? "0" : "") + seconds.toFixed(1);
  }

  // Score, depth and time of a move, short: "+35 d6 0.10 s".
  function formatInfo(info) {
    if (!info) return "";
    const parts = [];
    if (info.score) parts.push(formatScore(info.score));
    if (typeof info.depth === "number") parts.push("d" + info.depth);
    if (typeof info.time_ms === "number") parts.push(formatTime(info.time_ms));
    return parts.join(" ");
  }

  function describeInfo(info) {
    if (!info) return "";
    const parts = [];
    if (info.score) parts.push("score " + formatScore(info.score) + " (mover's view)");
    if (typeof info.depth === "number") parts.push("depth " + info.depth);
    if (typeof info.nodes === "number") parts.push(info.nodes + " nodes");
    if (typeof info.time_ms === "number") parts.push(formatTime(info.time_ms));
    return parts.join(", ");
  }

  // A score as a height from -1 (lost) to 1 (won): +-400 is half way.
  function height(text) {
    const score = parseScore(text);
    if (!score) return null;
    if (score.mate !== undefined) return score.mate > 0 ? 1 : -1;
    return score.cp / (Math.abs(score.cp) + 400);
  }

  function element(parent, tag, attributes, text) {
    const made = document.createElementNS(parent.namespaceURI, tag);  // the SVG's, named by no address here
    for (const name in attributes) made.setAttribute(name, attributes[name]);
    if (text !== undefined) made.textContent = text;
    parent.appendChild(made);
    return made;
  }

  // The series of a game: with two players one, the first seat's view; with three, one per seat.
  function series(game) {
    const seats = game.colours.length;
    const lines = (seats === 2 ? [0] : game.colours.map(function (_, seat) { return seat; }))
        .map(function (seat) { return {seat: seat, points: []}; });
    game.moves.forEach(function (_, index) {
      const info = game.info[index];
      const value = info ? height(info.score) : null;
      if (value === null) return;
      const mover = game.movers[index];
      if (seats === 2) lines[0].points.push([index + 1, mover === 0 ? value : -value]);
      else lines[mover].points.push([index + 1, value]);
    });
    return lines.filter(function (line) { return line.points.length > 0; });
  }

  // Draws the graph of a game into svg; onPick(ply) is called when a ply is clicked. Returns
  // {mark: function (ply)}, which moves the cursor, or null when the game has no scores.
  function drawEvalGraph(svg, game, onPick) {
    const width = 460, height_ = 150, left = 40, right = 8, top = 8, bottom = 20;
    const plotWidth = width - left - right, plotHeight = height_ - top - bottom;
    const plies = game.moves.length;
    const lines = series(game);
    svg.replaceChildren();
    svg.setAttribute("viewBox", "0 0 " + width + " " + height_);
    svg.dataset.plies = plies;
    if (!lines.length) return null;
    const step = plotWidth / Math.max(plies, 1);
    const x = function (ply) { return left + ply * step; };
    const y = function (value) { return top + (1 - value) / 2 * plotHeight; };
    [[1, "#"], [0.5, "+400"], [0, "0"], [-0.5, "\\u2212400"], [-1, "\\u2212#"]].forEach(function (tick) {
      element(svg, "line", {"class": tick[0] === 0 ? "zero" : "grid", x1: left, x2: width - right,
                            y1: y(tick[0]), y2: y(tick[0])});
      element(svg, "text", {"class": "axis", x: left - 4, y: y(tick[0]) + 3, "text-anchor": "end"}, tick[1]);
    });
    [0, Math.round(plies / 2), plies].forEach(function (ply) {
      element(svg, "text", {"class": "axis", x: x(ply), y: height_ - 6, "text-anchor": "middle"}, String(ply));
    });
    const cursor = element(svg, "line", {"class": "eval-cursor", y1: top, y2: top + plotHeight, x1: left, x2: left});
    lines.forEach(function (line) {
      const colour = game.evalColours[line.seat] || "#333";
      const points = line.points.map(function (point) {
        return x(point[0]).toFixed(1) + "," + y(point[1]).toFixed(1);
      });
      element(svg, "polyline", {"class": "eval-line", "data-seat": line.seat, "data-colour": game.colours[line.seat],
                                stroke: colour, points: points.join(" ")});
      line.points.forEach(function (point) {
        element(svg, "circle", {"class": "eval-dot", cx: x(point[0]), cy: y(point[1]), r: 2.2, fill: colour});
      });
    });
    for (let ply = 0; ply <= plies; ply++) {
      const band = element(svg, "rect", {"class": "ply-band", "data-ply": ply, x: x(ply) - step / 2, y: top,
                                         width: step, height: plotHeight});
      element(band, "title", {}, ply === 0 ? "start" : "after " + game.moves[ply - 1]);
      band.addEventListener("click", function () { onPick(ply); });
    }
    return {mark: function (ply) { cursor.setAttribute("x1", x(ply)); cursor.setAttribute("x2", x(ply)); }};
  }

  function caption(game) {
    if (game.colours.length === 2) {
      return "The engines' evaluation from " + game.colours[0] + "'s view: up is good for " + game.colours[0] +
          " (+400 half way, # a forced win). Click the graph to go to a move.";
    }
    return "Each player's evaluation of its own moves, from its own view, in its colour (+400 half way, # a " +
        "forced win). Click the graph to go to a move.";
  }

  // The clocks at a ply: "White 0:58.3  Black 0:57.9", the one to move marked.
  function showClocks(container, game, ply, toMove) {
    container.replaceChildren();
    container.hidden = !game.clocks;
    if (!game.clocks) return;
    game.colours.forEach(function (colour, seat) {
      const span = document.createElement("span");
      span.textContent = colour + " " + formatClock(game.clocks[ply][seat]);
      span.dataset.seat = seat;
      if (seat === toMove) span.dataset.toMove = "true";
      container.appendChild(span);
    });
  }

  return {parseScore: parseScore, formatScore: formatScore, formatInfo: formatInfo, describeInfo: describeInfo,
          formatTime: formatTime, drawEvalGraph: drawEvalGraph, caption: caption, showClocks: showClocks};
})();
"""

SCRIPT = VIEWS_SCRIPT + """
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("podium-data").textContent);
  const viewer = document.getElementById("viewer");
  const movesList = document.getElementById("moves");
  const gameIndex = new Map(data.games.map((game, index) => [String(game.number), index]));
  const state = {game: 0, ply: 0, listed: -1, graph: null};

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

  // One row per round of turns: its number, then one move per seat, with what its engine said.
  function listMoves(index) {
    const game = data.games[index];
    const seats = game.colours.length;
    movesList.replaceChildren();
    movesList.style.gridTemplateColumns = "2.5em repeat(" + seats + ", max-content)";
    const cell = function (tag, className, text, parent) {
      const element = document.createElement(tag);
      element.className = className;
      element.textContent = text;
      (parent || movesList).appendChild(element);
      return element;
    };
    cell("span", "head", "");
    game.colours.forEach(function (colour) { cell("span", "head", colour); });
    const link = function (ply, text, className, parent) {
      const element = cell("a", "move " + className, text, parent);
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
      const box = cell("span", "mv", "");
      const played = link(moveIndex + 1, move, moveIndex < game.openingPlies ? "opening" : "played", box);
      const info = game.info[moveIndex];
      if (info) {
        cell("span", "minfo", " " + PodiumViews.formatInfo(info), box);
        played.title = PodiumViews.describeInfo(info);  // and the nodes
      } else if (game.notes[moveIndex]) {
        played.title = game.notes[moveIndex];
      }
    });
    const figure = document.getElementById("eval");
    state.graph = PodiumViews.drawEvalGraph(document.getElementById("eval-graph"), game,
                                            function (ply) { go(index, ply); });
    figure.hidden = !state.graph;
    document.getElementById("eval-caption").textContent = state.graph ? PodiumViews.caption(game) : "";
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
    PodiumViews.showClocks(document.getElementById("clocks"), game, ply, position.toMove);
    if (state.graph) state.graph.mark(ply);
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
