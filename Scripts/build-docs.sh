#!/usr/bin/env bash
# Builds the Reconcile DocC catalog with the toolchain's docc, from symbol graphs, and fails on any warning.
# Output: .build/docs/Reconcile.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/docs-build
graphs=.build/docs/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
swift build --scratch-path "$scratch" --target Reconcile \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >/dev/null
docc convert Docs/Reconcile.docc \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name Reconcile \
  --fallback-bundle-identifier org.reconcile.Reconcile \
  --output-path .build/docs/Reconcile.doccarchive \
  --warnings-as-errors
echo "docs: .build/docs/Reconcile.doccarchive"
