#!/usr/bin/env bash
# Type-checks every Swift block of the README and the DocC articles as a reader would paste them: the blocks of one
# document together, in order, in one file that imports what the document's module offers (Reconcile, the simulator,
# the playground, Swift Testing). Documents about the CloudKit bridge are checked against Reconcile built with the
# CloudKit stand-in (Tests/CloudKitStandIn), as Scripts/check-cloudkit-bridge.sh builds it.
#
# Usage: Scripts/check-doc-blocks.sh [FILE.md …]   (after `swift build`; all documents unless named)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
modules=.build/debug/Modules
[ -d "$modules" ] || { echo "check-doc-blocks: run swift build first ($modules is missing)" >&2; exit 1; }

# The CloudKit stand-in and Reconcile built against it, for the documents whose blocks use CloudKit.
standin="$out/standin"
mkdir -p "$standin"
flags=(-swift-version 6 -I "$standin")
swiftc "${flags[@]}" -parse-as-library -emit-module -module-name CoreLocation \
  -emit-module-path "$standin/CoreLocation.swiftmodule" Tests/CloudKitStandIn/CoreLocation.swift
swiftc "${flags[@]}" -parse-as-library -emit-module -module-name CloudKit -emit-module-path "$standin/CloudKit.swiftmodule" \
  Tests/CloudKitStandIn/CloudKit.swift Tests/CloudKitStandIn/CKSyncEngine.swift
mapfile -t library < <(find Sources/Reconcile -name '*.swift' | sort)
swiftc "${flags[@]}" -enable-upcoming-feature InternalImportsByDefault -package-name reconcile -parse-as-library \
  -emit-module -module-name Reconcile -emit-module-path "$standin/Reconcile.swiftmodule" "${library[@]}"

documents=("$@")
if [ ${#documents[@]} -eq 0 ]; then
  mapfile -t documents < <(ls README.md Docs/*.docc/*.md Docs/*.docc/Articles/*.md)
fi
failed=0
checked=0
for document in "${documents[@]}"; do
  grep -q '^```swift' "$document" || continue
  name=$(basename "$document" .md | tr -c 'A-Za-z0-9\n' '_')
  file="$out/$name.swift"
  if grep -q 'import CloudKit' "$document"; then
    search=(-I "$standin")
    imports=$'import Foundation\nimport Reconcile'
  else
    search=(-I "$modules")
    imports=$'import Foundation\nimport Reconcile\nimport ReconcileSimulator\nimport ReconcilePlayground\nimport Testing'
  fi
  {
    echo "$imports"
    awk '/^```swift/ { inblock = 1; print "// " FILENAME ", block " ++n; next }
         /^```/ && inblock { inblock = 0; next }
         inblock { print }' "$document"
  } > "$file"
  checked=$((checked + 1))
  if ! swiftc -typecheck -swift-version 6 -module-name DocBlocks "${search[@]}" "$file" > "$out/errors.txt" 2>&1; then
    failed=$((failed + 1))
    echo "check-doc-blocks: $document does not compile as printed:"
    grep -E "error:" "$out/errors.txt" | sed "s|$out/||" | head -n 20
  fi
done
if ((failed > 0)); then
  echo "check-doc-blocks: $failed of $checked documents do not compile as printed" >&2
  exit 1
fi
echo "check-doc-blocks: the Swift blocks of $checked documents compile as printed"
