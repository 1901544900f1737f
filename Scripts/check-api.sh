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

# A declaration the release had as public and the code now has as `package` (or `internal`, where the digester sees
# it) is a break the tool does not report: its digest of the code lists package declarations beside public ones. So
# the release's public declarations are also compared, by USR, with the built modules' own digests.
dump_code_api() {  # writes the built modules' digests to $scratch/code-PRODUCT.json
  local modules triple
  swift build > /dev/null 2>&1 || { echo "check-api: the package does not build" >&2; return 1; }
  modules="$(swift build --show-bin-path)/Modules"
  triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
  for product in "${products[@]}"; do
    swift-api-digester -dump-sdk -module "$product" -o "$scratch/code-$product.json" -I "$modules" \
      -target "$triple" -swift-version 6 > /dev/null 2>&1 || { echo "check-api: cannot read $product's API" >&2; return 1; }
  done
}

narrowed() {  # narrowed DIR COMMIT: a line per public declaration of the release the code has as package (dump_code_api first)
  for product in "${products[@]}"; do
    python3 - "$1/$2/$product.json" "$scratch/code-$product.json" "$product" <<'PY'
import json, sys
release, code, product = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def declarations(node, found, owner=""):
    name = node.get("printedName", "")
    qualified = f"{owner}.{name}" if owner else name
    if node.get("usr"):
        found.setdefault(node["usr"], (node, qualified))
    for child in node.get("children", []):
        declarations(child, found, qualified if node.get("kind") == "TypeDecl" else owner)
    return found
now = declarations(code["ABIRoot"], {})
for usr, (node, name) in sorted(declarations(release["ABIRoot"], {}).items(), key=lambda item: item[1][1]):
    if now.get(usr, ({}, ""))[0].get("isInternal"):
        print(f"  💔 API breakage: {product}: {node.get('kind').lower()} {name} is no longer public")
PY
  done
}

reported() {  # reported TEXT WHAT REPORT: the selftest fails unless REPORT names TEXT
  grep -qF -- "$1" <<< "$3" && return 0
  echo "check-api selftest: $2 was not reported:" >&2
  echo "$3" >&2
  exit 1
}

read -r tag commit < "$baseline/RELEASE"
[ -d "$baseline/$commit" ] || { echo "check-api: $baseline/$commit is missing" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/$commit"
for digest in "$baseline/$commit"/*.json.gz; do gunzip -c "$digest" > "$scratch/$commit/$(basename "$digest" .gz)"; done

# A declaration spelled with a type alias in the release and with the type the alias names now has the same type (one
# mangling, and every caller's source still compiles): the diagnoser reports it as a type change; it is not a break.
# Only a change between an alias the sources declare and the very type it names is dropped.
without_alias_changes() {
  python3 -c '
import re, sys
aliases = {}
for line in sys.argv[1].splitlines():
    name, _, target = line.partition("=")
    aliases[name.strip()] = target.strip().split(".")[-1]
pattern = re.compile(r"type change from (?:\w+\.)?(\w+) to (?:\w+\.)?(\w+)")
header = re.compile(r"^\d+ breaking changes? detected in (\w+):")
lines, open_header, kept = [], None, 0
def close():
    # A product whose every reported break was an alias change has none.
    if open_header is not None and kept == 0:
        lines[open_header] = "No breaking changes detected in " + header.match(lines[open_header]).group(1)
for line in sys.stdin.read().splitlines():
    if header.match(line):
        close()
        open_header, kept = len(lines), 0
    elif "API breakage" in line:
        match = pattern.search(line)
        if match and aliases.get(match.group(1)) == match.group(2):
            continue
        kept += 1
    lines.append(line)
close()
print("\n".join(lines))
' "$(grep -rhoE 'typealias [A-Za-z]+ = [A-Za-z.]+' Sources | sed -E 's/typealias ([A-Za-z]+) = ([A-Za-z.]+)/\1=\2/')"
}

if [ "${1:-}" = --selftest ]; then
  # A type change between an alias and the type it names is dropped; any other type change stays.
  kept=$(printf '%s\n' \
    "  💔 API breakage: constructor A.init(x:) has parameter 0 type change from M.ZoneDeletionResponse to R.ZoneLossPolicy" \
    "  💔 API breakage: constructor A.init(x:) has parameter 0 type change from M.ZoneDeletionResponse to R.DeletePolicy" |
    without_alias_changes)
  grep -q "to R.DeletePolicy" <<< "$kept" && ! grep -q "to R.ZoneLossPolicy" <<< "$kept" || {
    echo "check-api selftest: the alias filter dropped a real type change or kept an alias's:" >&2
    echo "$kept" >&2
    exit 1
  }
  echo "check-api selftest: a type change to the type an alias names is not a break; any other type change is"
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
  reported SelftestRemovedType "a public type the release had and the code lacks" "$(diagnose "$scratch" "$commit")"
  echo "check-api selftest: a removed public type is reported as a breaking change"
  # The release "had" as public a declaration the code has as package: the built module's first package declaration.
  dump_code_api
  name=$(python3 - "$scratch/$commit/Reconcile.json" "$scratch/code-Reconcile.json" <<'PY'
import json, sys
release_path, current = sys.argv[1], json.load(open(sys.argv[2]))
def first_package(node):
    if node.get("isInternal") and node.get("usr"):
        return node
    for child in node.get("children", []):
        found = first_package(child)
        if found:
            return found
package = first_package(current["ABIRoot"])
ghost = {key: value for key, value in package.items() if key not in ("isInternal", "children")}
release = json.load(open(release_path))
release["ABIRoot"]["children"].append(ghost)
json.dump(release, open(release_path, "w"))
print(package.get("printedName"))
PY
  )
  reported "$name is no longer public" "$name, public in the release and package in the code," \
    "$(narrowed "$scratch" "$commit")"
  echo "check-api selftest: a public declaration made package ($name) is reported as a breaking change"
  exit 0
fi

dump_code_api
report=$(diagnose "$scratch" "$commit" | without_alias_changes)
report+=$'\n'$(narrowed "$scratch" "$commit")
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
