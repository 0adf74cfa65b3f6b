"""The analysis board page's script (board_page.py has its HTML and style): it asks the server for
a session, draws the board the server sends, marks what can be clicked (the legal moves' paths of
tokens), sends the moves, keys and choices, and shows the engine's lines as they come by
Server-Sent Events, the best line drawn on the board."""

from .page_assets import VIEWS_SCRIPT

BOARD_JS = VIEWS_SCRIPT + """
(function () {
  "use strict";
  const $ = function (id) { return document.getElementById(id); };
  const LINE_COLOURS = {pods: ["#2a7d4f", "#7b3fb5"], poldr: ["#2f6fd6", "#c99a00", "#d63a31"]};
  const app = {session: null, state: null, selection: [], lines: new Map(), run: -1, busy: false, events: null,
               records: [], queue: Promise.resolve(), early: []};

  // -- talking to the server

  async function call(action, body) {
    const response = await fetch("/api/" + action, {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(Object.assign({session: app.session}, body || {}))
    });
    let answer;
    try {
      answer = await response.json();
    } catch (error) {
      answer = {ok: false, error: "no answer (" + response.status + ")"};
    }
    if (!answer.ok) throw new Error(answer.error || "refused");
    return answer;
  }

  function showError(message) {
    $("error").textContent = message || "";
    $("error").hidden = !message;
  }

  // A request that changes the board: one at a time, in order; its answer is the new state.
  function act(action, body) {
    app.queue = app.queue.then(async function () {
      app.busy = true;
      document.body.dataset.busy = "true";
      try {
        const answer = await call(action, body);
        showError("");
        render(answer.state);
      } catch (error) {
        showError(error.message);
      } finally {
        app.busy = false;
        delete document.body.dataset.busy;
      }
    });
    return app.queue;
  }

  function connect() {
    if (app.events) app.events.close();
    app.events = new EventSource("/api/events?session=" + encodeURIComponent(app.session));
    app.events.onopen = function () {
      $("connection").textContent = "";
      call("state").then(function (answer) { render(answer.state); }, function (error) { showError(error.message); });
    };
    app.events.onerror = function () {
      $("connection").textContent = app.events.readyState === EventSource.CLOSED ?
          "connection lost: reload the page" : "connection lost: trying again";
    };
    app.events.onmessage = function (message) { onEvent(JSON.parse(message.data)); };
  }

  async function start() {
    try {
      const answer = await call("session");
      app.session = answer.session;
      app.records = answer.records;
      listRecords();
      render(answer.state);
      connect();
    } catch (error) {
      showError(error.message);
    }
  }

  // The page goes: its board closes, its engine with it.
  window.addEventListener("pagehide", function () {
    if (!app.session) return;
    try {
      fetch("/api/close", {method: "POST", keepalive: true, headers: {"Content-Type": "application/json"},
                           body: JSON.stringify({session: app.session})});
    } catch (error) { /* the stream's end stops the search anyway */ }
    if (app.events) app.events.close();
  });

  // -- the board

  function svgElement(parent, tag, attributes, text) {
    const made = document.createElementNS(parent.namespaceURI, tag);
    for (const name in attributes) made.setAttribute(name, attributes[name]);
    if (text !== undefined) made.textContent = text;
    parent.appendChild(made);
    return made;
  }

  function boardSvg() { return $("board").querySelector("svg.board"); }

  function render(state) {
    const newPosition = !app.state || state.fen !== app.state.fen || state.ply !== app.state.ply ||
        state.moves.join(" ") !== app.state.moves.join(" ");
    app.state = state;
    app.selection = [];
    $("board").innerHTML = state.svg;  // drawn by the server from the engine's own picture
    const svg = boardSvg();
    const poldr = state.game === "poldr";
    for (const point of svg.querySelectorAll("[data-point]")) {
      point.dataset.token = "pt:" + point.dataset.point;
      if (state.last.includes(point.dataset.point)) point.dataset.last = "true";
      svgElement(point, "circle", {"class": "choice-ring", r: poldr ? 25 : 24});
      svgElement(point, "circle", {"class": "target-dot", r: poldr ? 11 : 9});
    }
    for (const slot of svg.querySelectorAll(".hand-slot[data-pod]")) slot.dataset.token = "pod:" + slot.dataset.pod;
    for (const band of svg.querySelectorAll(".band")) {
      if (Number(band.dataset.seat) === state.toMove) band.dataset.toMove = "true";
    }
    svgElement(svg, "g", {"class": "pv"});
    for (const button of $("tray").querySelectorAll("[data-token]")) {
      const token = button.dataset.token;
      button.hidden = !state.legal.some(function (entry) { return entry.path[0] === token; });
      if (token === "marker" && state.toMove !== null) button.textContent = state.colours[state.toMove] + "'s marker";
    }
    $("fen").textContent = state.fen;
    $("moves-text").textContent = state.moves.join(" ");
    document.body.dataset.ply = state.ply;
    document.body.dataset.game = state.game;
    const ply = "Ply " + state.ply + " of " + state.moves.length + ". ";
    $("status").textContent = ply + (state.over ? "Game over: " + state.over : "To move: " + state.turn);
    showSetup(state.setup);
    listMoves();
    showRecord();
    $("legend-box").innerHTML = state.legend;
    if (newPosition || state.analysis.run !== app.run) {
      app.lines.clear();
      app.run = state.analysis.run;
    }
    showLines();
    showAnalysis();
    highlight();
    // lines of this search that came by the events stream before this answer
    const early = app.early.filter(function (event) { return event.run === app.run; });
    app.early = app.early.filter(function (event) { return event.run > app.run; });
    early.forEach(onEvent);
  }

  function showSetup(setup) {
    $("game").value = setup.game;
    $("rotation").value = String(setup.rotation);
    $("players").value = String(setup.players);
    $("size").value = String(setup.size);
    $("bricks").value = String(setup.bricks);
    showSetupFields();
  }

  function showSetupFields() {
    const poldr = $("game").value === "poldr";
    for (const label of document.querySelectorAll("#setup label[data-for]")) {
      label.hidden = (label.dataset.for === "poldr") !== poldr;
    }
  }

  function startsWith(path, prefix) {
    return prefix.every(function (token, index) { return path[index] === token; });
  }

  function tokenElements(token) {
    return document.querySelectorAll('[data-token="' + CSS.escape(token) + '"]');
  }

  // What can be clicked next: the first tokens of the legal moves, or those after the ones chosen.
  function highlight() {
    for (const element of document.querySelectorAll("[data-token]")) {
      delete element.dataset.choice;
      delete element.dataset.target;
      delete element.dataset.chosen;
    }
    const state = app.state, chosen = app.selection;
    if (!state) return;
    const next = new Set();
    state.legal.forEach(function (entry) {
      if (entry.path.length > chosen.length && startsWith(entry.path, chosen)) next.add(entry.path[chosen.length]);
    });
    next.forEach(function (token) {
      for (const element of tokenElements(token)) element.dataset[chosen.length ? "target" : "choice"] = "true";
    });
    chosen.forEach(function (token) {
      for (const element of tokenElements(token)) element.dataset.chosen = "true";
    });
  }

  function clickToken(token) {
    const state = app.state;
    if (!state || app.busy || state.over) return;
    const tried = app.selection.concat([token]);
    let matching = state.legal.filter(function (entry) { return startsWith(entry.path, tried); });
    if (!matching.length) {  // not a way on: perhaps a new start, else nothing chosen
      matching = state.legal.filter(function (entry) { return entry.path[0] === token; });
      app.selection = matching.length ? [token] : [];
    } else {
      app.selection = tried;
    }
    const whole = matching.find(function (entry) { return entry.path.length === app.selection.length; });
    if (whole) {
      app.selection = [];
      act("move", {move: whole.move});
      return;
    }
    highlight();
  }

  $("board").addEventListener("click", function (event) {
    const target = event.target.closest("[data-token]");
    if (target) clickToken(target.dataset.token);
  });
  $("tray").addEventListener("click", function (event) {
    const target = event.target.closest("[data-token]");
    if (target) { target.blur(); clickToken(target.dataset.token); }
  });

  // -- the moves

  function goto(ply) {
    const state = app.state;
    if (!state) return;
    const target = Math.max(0, Math.min(state.moves.length, ply));
    if (target !== state.ply) act("goto", {ply: target});
  }

  function listMoves() {
    const state = app.state, list = $("moves"), seats = state.colours.length;
    const record = state.record;
    list.replaceChildren();
    list.style.gridTemplateColumns = "2.5em repeat(" + seats + ", max-content)";
    const cell = function (tag, className, text, parent) {
      const element = document.createElement(tag);
      element.className = className;
      element.textContent = text;
      (parent || list).appendChild(element);
      return element;
    };
    const link = function (ply, text, className, parent) {
      const element = cell("a", "move " + className + (ply === state.ply ? " current" : "") +
                           (ply > state.ply ? " ahead" : ""), text, parent);
      element.dataset.ply = ply;
      element.setAttribute("role", "listitem");
      element.addEventListener("click", function () { goto(ply); });
      return element;
    };
    cell("span", "head", "");
    state.colours.forEach(function (colour) { cell("span", "head", colour); });
    link(0, "start", "start");
    const fields = state.start.split(" ");
    const skipped = state.game === "poldr" ? "byr".indexOf(fields[1]) : (fields[1] === "w" ? 0 : 1);
    state.moves.forEach(function (move, index) {
      const column = (skipped + index) % seats;
      if (column === 0 || index === 0) {
        cell("span", "number", String(Math.floor((skipped + index) / seats) + 1) + ".");
        for (let blank = 0; index === 0 && blank < column; blank++) cell("span", "blank", "");
      }
      const box = cell("span", "mv", "");
      const opening = record && index < record.agreeing && index < record.openingPlies;
      const played = link(index + 1, move, opening ? "opening" : "played", box);
      const info = record && index < record.agreeing ? record.info[index] : null;
      if (info) {
        cell("span", "minfo", " " + PodiumViews.formatInfo(info), box);
        played.title = PodiumViews.describeInfo(info);
      }
    });
    const current = list.querySelector("a.current");
    if (current) {
      const top = current.offsetTop, bottom = top + current.offsetHeight;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
    }
  }

  // -- the records

  function listRecords() {
    const select = $("record-game");
    select.replaceChildren();
    app.records.forEach(function (file) {
      const group = document.createElement("optgroup");
      group.label = file.name;
      file.games.forEach(function (game) {
        const option = document.createElement("option");
        option.value = file.file + ":" + game.number;
        option.textContent = game.label;
        group.appendChild(option);
      });
      select.appendChild(group);
    });
    $("records").hidden = !app.records.length;
  }

  function showRecord() {
    const record = app.state.record;
    $("record-view").hidden = !record;
    if (!record) return;
    $("record-game").value = record.file + ":" + record.number;
    $("record-title").textContent = record.title + (record.agreeing < record.moves.length ?
        " (the board has left the game after move " + record.agreeing + ")" : "");
    $("record-outcome").textContent = record.outcome;
    const game = {moves: record.moves, movers: record.movers, info: record.info, colours: record.colours,
                  evalColours: record.evalColours, clocks: record.clocks};
    const inGame = app.state.ply <= record.agreeing;
    PodiumViews.showClocks($("clocks"), game, inGame ? app.state.ply : 0, app.state.toMove);
    if (!inGame) $("clocks").hidden = true;
    const graph = PodiumViews.drawEvalGraph($("eval-graph"), game, function (ply) {
      act("record", {file: record.file, game: record.number, ply: ply});
    });
    $("eval").hidden = !graph;
    $("eval-caption").textContent = graph ? PodiumViews.caption(game) : "";
    if (graph) graph.mark(inGame ? app.state.ply : record.agreeing);
  }

  $("record-form").addEventListener("submit", function (event) {
    event.preventDefault();
    const parts = $("record-game").value.split(":");
    if (parts.length === 2) act("record", {file: Number(parts[0]), game: Number(parts[1])});
  });

  // -- the engine's lines

  function toggleAnalysis() {
    if (!app.state) return;
    act("analysis", {on: !app.state.analysis.on, multipv: Number($("multipv").value)});
  }

  function onEvent(event) {
    if (event.run > app.run) {  // a search whose start the page has not heard of yet: kept for it
      app.early.push(event);
      if (app.early.length > 500) app.early.shift();
      return;
    }
    if (event.run !== app.run) return;  // a search of another position
    if (event.type === "line") {
      app.lines.set(event.multipv, event);
      for (const number of Array.from(app.lines.keys())) {
        if (number > app.state.analysis.multipv) app.lines.delete(number);
      }
      showLines();
      if (event.multipv === 1) drawLine(event.drawing);
    } else if (event.type === "done") {
      app.searchDone = true;
      showAnalysis();
    } else if (event.type === "error") {
      showError(event.message);
    }
  }

  function showAnalysis() {
    const state = app.state, on = state.analysis.on;
    document.body.dataset.analysis = on ? "on" : "off";
    $("analyse").setAttribute("aria-pressed", on ? "true" : "false");
    $("analyse").textContent = on ? "Stop the engine (Space)" : "Start the engine (Space)";
    $("multipv").value = String(state.analysis.multipv);
    const best = app.lines.get(1);
    let text;
    if (state.over) text = "Game over: nothing to search.";
    else if (!on) text = best ? "The engine is off; its last lines are shown." : "The engine is off.";
    else text = best ? "Searching: depth " + best.depth + ", " + formatCount(best.nodes) + " nodes, " +
        PodiumViews.formatTime(best.time) + "." : "Searching...";
    $("engine-status").textContent = text;
    $("score-head").textContent =
        state.toMove === null ? "score" : "score (" + state.colours[state.toMove] + "'s view)";
  }

  function formatCount(count) {
    if (typeof count !== "number") return "";
    if (count >= 1e6) return (count / 1e6).toFixed(1) + " M";
    if (count >= 1e3) return (count / 1e3).toFixed(1) + " k";
    return String(count);
  }

  function showLines() {
    const body = $("lines").querySelector("tbody");
    body.replaceChildren();
    Array.from(app.lines.keys()).sort(function (a, b) { return a - b; }).forEach(function (number) {
      const line = app.lines.get(number);
      const row = document.createElement("tr");
      row.dataset.multipv = number;
      row.dataset.depth = line.depth;
      [String(number), line.depth + "/" + line.seldepth, PodiumViews.formatScore(line.score), formatCount(line.nodes),
       PodiumViews.formatTime(line.time), line.pv.join(" ")].forEach(function (text, index) {
        const cell = document.createElement("td");
        cell.textContent = text;
        if (index === 5) cell.className = "pv";
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    if (!app.lines.size) drawLine([]);
    showAnalysis();
  }

  // The best line's first moves on the board: arrows, rings where a piece is put, numbered.
  function drawLine(marks) {
    const svg = boardSvg();
    if (!svg) return;
    const layer = svg.querySelector("g.pv");
    layer.replaceChildren();
    const colours = LINE_COLOURS[app.state.game];
    const centre = function (point) {
      const element = svg.querySelector('[data-point="' + point + '"]');
      const found = element && /translate\\(([-\\d.]+)[ ,]+([-\\d.]+)\\)/.exec(element.getAttribute("transform"));
      return found ? [Number(found[1]), Number(found[2])] : null;
    };
    marks.forEach(function (mark) {
      if (mark.pass || !mark.to) return;
      const to = centre(mark.to);
      if (!to) return;
      const colour = colours[mark.seat] || "#333";
      const group = svgElement(layer, "g", {opacity: [0.9, 0.72, 0.58, 0.48][mark.n - 1] || 0.4,
                                            "data-n": mark.n});
      const from = mark.from ? centre(mark.from) : null;
      let badge = [to[0] - 17, to[1] + 17];
      if (from) {
        const dx = to[0] - from[0], dy = to[1] - from[1], length = Math.hypot(dx, dy) || 1;
        const ux = dx / length, uy = dy / length;
        const tip = [to[0] - ux * 8, to[1] - uy * 8], base = [tip[0] - ux * 16, tip[1] - uy * 16];
        const tail = [from[0] + ux * 12, from[1] + uy * 12];
        svgElement(group, "path", {"class": "pv-arrow", stroke: colour,
                                   d: "M" + tail[0] + " " + tail[1] + "L" + base[0] + " " + base[1]});
        svgElement(group, "path", {fill: colour, d: "M" + tip[0] + " " + tip[1] + "L" + (base[0] - uy * 10) + " " +
                                   (base[1] + ux * 10) + "L" + (base[0] + uy * 10) + " " + (base[1] - ux * 10) + "Z"});
        badge = tail;
      } else {
        svgElement(group, "circle", {"class": "pv-ring", stroke: colour, cx: to[0], cy: to[1], r: 22});
        if (mark.piece) {
          svgElement(group, "text", {"class": "pv-piece", fill: colour, x: to[0] + 17, y: to[1] - 14}, mark.piece);
        }
      }
      svgElement(group, "circle", {"class": "pv-badge", fill: colour, cx: badge[0], cy: badge[1], r: 8});
      svgElement(group, "text", {"class": "pv-number", x: badge[0], y: badge[1] + 4}, String(mark.n));
    });
  }

  // -- the controls

  $("analyse").addEventListener("click", function () { $("analyse").blur(); toggleAnalysis(); });
  $("multipv").addEventListener("change", function () {
    if (app.state) act("analysis", {on: app.state.analysis.on, multipv: Number($("multipv").value)});
  });
  $("game").addEventListener("change", showSetupFields);
  // A choice made, the keys are the board's again (Space would open the list otherwise).
  for (const select of document.querySelectorAll("select")) {
    select.addEventListener("change", function () { select.blur(); });
  }
  $("setup").addEventListener("submit", function (event) {
    event.preventDefault();
    const game = $("game").value;
    const body = game === "poldr" ?
        {game: game, players: Number($("players").value), size: Number($("size").value),
         bricks: Number($("bricks").value)} :
        {game: game, rotation: Number($("rotation").value)};
    act("new", body);
  });
  $("paste").addEventListener("submit", function (event) {
    event.preventDefault();
    const variant = $("game").value === "advanced" ? "advanced" : "standard";
    act("position", {position: $("position-input").value, variant: variant});
  });
  for (const button of document.querySelectorAll(".controls button")) {
    button.addEventListener("click", function () {
      button.blur();
      const state = app.state;
      if (!state) return;
      const plies = {first: 0, back: state.ply - 1, forward: state.ply + 1, last: state.moves.length};
      goto(plies[button.dataset.step]);
    });
  }

  function copy(text, button) {
    const done = function () {
      const label = button.textContent;
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = label; }, 1200);
    };
    const fallback = function () {
      const area = $("clipboard");
      area.value = text;
      area.select();
      try { document.execCommand("copy"); done(); } catch (error) { showError("copy: select the text and copy it"); }
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  }
  $("copy-fen").addEventListener("click", function () { copy($("fen").textContent, $("copy-fen")); });
  $("copy-moves").addEventListener("click", function () { copy($("moves-text").textContent, $("copy-moves")); });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const state = app.state;
    if (!state) return;
    const actions = {
      " ": toggleAnalysis,
      ArrowLeft: function () { goto(state.ply - 1); },
      ArrowRight: function () { goto(state.ply + 1); },
      Home: function () { goto(0); },
      End: function () { goto(state.moves.length); },
      Escape: function () { app.selection = []; highlight(); }
    };
    if (!actions[event.key]) return;
    event.preventDefault();
    actions[event.key]();
  });

  start();
})();
"""
