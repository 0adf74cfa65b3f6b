"""The analysis board's web server (board.py has the sessions): the page and its script, a JSON
request for each thing the page does, and a stream of Server-Sent Events per page for the engine's
lines. It answers pages of its own host only (Host and Origin are checked on loopback), with a
strict Content-Security-Policy; a request it cannot carry out is an error in JSON, never the end of
the server; an engine that fails is replaced."""

from __future__ import annotations

import json
import queue
import sys
import threading
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Sequence
from urllib.parse import parse_qs, urlsplit

from .board import GAMES, MOST_LINES, ROTATIONS, Sessions, Setup
from .board_notation import (LONGEST_POSITION, MOST_MOVES, BoardError, choice_field, text_field,
                             whole_field)
from .board_page import BOARD_CSS, BOARD_HTML
from .board_script import BOARD_JS
from .client import Engine
from .errors import EngineError, PodiumError
from .records import RecordsFile, open_records_file
from .replay import default_engine_command

LONGEST_BODY = 64 * 1024  # bytes of a request's JSON
HEARTBEAT = 2.0  # seconds between two messages of an events stream, so a page gone is noticed


# -- the web server


class BoardServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], sessions: Sessions, log: Callable[[str], None] | None = None):
        self.sessions = sessions
        self.log = log or (lambda message: None)
        self.closing = threading.Event()
        super().__init__(address, BoardHandler)
        host, port = self.server_address[:2]
        self.loopback = host in ("127.0.0.1", "::1", "localhost") or host.startswith("127.")
        names = {host, "127.0.0.1", "localhost", "[::1]"} if self.loopback else set()
        self.allowed_hosts = {f"{name}:{port}" for name in names}
        self._reaper = threading.Thread(target=self._reap, name="board reaper", daemon=True)
        self._reaper.start()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"

    def _reap(self) -> None:
        while not self.closing.wait(5.0):
            try:
                self.sessions.reap()
            except Exception:  # noqa: BLE001 - the reaper must outlive any one session's trouble
                self.log(traceback.format_exc())

    def shutdown(self) -> None:
        self.closing.set()
        self.sessions.close_all()
        super().shutdown()


