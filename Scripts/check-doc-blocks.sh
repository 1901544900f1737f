#!/usr/bin/env bash
# Type-checks every Swift block of the README and the DocC articles as a reader would paste them: the blocks of one
# document together, in order, in one file that imports what the document's module offers (Reconcile, the simulator,
# the playground, Swift Testing), all built against the CloudKit stand-in (Tests/CloudKitStandIn) so that blocks using
# the CloudKit bridge type-check on Linux too.
#
# Usage: Scripts/check-doc-blocks.sh [FILE.md …]   all documents unless named; exit 1 when one does not compile
#        Scripts/check-doc-blocks.sh --selftest    also show the check failing on a document with a misspelt call
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The modules a reader imports, built against the CloudKit stand-in, so that documents about the CloudKit bridge
# type-check beside the others: CloudKit (the stand-in), Reconcile, ReconcileSimulator, ReconcilePlayground.
# The selftest's second run reuses the modules the first one built (CHECK_DOC_BLOCKS_MODULES).
modules="${CHECK_DOC_BLOCKS_MODULES:-$out/modules}"
mkdir -p "$modules"
flags=(-swift-version 6 -I "$modules")
library=(-enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature ExistentialAny
  -package-name reconcile -parse-as-library)
if [ -z "${CHECK_DOC_BLOCKS_MODULES:-}" ]; then
  swiftc "${flags[@]}" -parse-as-library -emit-module -module-name CoreLocation \
    -emit-module-path "$modules/CoreLocation.swiftmodule" Tests/CloudKitStandIn/CoreLocation.swift
  swiftc "${flags[@]}" -parse-as-library -emit-module -module-name CloudKit -emit-module-path "$modules/CloudKit.swiftmodule" \
    Tests/CloudKitStandIn/CloudKit.swift Tests/CloudKitStandIn/CKSyncEngine.swift
  for module in Reconcile:Sources/Reconcile ReconcileSimulator:Sources/ReconcileSimulator \
    ReconcilePlayground:Playground/ReconcilePlayground; do
    mapfile -t sources < <(find "${module#*:}" -name '*.swift' | sort)
    # One whole-module job emits a module several times faster than the per-file jobs it otherwise starts.
    swiftc "${flags[@]}" "${library[@]}" -wmo -emit-module -module-name "${module%%:*}" \
      -emit-module-path "$modules/${module%%:*}.swiftmodule" "${sources[@]}"
  done
fi

selftest=0
if [[ "${1:-}" == "--selftest" ]]; then
  selftest=1
  shift
fi
documents=("$@")
if [ ${#documents[@]} -eq 0 ]; then
  mapfile -t documents < <(ls README.md Docs/*.docc/*.md Docs/*.docc/Articles/*.md)
fi
failed=0
checked=0
checks=()
for document in "${documents[@]}"; do
  grep -q '^```swift' "$document" || continue
  name=$(basename "$document" .md | tr -c 'A-Za-z0-9\n' '_')
  file="$out/$name.swift"
  imports=$'import Foundation\nimport Reconcile\nimport ReconcileSimulator\nimport ReconcilePlayground\nimport Testing'
  {
    echo "$imports"
    # A block that begins `// Package.swift` is a manifest, which only SwiftPM compiles: it is left out.
    awk '/^```swift/ { inblock = 1; first = 1; print "// " FILENAME ", block " ++n; next }
         /^```/ && inblock { inblock = 0; skip = 0; next }
         inblock && first { first = 0; if ($0 ~ /^\/\/ Package\.swift/) skip = 1 }
         inblock && !skip { print }' "$document"
  } > "$file"
  checked=$((checked + 1))
  checks+=("$document|$name")
  # Two documents at a time (CI has 2 cores); each writes its own errors and exit status.
  while (($(jobs -rp | wc -l) >= 2)); do wait -n || true; done
  (
    swiftc -typecheck "${flags[@]}" -module-name DocBlocks "$file" > "$out/$name.errors" 2>&1
    echo $? > "$out/$name.status"
  ) &
done
wait
for check in "${checks[@]}"; do
  IFS='|' read -r document name <<<"$check"
  if [ "$(cat "$out/$name.status")" != 0 ]; then
    failed=$((failed + 1))
    echo "check-doc-blocks: $document does not compile as printed:"
    grep -E "error:" "$out/$name.errors" | sed "s|$out/||" | head -n 20
  fi
done
if ((failed > 0)); then
  echo "check-doc-blocks: $failed of $checked documents do not compile as printed" >&2
  exit 1
fi
echo "check-doc-blocks: the Swift blocks of $checked documents compile as printed"
if ((selftest == 1)); then
  # A document whose block misspells one argument label must fail the check.
  broken="$out/selftest/Broken.md"
  mkdir -p "$(dirname "$broken")"
  printf '# Broken\n\n```swift\nlet note = Record(recordTyp: "Note")\n```\n' > "$broken"
  if CHECK_DOC_BLOCKS_MODULES="$modules" bash "$0" "$broken" > /dev/null 2>&1; then
    echo "check-doc-blocks: selftest FAILED: a misspelt argument label compiled" >&2
    exit 1
  fi
  echo "check-doc-blocks: selftest passed: a misspelt argument label does not compile"
fi
