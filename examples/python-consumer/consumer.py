"""A devtrail consumer in Python: reads devtrail's Kafka topics in a consumer group of its own,
validates every message against devtrail's published JSON Schema, and counts events by kind,
each event once (delivery is at least once: de-duplicate by event_id).

    python consumer.py --schemas http://127.0.0.1:3000/schemas --group my-loader --until-end

Libraries: confluent-kafka (librdkafka) and jsonschema, from PyPI (requirements.txt).
The contract it relies on is docs/topics.md: topics <prefix><name> (the names are in the
schemas' index.json), the dt-* headers, and the envelope of each schema version.
"""

import argparse
import json
import sys
import urllib.request
from datetime import datetime
from pathlib import Path

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, TopicPartition
from jsonschema import Draft202012Validator, FormatChecker


def load_schemas(where):
    """The index and a validator per message version, from the receiver (/schemas) or a folder (docs/schemas)."""

    def get(name):
        if where.startswith(("http://", "https://")):
            base = where.rstrip("/")
            with urllib.request.urlopen(base if name == "index.json" else f"{base}/{name}", timeout=10) as r:
                return json.load(r)
        return json.loads((Path(where) / name).read_text())

    index = get("index.json")
    validators = {}
    for version, file in index["envelopes"].items():
        schema = get(file)
        Draft202012Validator.check_schema(schema)
        validators[int(version)] = Draft202012Validator(schema, format_checker=FormatChecker())
    return index, validators


def start_offsets(consumer, partitions, start):
    """Where each newly assigned partition starts: the group's commit, the oldest message, or a time."""
    if start == "earliest":
        for p in partitions:
            p.offset = OFFSET_BEGINNING
    elif start != "committed":
        ms = int(datetime.fromisoformat(start.replace("Z", "+00:00")).timestamp() * 1000)
        partitions = consumer.offsets_for_times([TopicPartition(p.topic, p.partition, ms) for p in partitions], timeout=10)
    return partitions


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brokers", default="127.0.0.1:19092")
    ap.add_argument("--prefix", default="devtrail.", help="devtrail's KAFKA_TOPIC_PREFIX")
    ap.add_argument("--kinds", default="log,error,span,llm")
    ap.add_argument("--group", default="python-example", help="your own consumer group")
    ap.add_argument("--schemas", default=str(Path(__file__).resolve().parents[2] / "docs" / "schemas"), help="a receiver's /schemas URL or a folder")
    ap.add_argument("--from", dest="start", default="committed", help="committed (resume the group), earliest, or an ISO 8601 time")
    ap.add_argument("--project", help="count only this project's events (dt-project-id header)")
    ap.add_argument("--until-end", action="store_true", help="stop at the end of every partition instead of waiting for more")
    ap.add_argument("--idle-seconds", type=float, default=60, help="stop after this long without a message")
    args = ap.parse_args()

    index, validators = load_schemas(args.schemas)
    kinds = args.kinds.split(",")
    topics = [args.prefix + index["topics"][k] for k in kinds]
    consumer = Consumer(
        {
            "bootstrap.servers": args.brokers,
            "group.id": args.group,
            "enable.auto.commit": False,  # commit after processing: at least once
            "auto.offset.reset": "earliest",
            "enable.partition.eof": True,
        }
    )
    assigned, at_end = set(), set()

    def on_assign(c, partitions):
        assigned.update((p.topic, p.partition) for p in partitions)
        c.assign(start_offsets(c, partitions, args.start))

    consumer.subscribe(topics, on_assign=on_assign)
    seen = {k: set() for k in kinds}
    summary = {"messages": 0, "events": {}, "duplicates": 0, "invalid": [], "other_projects": 0}
    idle = 0.0
    try:
        while not (args.until_end and assigned and at_end >= assigned) and idle < args.idle_seconds:
            m = consumer.poll(0.5)
            if m is None:
                idle += 0.5
                continue
            if m.error():
                if m.error().code() == KafkaError._PARTITION_EOF:
                    at_end.add((m.topic(), m.partition()))
                    continue
                raise RuntimeError(m.error())
            idle = 0.0
            at_end.discard((m.topic(), m.partition()))
            summary["messages"] += 1
            headers = {k: v.decode() for k, v in (m.headers() or [])}
            if args.project and headers.get("dt-project-id") != args.project:
                summary["other_projects"] += 1
                continue
            value = json.loads(m.value())
            version = int(headers.get("dt-schema-version", value.get("schema_version", 0)))
            errors = [e.message for e in validators[version].iter_errors(value)] if version in validators else [f"unknown schema version {version}"]
            if errors:
                summary["invalid"].append({"topic": m.topic(), "offset": m.offset(), "errors": errors[:3]})
                continue
            # Version 2: a request's batch of events; version 1: one event.
            events = value["events"] if version >= 2 else [{"event_id": value["event_id"], "data": value["data"]}]
            ids = seen[value["kind"]]
            for e in events:
                if e["event_id"] in ids:
                    summary["duplicates"] += 1
                ids.add(e["event_id"])
            if summary["messages"] % 1000 == 0:
                consumer.commit(asynchronous=True)
    finally:
        if summary["messages"]:
            consumer.commit(asynchronous=False)  # what was processed; a restart resumes after it
        consumer.close()
    summary["events"] = {k: len(v) for k, v in seen.items()}
    json.dump(summary, sys.stdout)
    print()
    return 1 if summary["invalid"] else 0


if __name__ == "__main__":
    sys.exit(main())
