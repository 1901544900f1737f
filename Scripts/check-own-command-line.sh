#!/usr/bin/env bash
# Builds the example app package beside Reconcile (Examples/NotesCommandLine: its own sync clients and resolver, and
# its own reconcile-playground in three lines) and runs the playground's commands on them through it: explore sharded
# and merged, a counterexample found, written and replayed, simulate and run. Fails on the first surprise.
set -euo pipefail
cd "$(dirname "$0")/../Examples/NotesCommandLine"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The whole build log on failure: its last line alone once hid why a build stopped.
if swift build > "$out/build.txt" 2>&1; then
  tail -n 1 "$out/build.txt"
else
  echo "check-own-command-line: the example package did not build:"; cat "$out/build.txt"; exit 1
fi
own=.build/debug/notes-playground

expect_status() {  # expect_status WANT COMMAND…: runs the command, fails unless it exits with WANT
  local want=$1; shift
  set +e; "$@" > "$out/last.txt" 2>&1; local got=$?; set -e
  if [ "$got" -ne "$want" ]; then
    echo "check-own-command-line: \`$*\` exited $got, expected $want:"; cat "$out/last.txt"; exit 1
  fi
}
expect_output() {  # expect_output TEXT: the last command printed TEXT
  grep -qF -- "$1" "$out/last.txt" || { echo "check-own-command-line: expected \"$1\" in:"; cat "$out/last.txt"; exit 1; }
}

world=(--steps 80 --client mini-notes --resolver notes-merge --clock-skew 0 --faults flaky --until-failures 0 --quiet)
expect_status 0 "$own" explore --seeds 0..40 "${world[@]}" --shard 0/2 --json "$out/a.json"
expect_status 0 "$own" explore --seeds 0..40 "${world[@]}" --shard 1/2 --json "$out/b.json"
expect_status 0 "$own" explore merge "$out/a.json" "$out/b.json"
expect_output "explored seeds 0..40 (shards 0, 1 of 2): 40 seeds"
expect_status 1 "$own" explore merge "$out/a.json"
expect_output "shards 1 of 2 are missing"

expect_status 1 "$own" explore --seeds 0..200 --steps 60 --client forgetful-notes --resolver notes-merge \
  --clock-skew 0 --faults flaky --quiet --out "$out/found"
expect_output "replay it: notes-playground replay $out/found/"
script=$(ls "$out"/found/*.rcp | head -n 1)
grep -q "^client forgetful-notes$" "$script" && grep -q "^resolver notes-merge$" "$script"
expect_status 1 "$own" replay "$script"
expect_output "invariants violated"
expect_status 1 "$own" run "$script"
expect_output "invariant broken"
builtin=../../.build/debug/reconcile-playground
if [ -x "$builtin" ]; then  # the project's own playground does not know the app's client, and says where to go
  expect_status 1 "$builtin" replay "$script"
  expect_output "unknown client 'forgetful-notes'"
  expect_output "PlaygroundCommand.main(clients:resolvers:)"
fi
# The article's app over a store of its own (rows of encoded bytes, read back at every launch), under both delete
# policies and the hostile profile: accounts, resets, purges, torn crashes.
for policy in deleteWins editWins; do
  expect_status 0 "$own" explore --seeds 0..60 --steps 60 --client notes-app --resolver field-merge --clock-skew 0 \
    --faults hostile --delete-policy "$policy" --until-failures 0 --quiet
  expect_output "all passed"
done
expect_status 0 "$own" simulate --seed 3 --steps 60 --client mini-notes --resolver notes-merge --clock-skew 0
expect_output "no invariant violated"
echo "check-own-command-line: an app's own client and resolver explored, sharded, merged and replayed through its own command line"
