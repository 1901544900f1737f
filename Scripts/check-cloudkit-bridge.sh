#!/usr/bin/env bash
# Type-checks the CloudKit bridge's thin layer (the code under `#if canImport(CloudKit)` in Sources/Reconcile) on a
# machine without CloudKit, against the stand-in modules in Tests/CloudKitStandIn, whose declarations copy Apple's
# documented signatures. A renamed or mistyped CloudKit call fails here.
#
# Usage: Scripts/check-cloudkit-bridge.sh            type-check; exit 1 on an error
#        Scripts/check-cloudkit-bridge.sh --selftest also show the check failing on a deliberately broken copy
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -package-name reconcile -I "$out")

swiftc "${flags[@]}" -parse-as-library -emit-module -module-name CoreLocation -emit-module-path "$out/CoreLocation.swiftmodule" \
  Tests/CloudKitStandIn/CoreLocation.swift
swiftc "${flags[@]}" -parse-as-library -emit-module -module-name CloudKit -emit-module-path "$out/CloudKit.swiftmodule" \
  Tests/CloudKitStandIn/CloudKit.swift Tests/CloudKitStandIn/CKSyncEngine.swift

bridge=$(grep -rl 'canImport(CloudKit)' Sources/Reconcile | wc -l)
if ((bridge == 0)); then
  echo "check-cloudkit-bridge: no file under Sources/Reconcile is behind canImport(CloudKit); nothing was checked" >&2
  exit 1
fi
# Emitting the module type-checks every file of it, the thin layer included, and gives the article's code a module.
mapfile -t library < <(find Sources/Reconcile -name '*.swift' | sort)
# One whole-module job emits a module several times faster than the per-file jobs it otherwise starts.
swiftc "${flags[@]}" -parse-as-library -wmo -emit-module -module-name Reconcile \
  -emit-module-path "$out/Reconcile.swiftmodule" "${library[@]}"
echo "check-cloudkit-bridge: Reconcile type-checks with the CloudKit stand-in ($bridge thin-layer file(s))"

# The CKSyncEngine article's app code and its delegate, against Reconcile built with the stand-in.
swiftc "${flags[@]}" -parse-as-library -typecheck -module-name SyncEngineExamples Tests/CloudKitStandIn/Examples/*.swift \
  Tests/ReconcileSimulatorTests/SyncEngine/NotesSyncDelegate.swift
echo "check-cloudkit-bridge: the CKSyncEngine article's app code and delegate type-check (every document's blocks: Scripts/check-doc-blocks.sh)"

if [[ "${1:-}" == "--selftest" ]]; then
  # Each mutation misspells one CloudKit call in one thin-layer file. They go into one copy, type-checked once: each
  # must be reported as an error at its own file and name, so no mutation hides behind another.
  mutations=(
    "CKRecord+Bridging.swift|retryAfterSeconds|retryAfterSecond"
    "CKSyncEngine+Adapter.swift|add(pendingRecordZoneChanges:|add(pendingRecordZoneChange:"
    "CKSyncEngine+Adapter.swift|failedRecordDeletes.map|failedRecordDelete.map"
  )
  copy="$out/selftest"
  rm -rf "$copy" && cp -r Sources/Reconcile "$copy"
  for mutation in "${mutations[@]}"; do
    IFS='|' read -r name from to <<<"$mutation"
    file=$(find "$copy" -name "$name")
    grep -qF "$from" "$file" || { echo "check-cloudkit-bridge: selftest FAILED: '$from' is not in $name" >&2; exit 1; }
    FROM="$from" TO="$to" perl -pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$file"
  done
  mapfile -t sources < <(find "$copy" -name '*.swift' | sort)
  if swiftc "${flags[@]}" -parse-as-library -wmo -typecheck -continue-building-after-errors -module-name Reconcile \
    "${sources[@]}" > "$out/errors.txt" 2>&1; then
    echo "check-cloudkit-bridge: selftest FAILED: Reconcile with misspelt CloudKit calls type-checked" >&2
    exit 1
  fi
  for mutation in "${mutations[@]}"; do
    IFS='|' read -r name from to <<<"$mutation"
    word=$(grep -oE '[A-Za-z]+' <<<"$to" | awk '{ if (length($0) > length(longest)) longest = $0 } END { print longest }')
    if ! grep -F "/$name:" "$out/errors.txt" | grep -F ": error:" | grep -qF "$word"; then
      echo "check-cloudkit-bridge: selftest FAILED: a misspelt CloudKit call ($to in $name) was not reported:" >&2
      grep -E "error:" "$out/errors.txt" | head -n 10 >&2
      exit 1
    fi
    echo "check-cloudkit-bridge: selftest passed: a misspelt CloudKit call ($to in $name) is an error"
  done
fi
