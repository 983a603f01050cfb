#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time, seeded with tests/data (the corpus of real dumps included).
# Usage: run-fuzzers.sh FUZZ_BUILD_DIR SECONDS_PER_TARGET
set -uo pipefail
build=$1
seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
corpus="${FXSCOPE_CORPUS_DIR:-$root/tests/data/corpus}"  # the same path twice is one seed (named by its hash)
seeds="$build/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
# Small seeds only: libFuzzer mutates small inputs far faster than the 2.6 MB HRNet dump.
find "$corpus" "$root/tests/data" "$root/resources/samples" -type f -size -64k 2>/dev/null \
  | grep -v -E 'README|SOURCES' | while read -r f; do cp "$f" "$seeds/$(echo "$f" | md5sum | cut -c1-12)-$(basename "$f")"; done

passed=0
failed=0
for fuzzer in "$build"/bin/fuzz_*; do
  name=$(basename "$fuzzer")
  work="$build/corpus-$name"
  mkdir -p "$work" "$build/crashes"
  log="$build/$name.log"
  if "$fuzzer" "$work" "$seeds" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
       -print_final_stats=1 -artifact_prefix="$build/crashes/$name-" >"$log" 2>&1; then
    runs=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    echo "fuzz ok   $name: ${runs:-?} inputs in ${seconds}s"
    passed=$((passed + 1))
  else
    echo "fuzz FAIL $name (log: $log)"
    grep -m20 -E 'ERROR|SUMMARY|#0|#1|#2|#3' "$log" | sed 's/^/    /'
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
