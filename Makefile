# devtrail: top-level tasks. The local stack (PostgreSQL, Kafka, ClickHouse stand-in) runs on
# loopback from deploy/scripts/*.sh; state, logs and pid files live in .devtrail/ (git-ignored).
# See docs/local-stack.md.

SHELL := /bin/bash
.DEFAULT_GOAL := help

SCRIPTS := deploy/scripts

.PHONY: help install node-runtime node-modules kafka-jars postgres-package \
        services-up services-down services-status services-env \
        cluster-up cluster-down cluster-status cluster-env

help:
	@echo "make install          Node.js 22 when the machine's node is older, npm install (when node_modules is missing or stale), Kafka jars, postgresql-15, schemathesis, the Next.js test app's packages, helm and kubeconform, the consumer kit's dependencies in npm's cache, the Python consumer example's venv, the ClickHouse floor's venv (chdb==3.0.1)"
	@echo "make services-up      start PostgreSQL :15432, Kafka :19092, ClickHouse stand-in :18123 and wait"
	@echo "make services-down    stop them (data is kept in .devtrail/)"
	@echo "make services-status  exit 0 only when all three answer"
	@echo "make services-env     print KAFKA_BROKERS, CLICKHOUSE_URL, DATABASE_URL for the local stack"
	@echo "make cluster-up       start a three-node Kafka cluster :29092-29094 (RF 3, min ISR 2) beside the stack"
	@echo "make cluster-down     stop it (data is kept in .devtrail/kafka-cluster/)"
	@echo "make cluster-status   exit 0 only when all three brokers run and are in the cluster"
	@echo "make cluster-env      print KAFKA_BROKERS and KAFKA_REPLICATION_FACTOR for the cluster"
	@echo "make check            formatting, lint rules and types (Biome, tsc)"
	@echo "make test             make check, then every suite against the local stack"

# The parts side by side (install-all.sh); apt-get installs wait for one another (common.sh).
install: node-modules
	@$(SCRIPTS)/install-all.sh

# npm install only when node_modules is missing or older than package-lock.json
node-modules: node-runtime
	@$(SCRIPTS)/services.sh node-modules

# Node.js 22 from the npm registry when the machine's node is older (deploy/scripts/node.sh)
node-runtime:
	@$(SCRIPTS)/node.sh install

kafka-jars:
	@$(SCRIPTS)/kafka.sh install

postgres-package:
	@$(SCRIPTS)/postgres.sh install

services-up:
	@$(SCRIPTS)/services.sh up

services-down:
	@$(SCRIPTS)/services.sh down

services-status:
	@$(SCRIPTS)/services.sh status

services-env:
	@$(SCRIPTS)/services.sh env

# Three-node Kafka (docs/local-stack.md); the single broker above stays the dev default.
cluster-up:
	@$(SCRIPTS)/kafka-cluster.sh up

cluster-down:
	@$(SCRIPTS)/kafka-cluster.sh down

cluster-status:
	@$(SCRIPTS)/kafka-cluster.sh status

cluster-env:
	@$(SCRIPTS)/kafka-cluster.sh env

# --- targets below owned by the app team ---

.PHONY: test check start bench openapi

# Static checks, then every suite against the real stack (starts it if it is not running).
test:
	@$(SCRIPTS)/test.sh

# Formatting, lint rules and types only (Biome, tsc); no stack needed.
check:
	@$(SCRIPTS)/check.sh

# The embedded one-process mode (no servers needed).
start: node-modules
	@npm start

bench:
	@npm run bench
