#!/bin/bash
# Builds, from the release commits in the history, the replica metadata each release saves mid-sync (an edit pending,
# a save in doubt, a conflict waiting for a fetch, a deletion waiting, a create unsent) and the end state a device that
# never upgraded reaches from it: Tests/ReconcileTests/SavedMetadata/replica-metadata-<release>-{saved,end}.json.
#
#   Scripts/replica-metadata-fixtures.sh            # every release since the core appeared
#   Scripts/replica-metadata-fixtures.sh 0.33.0     # one
#
# Each release is checked out in a worktree under $TMPDIR, given the generator (main.swift beside this script) as an
# executable target, built and run. The fixtures are committed; ReplicaMetadataMigrationTests reads them.
set -euo pipefail
only=${1:-}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/Tests/ReconcileTests/SavedMetadata
# The commit that cut each release (its CHANGELOG heading appeared there).
releases=("0.29.0 e7e2f15" "0.30.0 caadaab" "0.31.0 365d18e" "0.32.0 994fa38" "0.33.0 831a249")
for entry in "${releases[@]}"; do
  read -r version commit <<< "$entry"
  if [ -n "$only" ] && [ "$only" != "$version" ]; then continue; fi
  tree=${TMPDIR:-/tmp}/reconcile-release-$version
  [ -d "$tree" ] || git -C "$root" worktree add --detach "$tree" "$commit" >/dev/null
  mkdir -p "$tree/MetadataFixture"
  cp "$root/Scripts/replica-metadata-fixtures/main.swift" "$tree/MetadataFixture/main.swift"
  grep -q MetadataFixture "$tree/Package.swift" || python3 - "$tree/Package.swift" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
at = text.rindex('targets: [') + len('targets: [')
text = text[:at] + '\n    .executableTarget(name: "MetadataFixture", dependencies: ["Reconcile"], path: "MetadataFixture"),' + text[at:]
open(path, 'w').write(text)
PY
  (cd "$tree" && swift build --product MetadataFixture >/dev/null)
  scratch=$(mktemp -d)
  "$tree/.build/debug/MetadataFixture" "$scratch"
  cp "$scratch/saved.json" "$out/replica-metadata-$version-saved.json"
  cp "$scratch/end.json" "$out/replica-metadata-$version-end.json"
  echo "$version ($commit): $(wc -c < "$out/replica-metadata-$version-saved.json") bytes saved"
done
