#!/usr/bin/env bash
# Formats every Swift file with the toolchain's swift-format and the committed .swift-format, then lints strictly.
# Usage: Scripts/format.sh          format in place, then lint
#        Scripts/format.sh --lint   lint only (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Playground Tests Benchmarks Fuzz Examples/NotesCommandLine/Package.swift Examples/NotesCommandLine/Sources)
if [[ "${1:-}" != "--lint" ]]; then
  swift format format --in-place --recursive --parallel "${paths[@]}"
fi
swift format lint --strict --recursive --parallel "${paths[@]}"
