"""The floor engine: ClickHouse 24.8.4.1 (PyPI's chdb==3.0.1) for the stand-in's server.

The stand-in's HTTP server (../src/floor-engine.ts) runs this as `python engine.py <data dir>`
and speaks JSON lines with it: a greeting {"version"} (or {"error"}) first, then for each
{"sql", "database", "params"} line one {"out": <output, base64>} or {"error": <the engine's
text>} line. Requests, settings, ordering and error bodies are the server's; this only runs
statements on the one chDB session of the process. End of stdin ends it.
"""

import base64
import json
import os
import signal
import sys

# The protocol owns stdin and stdout, on descriptors of its own: the engine reads an INSERT's
# data from standard input when the query has none inline (as clickhouse-local does), so fd 0
# becomes /dev/null, and anything the engine prints goes to stderr (the stand-in's log).
REQUESTS = os.fdopen(os.dup(0), "rb")
ANSWERS = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
os.dup2(2, 1)

from chdb import session  # noqa: E402 - after the protocol has its descriptors


def reply(message):
    ANSWERS.write(json.dumps(message) + "\n")
    ANSWERS.flush()


def sql_string(text):
    """A SQL string literal whose value is `text`."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def run(engine, request):
    engine.query(f"USE `{request['database'].replace('`', '``')}`")
    # chdb 3.0.1 binds no parameters: each is set as the client wrote it (the engine's escaped
    # text), which the engine parses as a server does. A setting lasts for the session, but a
    # statement reads only the parameters it names, and every request sets its own.
    for name, value in request["params"].items():
        engine.query(f"SET param_{name} = {sql_string(value)}")
    return engine.query(request["sql"], "TabSeparated").bytes()


def main():
    # The server stops first and then closes stdin; a signal to the whole process group
    # (clickhouse-floor.sh stop, Ctrl-C) is for the server, which finishes its statements here.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.makedirs(sys.argv[1], exist_ok=True)
        engine = session.Session(sys.argv[1])
        version = engine.query("SELECT version()", "TabSeparatedRaw").bytes().decode().strip()
    except Exception as error:  # noqa: BLE001 - the server reports it and does not start
        reply({"error": str(error)})
        return 1
    reply({"version": version})
    for line in REQUESTS:
        try:
            reply({"out": base64.b64encode(run(engine, json.loads(line))).decode("ascii")})
        except Exception as error:  # noqa: BLE001 - every failure is the statement's answer
            reply({"error": str(error)})
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
