"""A devtrail consumer in Python: reads devtrail's Kafka topics in a consumer group of its own,
validates every event against devtrail's published JSON Schema, and counts events by kind, each
event once, exactly, across crashes and restarts.

    python consumer.py --schemas http://127.0.0.1:3000/schemas --group my-loader --until-end

Exact counts: delivery is at least once (a retry, a replay, a crash between processing and a
commit), so what it counted and where it is in each partition are kept together, in one SQLite
transaction per batch (--state). On a partition's assignment it resumes from the position in its
own state, not from Kafka's committed offset, which it also commits, for lag monitoring only.
A crash at any point replays at most the batch that was not committed, and the event ids already
in the state are not counted again.

What it cannot read goes to the group's own dead-letter topic (<group>.dlq): a message that is not
an envelope of a version it knows, whole; an event whose data fails its kind's schema, alone, as a
message of its own (the others of its message are counted).

Libraries: confluent-kafka (librdkafka) and jsonschema, from PyPI (requirements.txt).
The contract it relies on is docs/topics.md: topics <prefix><name> (the names are in the
schemas' index.json), the dt-* headers, the envelope of each schema version, each kind's event.
"""

import argparse
import json
import os
import sqlite3
import sys
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from jsonschema import Draft202012Validator, FormatChecker


def load_schemas(where):
    """The index, and per message version and kind a validator of the message's top and one of an event, from a receiver (/schemas) or a folder (docs/schemas)."""

    def get(name):
        if where.startswith(("http://", "https://")):
            with urllib.request.urlopen(f"{where.rstrip('/')}/{name}", timeout=10) as r:
                return json.load(r)
        return json.loads((Path(where) / name).read_text())

    def validator(schema):
        Draft202012Validator.check_schema(schema)
        return Draft202012Validator(schema, format_checker=FormatChecker())

    index = get("index.json")
    validators = {}
    for version, file in index["envelopes"].items():
        root = get(file)
        for branch in root["anyOf"]:  # one branch per kind
            kind = branch["properties"]["kind"]["enum"][0]
            alone = lambda s, root=root: validator({**s, "$defs": root.get("$defs", {})})  # noqa: E731
            if "events" in branch["properties"]:  # a batch: its top with the events left out, and each event
                top = {**branch, "properties": {**branch["properties"], "events": {"type": "array"}}}
                validators[(int(version), kind)] = (alone(top), alone(branch["properties"]["events"]["items"]), "events")
            else:  # one event per message: the message is the event
                validators[(int(version), kind)] = (None, alone(branch), None)
    # A request as sent (version 3): its kind is the dt-kind header, its facts are headers, and each
    # item of its records field is one event, whose id is in dt-event-ids.
    as_sent = index.get("as_sent")
    for kind, spec in (as_sent or {}).get("kinds", {}).items():
        root, records = get(spec["file"]), spec["records"]
        alone = lambda s, root=root: validator({**s, "$defs": root.get("$defs", {})})  # noqa: E731
        top = {k: v for k, v in root.items() if k != "$defs"}
        top = {**top, "properties": {**top["properties"], records: {"type": "array"}}}
        validators[(int(as_sent["version"]), kind)] = (alone(top), alone(root["properties"][records]["items"]), records)
    return index, validators, (as_sent or {}).get("version")


def event_ids(header, count):
    """The event ids of a version-3 message (docs/topics.md): one per event, or the first of a
    sequence whose next ids count up in the last 12 hex digits, modulo 2^48."""
    listed = (header or "").split(",")
    if len(listed) == count:
        return listed
    if len(listed) == 1 and len(listed[0]) == 36:
        first = listed[0]
        head, tail = first[:-12], int(first[-12:], 16)
        return [first] + [head + format((tail + i) % (1 << 48), "012x") for i in range(1, count)]
    raise ValueError(f"dt-event-ids names {len(listed)} ids for {count} events")


