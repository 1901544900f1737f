#!/usr/bin/env bash
# Builds the DocC catalogs (Reconcile and ReconcileSimulator) with the toolchain's docc, from symbol graphs, and fails
# on any warning. Output: .build/docs/Reconcile.doccarchive and .build/docs/ReconcileSimulator.doccarchive
#
# The graphs are extracted from the modules of the ordinary debug build (swift symbolgraph-extract), so CI's build
# serves the docs too instead of a second build with symbol-graph flags.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --target ReconcileSimulator >/dev/null
modules="$(swift build --show-bin-path)/Modules"
target=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
for module in Reconcile ReconcileSimulator; do
  own=".build/docs/module-graphs/$module"
  rm -rf "$own" && mkdir -p "$own"
  swift symbolgraph-extract -module-name "$module" -I "$modules" -target "$target" -output-dir "$own" \
    -minimum-access-level public
  docc convert "Docs/$module.docc" \
    --additional-symbol-graph-dir "$own" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.reconcile.$module" \
    --output-path ".build/docs/$module.doccarchive" \
    --warnings-as-errors
  echo "docs: .build/docs/$module.doccarchive"
done
