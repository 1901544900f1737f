#!/usr/bin/env bash
# Prints the folder graph of each library module: an edge A -> B when a file in folder A names a type declared in
# folder B, then the folders that lie on a cycle (each group of folders that reach one another). With --check it exits 1
# when any module has a cycle, and --selftest shows the check firing on a made-up cycle. CI runs --check and --selftest.
# Usage: Scripts/folder-graph.sh [--check | --selftest] [Sources/Module …]
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
if [ "${1:-}" = --selftest ]; then
  # A module with a three-folder cycle (A -> B -> C -> A) and a bystander must fail the check; without the closing
  # edge it must pass.
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "$scratch/M/A" "$scratch/M/B" "$scratch/M/C" "$scratch/M/D"
  echo 'struct Alpha { let b: Beta }' > "$scratch/M/A/Alpha.swift"
  echo 'struct Beta { let c: Gamma }' > "$scratch/M/B/Beta.swift"
  echo 'struct Gamma { let a: Alpha }' > "$scratch/M/C/Gamma.swift"
  echo 'struct Delta { let a: Alpha }' > "$scratch/M/D/Delta.swift"
  if "$0" --check "$scratch/M" > "$scratch/out" 2>&1; then
    echo "folder-graph selftest: a three-folder cycle passed the check" >&2; cat "$scratch/out" >&2; exit 1
  fi
  grep -q 'A B C' "$scratch/out" || { echo "folder-graph selftest: the cycle was not named" >&2; exit 1; }
  echo 'struct Gamma {}' > "$scratch/M/C/Gamma.swift"
  "$0" --check "$scratch/M" > "$scratch/out" 2>&1 || {
    echo "folder-graph selftest: an acyclic module failed the check" >&2; cat "$scratch/out" >&2; exit 1
  }
  echo "folder-graph selftest: a cycle fails the check, an acyclic graph passes"
  exit 0
fi
if [ "${1:-}" = --check ]; then check=true; shift; fi
cycles_found=0
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
  # Folders on a cycle: the transitive closure of the edges; folders that reach each other form one group.
  groups=$(echo "$edges" | awk 'NF == 3 {
      node[$1] = 1; node[$3] = 1; reach[$1, $3] = 1
    }
    END {
      for (k in node) for (i in node) if ((i, k) in reach) for (j in node) if ((k, j) in reach) reach[i, j] = 1
      for (i in node) if ((i, i) in reach) {
        line = ""
        for (j in node) if ((i, j) in reach && (j, i) in reach) line = line " " j
        print line
      }
    }' | while read -r line; do echo "$line" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//'; echo; done | sort -u)
  echo "folders on a cycle: $(echo "$groups" | grep -c . || true) groups"
  if [ -n "$groups" ]; then
    echo "$groups" | sed 's/^/  /'
    cycles_found=1
  fi
  rm -f "$declared" "$used"
done
if $check && [ "$cycles_found" -ne 0 ]; then
  echo "folder-graph: folders depend on each other in a cycle (above); move the file that closes it" >&2
  exit 1
fi