class State:
    """What was counted and how far each partition was processed, committed together (SQLite)."""

    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.executescript(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            CREATE TABLE IF NOT EXISTS seen (event_id TEXT PRIMARY KEY, kind TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS positions (topic TEXT, partition INTEGER, next_offset INTEGER, PRIMARY KEY (topic, partition));
            CREATE TABLE IF NOT EXISTS totals (name TEXT PRIMARY KEY, n INTEGER NOT NULL);
            """
        )

    def position(self, topic, partition):
        row = self.db.execute("SELECT next_offset FROM positions WHERE topic = ? AND partition = ?", (topic, partition)).fetchone()
        return row[0] if row else None

    def commit(self, events, positions, totals):
        """One transaction: the batch's new event ids, each partition's next offset, running totals. Returns the duplicates met."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            duplicates = 0
            for event_id, kind in events:
                if self.db.execute("INSERT OR IGNORE INTO seen (event_id, kind) VALUES (?, ?)", (event_id, kind)).rowcount == 0:
                    duplicates += 1
            self.db.executemany("INSERT OR REPLACE INTO positions VALUES (?, ?, ?)", [(t, p, o) for (t, p), o in positions.items()])
            for name, n in {**totals, "duplicates": duplicates}.items():
                self.db.execute("INSERT INTO totals VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET n = n + excluded.n", (name, n))
            self.db.execute("COMMIT")
            return duplicates
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def summary(self, kinds):
        counts = dict(self.db.execute("SELECT kind, count(*) FROM seen GROUP BY kind").fetchall())
        totals = dict(self.db.execute("SELECT name, n FROM totals").fetchall())
        return {"events": {k: counts.get(k, 0) for k in kinds}, **{k: totals.get(k, 0) for k in ("messages", "duplicates", "dead_letters", "other_projects")}}


def ensure_topic(brokers, topic):
    """The group's dead-letter topic, created when missing (devtrail's brokers do not create topics on first use)."""
    admin = AdminClient({"bootstrap.servers": brokers})  # kept until the result: its handle ends with it
    futures = admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=-1)])
    try:
        futures[topic].result(15)
    except KafkaException as e:
        if e.args[0].code() != KafkaError.TOPIC_ALREADY_EXISTS:
            raise


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brokers", default="127.0.0.1:19092")
    ap.add_argument("--prefix", default="devtrail.", help="devtrail's KAFKA_TOPIC_PREFIX")
    ap.add_argument("--kinds", help="comma-separated kinds to read (default: every kind the schemas' index names)")
    ap.add_argument("--group", default="python-example", help="your own consumer group; dead letters go to <group>.dlq")
    ap.add_argument("--schemas", default=str(Path(__file__).resolve().parents[2] / "docs" / "schemas"), help="a receiver's /schemas URL or a folder")
    ap.add_argument("--state", default="consumer-state.sqlite", help="the SQLite file holding counts and positions")
    ap.add_argument("--from", dest="start", default="earliest", help="where a partition this state has never read starts: earliest, latest, or an ISO 8601 time")
    ap.add_argument("--project", help="count only this project's events (dt-project-id header)")
    ap.add_argument("--batch", type=int, default=500, help="messages per batch (one state transaction each)")
    ap.add_argument("--until-end", action="store_true", help="stop at the end of every partition instead of waiting for more")
    ap.add_argument("--idle-seconds", type=float, default=60, help="stop after this long without a message")
    ap.add_argument("--progress", action="store_true", help="a line on stderr after each batch is committed")
    ap.add_argument("--crash-after-batches", type=int, help=argparse.SUPPRESS)  # the test's crash between our commit and Kafka's
    args = ap.parse_args()

    index, validators, as_sent_version = load_schemas(args.schemas)
    versions = {v for v, _ in validators}
    kinds = args.kinds.split(",") if args.kinds else list(index["topics"])
    topics = [args.prefix + index["topics"][k] for k in kinds]
    state = State(args.state)
    dead_letter_topic = f"{args.group}.dlq"
    consumer = Consumer(
        {
            "bootstrap.servers": args.brokers,
            "group.id": args.group,
            "enable.auto.commit": False,  # positions live in the state; Kafka's commit is for lag only
            "auto.offset.reset": "earliest",
            "enable.partition.eof": True,
            # A crashed member's partitions move to the others after this (librdkafka's default: 45 s).
            "session.timeout.ms": 10000,
            "heartbeat.interval.ms": 1000,
        }
    )
    producer = Producer({"bootstrap.servers": args.brokers, "acks": "all", "enable.idempotence": True})
    ensure_topic(args.brokers, dead_letter_topic)
    undelivered = []
    assigned, at_end = set(), set()

    def on_assign(c, partitions):
        assigned.update((p.topic, p.partition) for p in partitions)
        fresh = []
        for p in partitions:
            at = state.position(p.topic, p.partition)
            if at is not None:
                p.offset = at
            elif args.start == "earliest":
                p.offset = OFFSET_BEGINNING
            elif args.start != "latest":
                fresh.append(p)
        if fresh:
            ms = int(datetime.fromisoformat(args.start.replace("Z", "+00:00")).timestamp() * 1000)
            for t in c.offsets_for_times([TopicPartition(p.topic, p.partition, ms) for p in fresh], timeout=10):
                next(p for p in partitions if (p.topic, p.partition) == (t.topic, t.partition)).offset = t.offset
        c.assign(partitions)

    def on_revoke(c, partitions):
        assigned.difference_update((p.topic, p.partition) for p in partitions)

    consumer.subscribe(topics, on_assign=on_assign, on_revoke=on_revoke)
    invalid, batches, idle = [], 0, 0.0

    def dead_letter(m, value, reason, headers):
        h = {**headers, "dt-dlq-reason": reason[:1000], "dt-dlq-source-topic": m.topic(), "dt-dlq-source-partition": str(m.partition()),
             "dt-dlq-source-offset": str(m.offset()), "dt-dlq-consumer": args.group, "dt-dlq-at": datetime.now(timezone.utc).isoformat()}
        producer.produce(dead_letter_topic, key=m.key(), value=value, headers=list(h.items()), on_delivery=lambda err, _m: err and undelivered.append(err))
        invalid.append({"topic": m.topic(), "offset": m.offset(), "reason": reason})

    try:
        while not (args.until_end and assigned and at_end >= assigned) and idle < args.idle_seconds:
            messages = consumer.consume(args.batch, 0.5)
            if not messages:
                idle += 0.5
                continue
            idle = 0.0
            events, positions, totals = [], {}, {"messages": 0, "dead_letters": 0, "other_projects": 0}
            for m in messages:
                if m.error():
                    if m.error().code() == KafkaError._PARTITION_EOF:
                        at_end.add((m.topic(), m.partition()))
                        continue
                    raise RuntimeError(m.error())
                at_end.discard((m.topic(), m.partition()))
                positions[(m.topic(), m.partition())] = m.offset() + 1
                totals["messages"] += 1
                headers = {k: v.decode() for k, v in (m.headers() or [])}
                if args.project and headers.get("dt-project-id") != args.project:
                    totals["other_projects"] += 1
                    continue
                try:
                    version = int(headers.get("dt-schema-version", "0"))
                    value = json.loads(m.value())
                    version = version or int(value.get("schema_version", 0))
                except (ValueError, TypeError, AttributeError) as e:
                    dead_letter(m, m.value(), f"undecodable: not a JSON message ({e})", headers)
                    totals["dead_letters"] += 1
                    continue
                if version not in versions:
                    dead_letter(m, m.value(), f"undecodable: unknown schema version {version}", headers)
                    totals["dead_letters"] += 1
                    continue
                # A batch (version 2: its events; version 3: a request's records): its top is checked
                # alone, then each event: one bad event does not cost the others of its message (as
                # devtrail's own consumers do). Version 1: one event.
                as_sent = version == as_sent_version
                kind = headers.get("dt-kind") if as_sent else value.get("kind") if isinstance(value, dict) else None
                top, each, field = validators.get((version, kind), (None, None, None))
                batch = value.get(field) if top and isinstance(value, dict) else [value]
                top_errors = [e.message for e in top.iter_errors({**value, field: []})] if top and isinstance(value, dict) else []
                try:
                    ids = event_ids(headers.get("dt-event-ids"), len(batch)) if as_sent and isinstance(batch, list) else None
                except ValueError as e:
                    top_errors.append(str(e))
                if each is None or top_errors or not isinstance(batch, list):
                    dead_letter(m, m.value(), f"undecodable: {'; '.join(top_errors[:3]) or f'not a {version} envelope of a known kind'}", headers)
                    totals["dead_letters"] += 1
                    continue
                for i, e in enumerate(batch):
                    errors = [x.message for x in each.iter_errors(e)]
                    if errors:
                        letter = json.dumps({**value, field: [e]}).encode() if top else m.value()
                        one = {"dt-event-count": "1", **({"dt-event-ids": ids[i]} if as_sent else {})}
                        dead_letter(m, letter, f"undecodable: bad {kind} event: {'; '.join(errors[:3])}", {**headers, **one})
                        totals["dead_letters"] += 1
                        continue
                    events.append((ids[i] if as_sent else e["event_id"], kind))
            if totals["messages"] == 0:
                continue
            # Dead letters are durable before the state moves past their messages.
            if producer.flush(30) > 0 or undelivered:
                raise RuntimeError(f"dead letters not acknowledged by Kafka ({dead_letter_topic}): {undelivered[:1]}")
            state.commit(events, positions, totals)
            batches += 1
            if args.progress:
                print(f"committed batch {batches}: {totals['messages']} messages, {len(events)} events", file=sys.stderr, flush=True)
            if args.crash_after_batches and batches >= args.crash_after_batches:
                os._exit(3)  # after our commit, before Kafka's
            consumer.commit(offsets=[TopicPartition(t, p, o) for (t, p), o in positions.items()], asynchronous=True)
    finally:
        consumer.close()
    summary = state.summary(kinds)
    summary["invalid"] = invalid
    json.dump(summary, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
