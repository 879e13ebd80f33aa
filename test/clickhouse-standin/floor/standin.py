"""The stand-in's HTTP protocol (../README.md) over the production floor's engine.

PyPI's chdb==3.0.1 is ClickHouse 24.8.4.1 compiled as a library, the oldest server devtrail
supports (docs/deployment.md#clickhouse-version). This serves it exactly as src/*.ts serves
today's chDB, so the suites that `make test` runs against the floor (vitest.config.ts, project
"floor") send the same requests to it: GET /ping, SQL in the body or in `query` plus the body,
`database`, `query_id`, `param_*`; any other parameter is refused (NOT_IMPLEMENTED). The
engine keeps its shipped defaults except the few that clickhouse-local sets unlike a server
(../src/server-behaviour.json, shared with the Node stand-in).

Environment: CLICKHOUSE_STANDIN_PORT (18124), CLICKHOUSE_STANDIN_HOST (127.0.0.1),
CLICKHOUSE_STANDIN_DATA (.devtrail/clickhouse-floor).
"""

import json
import os
import re
import signal
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from chdb import session

BEHAVIOUR = json.loads((Path(__file__).resolve().parent.parent / "src" / "server-behaviour.json").read_text())
STATUS = {code: int(status) for status, codes in BEHAVIOUR["httpStatus"].items() for code in codes}
HANDLED = {"query", "query_id", "database"}
# The settings devtrail's reads send (libs/column-store/src/read-limits.ts), applied as the
# statement's SETTINGS clause as src/query-settings.ts does; any other is refused.
HONOURED_SETTINGS = ("readonly", "max_execution_time", "max_rows_to_read", "max_bytes_to_read", "priority")


def with_settings(sql, settings):
    """The SQL with a SETTINGS clause of whole-number settings; unchanged without settings."""
    if not settings:
        return sql
    for key, value in settings.items():
        if not re.fullmatch(r"\d{1,19}", value):
            raise StandinError(69, "ARGUMENT_OUT_OF_BOUND", f"setting {key} takes a whole number here, not '{value}'")
    return re.sub(r"[\s;]+$", "", sql) + "\nSETTINGS " + ", ".join(f"{k} = {v}" for k, v in settings.items())
ERROR = re.compile(r"Code: (\d+)\. DB::Exception: ([\s\S]*?)\.? \(([A-Z][A-Z0-9_]*)\)\s*$")


class StandinError(Exception):
    def __init__(self, code, name, message):
        super().__init__(message)
        self.code, self.name, self.message = code, name, message


def from_engine_error(error):
    """chdb's `Code: N. DB::Exception: <message>. (NAME)` as the parts a server reports."""
    if isinstance(error, StandinError):
        return error
    text = str(error).strip()
    start = text.find("Code: ")
    m = ERROR.search(text[start:]) if start >= 0 else None
    if not m:
        return StandinError(1001, "STD_EXCEPTION", text)
    return StandinError(int(m.group(1)), m.group(3), m.group(2))