class BoardHandler(BaseHTTPRequestHandler):
    server: BoardServer
    server_version = "PodiumBoard"
    sys_version = ""

    STATIC = {"/": ("text/html; charset=utf-8", BOARD_HTML), "/board.js": ("text/javascript; charset=utf-8", BOARD_JS),
              "/board.css": ("text/css; charset=utf-8", BOARD_CSS)}
    ACTIONS = ("session", "new", "position", "move", "goto", "analysis", "record", "close", "state")

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        self.server.log(f"{self.address_string()} {format % args}")

    # -- answers

    def _headers(self, status: int, content_type: str, length: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                         "script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
                         "frame-ancestors 'none'")
        self.end_headers()

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self._headers(status, content_type, len(body))
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, answer: dict) -> None:
        self._send(status, "application/json", json.dumps(answer).encode("utf-8"))

    def _refuse(self, status: int, message: str) -> None:
        self._json(status, {"ok": False, "error": message})

    def _host_allowed(self) -> bool:
        """On loopback, only pages of this server: another site's page cannot reach it through a
        name of its own that points here."""
        if not self.server.loopback:
            return True
        return self.headers.get("Host", "") in self.server.allowed_hosts

    # -- requests

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if not self._host_allowed():
            return self._refuse(HTTPStatus.MISDIRECTED_REQUEST, "unknown host")
        url = urlsplit(self.path)
        if url.path in self.STATIC:
            content_type, text = self.STATIC[url.path]
            return self._send(HTTPStatus.OK, content_type, text.encode("utf-8"))
        if url.path == "/api/events":
            return self._events(parse_qs(url.query).get("session", [""])[0])
        if url.path == "/favicon.ico":
            return self._send(HTTPStatus.NO_CONTENT, "text/plain", b"")
        return self._refuse(HTTPStatus.NOT_FOUND, "not found")

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        if not self._host_allowed():
            return self._refuse(HTTPStatus.MISDIRECTED_REQUEST, "unknown host")
        origin = self.headers.get("Origin")
        if origin is not None and origin != f"http://{self.headers.get('Host', '')}":
            return self._refuse(HTTPStatus.FORBIDDEN, "requests come from the board's own page only")
        if not self.headers.get("Content-Type", "").startswith("application/json"):
            return self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "expected JSON")
        action = urlsplit(self.path).path.removeprefix("/api/")
        if action not in self.ACTIONS:
            return self._refuse(HTTPStatus.NOT_FOUND, "not found")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._refuse(HTTPStatus.LENGTH_REQUIRED, "expected a Content-Length")
        if not 0 <= length <= LONGEST_BODY:
            return self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request too large")
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError):
            return self._refuse(HTTPStatus.BAD_REQUEST, "expected a JSON object")
        if not isinstance(body, dict):
            return self._refuse(HTTPStatus.BAD_REQUEST, "expected a JSON object")
        try:
            answer = self._act(action, body)
        except BoardError as error:
            return self._refuse(HTTPStatus.BAD_REQUEST, str(error))
        except EngineError as error:
            return self._refuse(HTTPStatus.BAD_REQUEST, f"the engine refused: {error}")
        except PodiumError as error:  # the engine failed: a fresh one takes its place
            self.server.log(f"board: engine trouble: {error}")
            message = f"the engine failed ({error}): it was restarted"
            try:
                self.server.sessions.get(body.get("session")).recover()
            except PodiumError as again:
                message = f"the engine failed ({error}) and could not be restarted ({again}): reload the page"
            return self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR, message)
        except Exception:  # noqa: BLE001 - one request's bug is an error on the page, not the end of the server
            self.server.log(traceback.format_exc())
            return self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error (see the server's output)")
        return self._json(HTTPStatus.OK, {"ok": True, **answer})

    def _act(self, action: str, body: dict) -> dict:
        sessions = self.server.sessions
        if action == "session":
            session = sessions.create()
            return {"session": session.id, "state": session.state(), "records": sessions.records_index(),
                    "limits": {"multipv": MOST_LINES}}
        session = sessions.get(body.get("session"))
        if action == "close":
            sessions.close(session.id)
            return {}
        if action == "state":
            return {"state": session.state()}
        if action == "new":
            game = choice_field(body, "game", GAMES)
            if game == "poldr":
                setup = Setup("poldr", players=whole_field(body, "players", 2, 3), size=whole_field(body, "size", 4, 9),
                              bricks=whole_field(body, "bricks", 1, 40))
            else:
                setup = Setup(game, rotation=choice_field(body, "rotation", ROTATIONS))
            return {"state": session.new_game(setup)}
        if action == "position":
            variant = choice_field(body, "variant", ("standard", "advanced"))
            return {"state": session.set_position(text_field(body, "position", LONGEST_POSITION + 20 * MOST_MOVES),
                                                  variant)}
        if action == "move":
            return {"state": session.play(text_field(body, "move", 16))}
        if action == "goto":
            return {"state": session.goto(whole_field(body, "ply", 0, 1_000_000))}
        if action == "analysis":
            on = body.get("on")
            if not isinstance(on, bool):
                raise BoardError("on: expected true or false")
            return {"state": session.set_analysis(on, whole_field(body, "multipv", 1, MOST_LINES))}
        if action == "record":
            ply = None if body.get("ply") is None else whole_field(body, "ply", 0, 1_000_000)
            return {"state": session.load_record(whole_field(body, "file", 0, 10_000),
                                                 whole_field(body, "game", 1, 10_000_000), ply)}
        raise BoardError("not found")

    def _events(self, session_id: str) -> None:
        """The session's events as Server-Sent Events, a comment every HEARTBEAT seconds between
        them; when the page is gone (a write fails) and no other stream watches, the search stops."""
        try:
            session = self.server.sessions.get(session_id)
        except BoardError as error:
            return self._refuse(HTTPStatus.NOT_FOUND, str(error))
        stream = session.subscribe()
        try:
            self._headers(HTTPStatus.OK, "text/event-stream")
            self.wfile.write(b"retry: 3000\n\n")
            self.wfile.flush()
            while not self.server.closing.is_set():
                try:
                    event = stream.get(timeout=HEARTBEAT)
                except queue.Empty:
                    payload = ": still here\n\n"
                else:
                    if event is None:
                        break
                    payload = f"data: {json.dumps(event)}\n\n"
                self.wfile.write(payload.encode("utf-8"))
                self.wfile.flush()
        except OSError:  # the page went away
            pass
        finally:
            if session.unsubscribe(stream) and not session.closed:
                session.stop_search()
                self.server.log(f"board: session {session.id[:6]}: no page watches it: its search is stopped")


# -- starting it


def records_files(paths: Sequence[str]) -> list[RecordsFile]:
    """The records files named on the command line, read once and checked by records.py (older
    records read into today's schema): a file that cannot be read, or a record that cannot be used,
    is a UsageError of one line naming the file (and the line and game), said at start-up."""
    return [open_records_file(path) for path in paths]


def serve(host: str = "127.0.0.1", port: int = 8765, command: Sequence[str] | None = None,
          records: Sequence[str] = (), options: dict[str, object] | None = None, limit: int = 8,
          ready: Callable[[BoardServer], None] | None = None, log: Callable[[str], None] | None = None) -> None:
    """Serves the board until interrupted (Ctrl-C), then closes every engine."""
    command = list(command or default_engine_command())
    with Engine(command):  # the engine starts, or this says why at once
        pass
    sessions = Sessions(command, records_files(records), options or {}, limit=limit)
    server = BoardServer((host, port), sessions, log)
    if ready is not None:
        ready(server)
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        server.closing.set()
        sessions.close_all()
        server.server_close()


def stderr_log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
