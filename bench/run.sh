#!/usr/bin/env bash
# Runs every benchmark (ingest, replay, rebuild, queries, memory) on the embedded MariaDB and Kafka,
# or on your servers (DLQDESK_IT_DB=host:port, DLQDESK_IT_KAFKA=host:port, as for the tests).
#   bench/run.sh            full run (the issue's sizes, 3 rounds)
#   bench/run.sh --quick    small sizes, 2 rounds, under 5 minutes here
#   bench/run.sh --instances    the service's runnable jar (app/target/app-<version>-exec.jar, packaged by the install
#                           below) as 1, 2 and 3 JVMs on one database and broker; merges key "instances" into latest.json
# Prints a markdown table; writes bench/results/latest.json. Never part of the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -pl bench -am install -DskipTests
exec ./mvnw -q -pl bench exec:java -Dexec.args="$*" -Dbench.results="$PWD/bench/results"