def sql_string(text):
    """A SQL string literal whose value is `text`."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


class Engine:
    """The one chDB session of this process; statements run one at a time in arrival order."""

    def __init__(self, data_dir):
        os.makedirs(data_dir, exist_ok=True)
        self.session = session.Session(data_dir)
        self.lock = threading.Lock()
        self.version = self.session.query("SELECT version()", "TabSeparatedRaw").bytes().decode().strip()
        for name, value in BEHAVIOUR["serverDefaults"].items():
            try:
                self.session.query(f"SET {name} = {sql_string(value)}")
            except RuntimeError as error:
                # A setting newer than this engine: its server default is this engine's behaviour.
                if from_engine_error(error).code != 115:
                    raise

    def run(self, sql, database, params):
        with self.lock:
            self.session.query(f"USE `{database.replace('`', '``')}`")
            # A bound parameter, as the client wrote it (the engine's escaped text), lasts for the
            # session: a statement reads only those it names, and every request sets its own.
            for name, value in params.items():
                self.session.query(f"SET param_{name} = {sql_string(value)}")
            return self.session.query(sql, "TabSeparated").bytes()

    def close(self):
        with self.lock:
            self.session.close()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # A server's keep_alive_timeout: longer than clickhouse-js keeps idle sockets (2.5 s).
    timeout = 10
    engine = None

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.handle_request()

    def do_POST(self):
        self.handle_request()

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";", 1)[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def answer(self, status, body, headers):
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_request(self):
        url = urlsplit(self.path)
        body = self.read_body()
        if url.path == "/ping":
            return self.answer(200, b"Ok.\n", {"Content-Type": "text/plain; charset=UTF-8"})
        query_params = parse_qsl(url.query, keep_blank_values=True)
        args = dict(query_params)
        query_id = args.get("query_id") or str(uuid.uuid4())
        try:
            params, settings = {}, {}
            for key, value in query_params:
                if key.startswith("param_"):
                    params[key[len("param_") :]] = value
                elif key in HONOURED_SETTINGS:
                    settings[key] = value
                elif key not in HANDLED:
                    raise StandinError(48, "NOT_IMPLEMENTED", f"The stand-in applies no settings or HTTP options but {', '.join(HONOURED_SETTINGS)} (got '{key}')")
            encoding = self.headers.get("Content-Encoding")
            if encoding and encoding != "identity":
                raise StandinError(48, "NOT_IMPLEMENTED", f"The stand-in takes uncompressed bodies only (got '{encoding}')")
            text = body.decode("utf-8")
            query = args.get("query")
            # The server reads the `query` parameter, a line break, then the body.
            sql = (f"{query}\n{text}" if text else query) if query else text
            insert = text if query and re.match(r"^\s*INSERT\b", query, re.I) else ""
            if query and settings:
                raise StandinError(48, "NOT_IMPLEMENTED", "The stand-in applies settings to statements in the body only, not to an INSERT with rows")
            out = self.engine.run(with_settings(sql, settings), args.get("database") or "default", params)
            rows = len([line for line in insert.split("\n") if line.strip()])
            size = len(insert.encode())
            summary = {"read_rows": "0", "read_bytes": "0", "written_rows": str(rows), "written_bytes": str(size), "total_rows_to_read": "0"}
            summary.update({"result_rows": str(rows), "result_bytes": str(size), "elapsed_ns": "0"})
            self.answer(200, out, {"X-ClickHouse-Query-Id": query_id, "X-ClickHouse-Summary": json.dumps(summary)})
        except Exception as error:  # noqa: BLE001 - every failure is answered as a server answers it
            e = from_engine_error(error)
            text = f"Code: {e.code}. DB::Exception: {e.message}. ({e.name}) (version {self.engine.version})\n"
            status = STATUS.get(e.code, 500)
            sys.stderr.write(f"clickhouse-standin-floor: {status} query_id={query_id}: {text}")
            headers = {"Content-Type": "text/plain; charset=UTF-8", "X-ClickHouse-Query-Id": query_id, "X-ClickHouse-Exception-Code": str(e.code)}
            self.answer(status, text.encode(), headers)


def main():
    port = int(os.environ.get("CLICKHOUSE_STANDIN_PORT", "18124"))
    host = os.environ.get("CLICKHOUSE_STANDIN_HOST", "127.0.0.1")
    data_dir = os.environ.get("CLICKHOUSE_STANDIN_DATA", ".devtrail/clickhouse-floor")
    Handler.engine = Engine(data_dir)
    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True

    def stop(signum, _frame):
        sys.stderr.write(f"clickhouse-standin-floor: {signal.Signals(signum).name}, shutting down\n")
        threading.Thread(target=server.shutdown).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    sys.stderr.write(f"clickhouse-standin-floor: ClickHouse HTTP interface on http://{host}:{server.server_address[1]} (chDB {Handler.engine.version}, data in {data_dir})\n")
    sys.stderr.flush()
    server.serve_forever()
    server.server_close()
    Handler.engine.close()


if __name__ == "__main__":
    main()
