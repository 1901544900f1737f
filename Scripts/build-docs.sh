#!/usr/bin/env bash
# Builds the DocC catalogs (Reconcile and ReconcileSimulator) with the toolchain's docc, from symbol graphs, and fails
# on any warning. Output: .build/docs/Reconcile.doccarchive and .build/docs/ReconcileSimulator.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/docs-build
# The compiler writes graphs only when it compiles, so this folder is kept between runs (an up-to-date build writes
# nothing); each catalog then gets a copy of its own module's graphs only.
graphs="$PWD/.build/docs/symbol-graphs"
mkdir -p "$graphs"
swift build --scratch-path "$scratch" --target ReconcileSimulator \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >/dev/null
for module in Reconcile ReconcileSimulator; do
  own=".build/docs/module-graphs/$module"
  rm -rf "$own" && mkdir -p "$own"
  cp "$graphs/$module.symbols.json" "$own/"
  find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$own/" \;
  docc convert "Docs/$module.docc" \
    --additional-symbol-graph-dir "$own" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.reconcile.$module" \
    --output-path ".build/docs/$module.doccarchive" \
    --warnings-as-errors
  echo "docs: .build/docs/$module.doccarchive"
done
