#!/usr/bin/env bash
# Fuzzes the gateway's parsers with Jazzer, one @FuzzTest at a time, and prints executions and
# findings per target. The normal build only replays the committed seeds
# (src/test/resources/<package>/<Class>Inputs/<method>/); this runs libFuzzer on each for a set time.
#
#   bash bench/fuzz.sh                      # every target, 60 s each
#   DURATION=300 bash bench/fuzz.sh         # longer
#   bash bench/fuzz.sh 'SseEventReaderFuzzTest#eventsRelayTheStreamExactly'   # one target
#
# New interesting inputs go to .cifuzz-corpus/ (git-ignored) and are reused by the next run. A finding
# fails the test and is written as a crash file under src/test/resources/.../<Class>Inputs/<method>/;
# once the bug is fixed, commit that file so every build replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-60}
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(
    'FileRewriterFuzzTest#anyBytesAreRewrittenOrRefused'
    'FileRewriterFuzzTest#droppedColumnNeverSurvives'
    'MultipartReaderFuzzTest#anyBodyIsReadOrRefusedAsMalformed'
    'MultipartReaderFuzzTest#wellFormedBodiesReadBackExactly'
    'SseEventReaderFuzzTest#eventsRelayTheStreamExactly'
    'RequestWalkFuzzTest#bodiesAreWalkedOrRefused'
    'DomainNameFuzzTest#parsedNamesAreCanonical'
    'CodeReviewFuzzTest#anyCodeIsLexedAndReviewed'
    'ShellReviewFuzzTest#anyCommandIsLexedAndReviewed'
    'SecretScannerFuzzTest#findingsAreOrderedDisjointAndRedacted'
  )
fi
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64} PATH=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin:$PATH
./mvnw -o -q test-compile
log=$(mktemp)
trap 'rm -f "$log"' EXIT
printf '%-62s %12s %8s  %s\n' target executions seconds result
for target in "${TARGETS[@]}"; do
  status=ok
  JAZZER_FUZZ=1 JAZZER_MAX_DURATION=${DURATION}s ./mvnw -o -q surefire:test -Djazzer.hooks=true \
    -Dtest="$target" -Dsurefire.failIfNoSpecifiedTests=false >"$log" 2>&1 || status=FINDING
  done_line=$(grep -a '^Done [0-9]* runs in' "$log" | tail -1 || true)
  runs=$(awk '{print $2}' <<<"$done_line")
  seconds=$(awk '{print $5}' <<<"$done_line")
  printf '%-62s %12s %8s  %s\n' "$target" "${runs:-?}" "${seconds:-?}" "$status"
  if [ "$status" != ok ]; then
    grep -a -m5 -A15 'FAILURE\|Exception\|Error' "$log" | grep -av 'WARN: Failed to instrument' | head -40
  fi
done
