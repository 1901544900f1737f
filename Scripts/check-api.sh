#!/usr/bin/env bash
# Checks the public API of the library products against the last release with `swift package
# diagnose-api-breaking-changes`: removing or changing a public declaration the release had fails.
#
# The release is named in .ci/api-baseline/RELEASE (tag and commit); its API digests are kept, gzipped, in
# .ci/api-baseline/<commit>, so the check needs neither the tag nor a second build of the old sources. The digests keep
# public declarations only: the digester also lists `package` ones, which are free to change. A deliberate break means
# a new release: tag it, then `Scripts/check-api.sh --new-release TAG` writes its digests and RELEASE.
# `--selftest` shows the check firing: a digest with one more public type than the code has must be reported.
# Usage: Scripts/check-api.sh [--selftest | --new-release TAG]
set -euo pipefail
cd "$(dirname "$0")/.."
products=(Reconcile ReconcileSimulator ReconcilePlayground)
baseline=.ci/api-baseline

diagnose() {  # diagnose DIR COMMIT: prints the tool's report; the exit status says whether anything broke
  swift package diagnose-api-breaking-changes "$2" --baseline-dir "$1" --products "${products[@]}" 2>&1 |
    grep -vE '^\[[0-9]+/[0-9]+\]|^Build complete|^Building for|^Compiling|^Write ' || true
}

if [ "${1:-}" = --new-release ]; then
  tag=${2:?usage: Scripts/check-api.sh --new-release TAG}
  commit=$(git rev-parse "$tag^{commit}")
  rm -rf "$baseline"
  mkdir -p "$baseline"
  swift package diagnose-api-breaking-changes "$commit" --baseline-dir "$baseline" --products "${products[@]}" \
    --regenerate-baseline > /dev/null 2>&1 || true
  [ -d "$baseline/$commit" ] || { echo "check-api: no digests written for $tag ($commit)" >&2; exit 1; }
  for digest in "$baseline/$commit"/*.json; do
    python3 - "$digest" <<'PY'
import json, sys
path = sys.argv[1]
digest = json.load(open(path))
def public(node):
    node["children"] = [public(c) for c in node.get("children", []) if not c.get("isInternal")]
    if not node["children"]:
        del node["children"]
    return node
public(digest["ABIRoot"])
json.dump(digest, open(path, "w"), indent=1)
PY
    gzip -9 "$digest"
  done
  echo "$tag $commit" > "$baseline/RELEASE"
  echo "check-api: $tag ($commit) is the baseline: $(ls "$baseline/$commit" | tr '\n' ' ')"
  exit 0
fi

read -r tag commit < "$baseline/RELEASE"
[ -d "$baseline/$commit" ] || { echo "check-api: $baseline/$commit is missing" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/$commit"
for digest in "$baseline/$commit"/*.json.gz; do gunzip -c "$digest" > "$scratch/$commit/$(basename "$digest" .gz)"; done

if [ "${1:-}" = --selftest ]; then
  # The release "had" a public struct the code does not: copy one type's node under a new name.
  python3 - "$scratch/$commit/Reconcile.json" <<'PY'
import json, sys
path = sys.argv[1]
digest = json.load(open(path))
children = digest["ABIRoot"]["children"]
model = next(c for c in children if c.get("kind") == "TypeDecl" and c.get("name") == "ServerChangeToken")
ghost = json.loads(json.dumps(model).replace("ServerChangeToken", "SelftestRemovedType"))
children.append(ghost)
json.dump(digest, open(path, "w"), indent=2)
PY
  report=$(diagnose "$scratch" "$commit")
  if ! grep -q 'SelftestRemovedType' <<< "$report"; then
    echo "check-api selftest: a public type the release had and the code lacks was not reported:" >&2
    echo "$report" >&2
    exit 1
  fi
  echo "check-api selftest: a removed public type is reported as a breaking change"
  exit 0
fi

report=$(diagnose "$scratch" "$commit")
if grep -qE 'API breakage|ABI breakage' <<< "$report"; then
  echo "check-api: the public API breaks $tag:" >&2
  echo "$report" >&2
  exit 1
fi
if [ "$(grep -c 'No breaking changes detected' <<< "$report")" -ne ${#products[@]} ]; then
  echo "check-api: could not compare every product with $tag:" >&2
  echo "$report" >&2
  exit 1
fi
echo "check-api: the public API of ${products[*]} keeps everything $tag had"
