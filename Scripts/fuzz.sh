#!/usr/bin/env bash
# Fuzzes Reconcile's decoders and parsers with libFuzzer and AddressSanitizer (Linux; the toolchain's swiftc builds it).
#
# Usage: Scripts/fuzz.sh TARGET SECONDS [LIBFUZZER-FLAG…]   fuzz TARGET for SECONDS from its committed corpus
#        Scripts/fuzz.sh all SECONDS                        every target in turn, SECONDS each
#        Scripts/fuzz.sh TARGET --replay FILE…              run inputs once under the sanitizer (to debug a crash)
#        Scripts/fuzz.sh TARGET --merge                     fold this machine's finds into Fuzz/Corpus/TARGET, minimised
#        Scripts/fuzz.sh --build                            build only
#        Scripts/fuzz.sh --list                             the target names
# RECONCILE_FUZZ_BUILD=DIR builds elsewhere than .build-fuzz (to build while another fuzzer runs).
#
# Targets (Fuzz/Harness/FuzzTarget.swift): system-fields, cloudkit-archive, wire-json, web-services, cloudkit-state,
# schema-version, playground-script, replay-script.
# The library sources are compiled into the fuzzer with coverage and ASan; nothing here touches SwiftPM's .build.
# Finds go to .build-fuzz/corpus/TARGET, crashes to .build-fuzz/crashes/TARGET. A crash becomes a regression: copy it
# into Fuzz/Regressions/TARGET (replayed by `swift test`) and add a test that names the bug.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(system-fields cloudkit-archive wire-json web-services cloudkit-state schema-version playground-script
  replay-script)
out=${RECONCILE_FUZZ_BUILD:-.build-fuzz}
binary=$out/reconcile-fuzz

build() {
  # Rebuild only when a source or this script is newer than the binary.
  if [[ -x "$binary" ]] && [[ -z "$(find Sources Playground/ReconcilePlayground Tests/ReconcileTestSupport Fuzz/Harness Fuzz/Entry "$0" -newer "$binary" \
    -name '*.s*' -print -quit)" ]]; then
    return 0
  fi
  mkdir -p "$out/modules"
  local common=(-swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
    -package-name reconcile -O -g -sanitize=fuzzer,address -parse-as-library -I "$out/modules")
  # module name, then its source folders, in dependency order
  local modules=(
    "Reconcile Sources/Reconcile"
    "ReconcileSimulator Sources/ReconcileSimulator"
    "ReconcilePlayground Playground/ReconcilePlayground"
    "ReconcileTestSupport Tests/ReconcileTestSupport"
    "ReconcileFuzzing Fuzz/Harness"
  )
  local objects=()
  for entry in "${modules[@]}"; do
    read -r name folder <<<"$entry"
    local sources
    mapfile -t sources < <(find "$folder" -name '*.swift' | sort)
    echo "fuzz: compiling $name (${#sources[@]} files)" >&2
    swiftc "${common[@]}" -module-name "$name" -wmo -c -emit-module -emit-module-path "$out/modules/$name.swiftmodule" \
      -o "$out/$name.o" "${sources[@]}"
    objects+=("$out/$name.o")
  done
  echo "fuzz: linking $binary" >&2
  swiftc "${common[@]}" -module-name ReconcileFuzzEntry Fuzz/Entry/FuzzEntry.swift "${objects[@]}" -o "$binary" \
    2> >(grep -v "Cannot export local symbol" >&2)
}

check_target() {
  for t in "${targets[@]}"; do [[ "$t" == "$1" ]] && return 0; done
  echo "unknown target '$1'; targets: ${targets[*]}" >&2
  exit 2
}

fuzz() {
  local target=$1 seconds=$2
  shift 2
  local corpus=$out/corpus/$target crashes=$out/crashes/$target log=$out/logs/$target.log
  mkdir -p "$corpus" "$crashes" "$out/logs"
  local flags=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 -print_final_stats=1
    -artifact_prefix="$crashes/")
  [[ -f Fuzz/Dictionaries/$target.dict ]] && flags+=(-dict="Fuzz/Dictionaries/$target.dict")
  local before
  before=$(find "$crashes" -type f | wc -l)
  echo "fuzz: $target for ${seconds}s (log: $log)" >&2
  local status=0
  SWIFT_BACKTRACE=enable=no RECONCILE_FUZZ_TARGET=$target "$binary" "${flags[@]}" "$@" "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
  local runs coverage found
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  coverage=$(grep -ao 'cov: [0-9]*' "$log" | tail -1 || true)
  found=$(($(find "$crashes" -type f | wc -l) - before))
  echo "fuzz: $target: ${runs:-?} executions, ${coverage:-cov: ?} edges, $found new crash(es), exit $status"
  if ((status != 0)); then
    grep -aE "ERROR: |SUMMARY: |Fatal error|$target: " "$log" | head -5 >&2 || true
    echo "fuzz: replay with: Scripts/fuzz.sh $target --replay $(ls -t "$crashes"/* 2>/dev/null | head -1)" >&2
  fi
  return "$status"
}

case "${1:-}" in
  --build) build ;;
  --list) printf '%s\n' "${targets[@]}" ;;
  all)
    seconds=${2:?usage: Scripts/fuzz.sh all SECONDS}
    build
    failed=0
    for t in "${targets[@]}"; do fuzz "$t" "$seconds" || failed=1; done
    exit "$failed"
    ;;
  "" | -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' ;;
  *)
    target=$1
    check_target "$target"
    case "${2:-}" in
      --replay)
        shift 2
        build
        SWIFT_BACKTRACE=enable=no RECONCILE_FUZZ_TARGET=$target "$binary" "$@"
        ;;
      --merge)
        build
        mkdir -p "$out/logs" "$out/corpus/$target"
        # libFuzzer adds to the first folder only the inputs of the others that cover something it does not.
        before=$(find "Fuzz/Corpus/$target" -type f | wc -l)
        SWIFT_BACKTRACE=enable=no RECONCILE_FUZZ_TARGET=$target "$binary" -merge=1 "Fuzz/Corpus/$target" \
          "$out/corpus/$target" >"$out/logs/$target.merge.log" 2>&1
        after=$(find "Fuzz/Corpus/$target" -type f | wc -l)
        echo "fuzz: $target: added $((after - before)) input(s) to Fuzz/Corpus/$target"
        ;;
      *)
        seconds=${2:?usage: Scripts/fuzz.sh TARGET SECONDS}
        shift 2
        build
        fuzz "$target" "$seconds" "$@"
        ;;
    esac
    ;;
esac
