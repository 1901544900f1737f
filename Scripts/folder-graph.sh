#!/usr/bin/env bash
# Prints the folder graph of each library module: an edge A -> B when a file in folder A names a type declared in
# folder B, then the pairs of folders that depend on each other (two-way edges, the smallest cycles). It measures; it
# does not fail. Usage: Scripts/folder-graph.sh [Sources/Module …]
set -euo pipefail
cd "$(dirname "$0")/.."
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(Sources/Reconcile Sources/ReconcileSimulator)
for module in "${modules[@]}"; do
  declared=$(mktemp)
  used=$(mktemp)
  for folder in "$module"/*/; do
    name=$(basename "$folder")
    # Top-level types declared in the folder (struct, enum, class, actor, protocol, typealias); nested names repeat too
    # often across folders to tell an edge.
    grep -rhoE '^((public|package|internal|private|fileprivate|final|indirect|nonisolated) )*(struct|enum|class|actor|protocol|typealias) [A-Z][A-Za-z0-9]*' \
      "$folder" --include=*.swift | awk -v f="$name" '{print $NF, f}' >> "$declared" || true
    # Capitalised identifiers the folder's files use, outside comments.
    { grep -rhvE '^\s*//' "$folder" --include=*.swift || true; } | { grep -oE '\b[A-Z][A-Za-z0-9]+\b' || true; } |
      sort -u | awk -v f="$name" '{print $1, f}' >> "$used"
  done
  edges=$(awk 'NR == FNR { home[$1] = $2; next } ($1 in home) && home[$1] != $2 { print $2 " -> " home[$1] }' \
    "$declared" "$used" | sort -u)
  echo "== $module: $(echo "$edges" | grep -c . || true) folder edges"
  echo "$edges" | sed 's/^/  /'
  pairs=$(echo "$edges" | awk '{ edge[$1 " " $3] = 1 } END { for (e in edge) { split(e, p, " "); if (p[1] < p[2] && ((p[2] " " p[1]) in edge)) print "  " p[1] " <-> " p[2] } }' | sort)
  echo "two-way pairs: $(echo "$pairs" | grep -c . || true)"
  [ -z "$pairs" ] || echo "$pairs"
  rm -f "$declared" "$used"
done
