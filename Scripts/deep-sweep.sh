#!/usr/bin/env bash
# The one check before a change to a client, the judge or the simulator is done: every test of the suite in a release
# build, with the seeded sweeps at a deep budget, then the outside package's own command line; a summary table of
# every sweep and exit 1 on any failure.
#
#   quick (CI; a budget of 7 minutes on 2 cores, build included, that the summary prints the run against): the
#         configuration matrix at 40 seeds × 100 steps a cell (288 cells), the resolvers at 500 flaky and 200 swarm
#         seeds × 200 steps, the article's delegate at 300 seeds a fault profile,
#         the zoo's search for every client defect and merge twin at its budget (swift test only replays the scripts
#         it found, in Tests/Zoo), every truncation and bit flip of the real archives, the text merge against git
#         merge-file at 4,000 seeds and on the corpus of real merges (where RECONCILE_MERGE_CORPUS names the clones
#         Scripts/merge-corpus.sh makes; "not run" otherwise), every other test at its own budget.
#   full  (nightly): the matrix at 500 × 200, the resolvers at 2,000 and 1,000 seeds, the article's delegate at 1,000.
#
# The budgets live beside the tests (SweepBudget in Tests/ReconcileTestSupport); `swift test` runs the same tests at
# unit budgets in a debug build. RECONCILE_SEED=N narrows every sweep to one seed, to replay a failure.
#
# Usage: Scripts/deep-sweep.sh [quick|full]
set -uo pipefail
cd "$(dirname "$0")/.."
depth=${1:-quick}
case "$depth" in
  quick | full) ;;
  -h | --help)
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "deep-sweep: unknown depth '$depth': expected quick or full" >&2
    exit 2
    ;;
esac
# The time each depth may take on CI's 2 cores, build included: the summary prints the run against it, so a sweep
# that pushes the quick depth past it is seen the day it lands and moves to the nightly depth.
case "$depth" in
  quick) budget=420 ;;
  full) budget=3600 ;;
esac
out=.build/deep-sweep-$depth
rm -rf "$out" && mkdir -p "$out"
started=$(date +%s)
failed=0

# One release build serves the tests and the executables (the benchmark and the playground): testable imports off,
# so the modules are the ones users link.
echo "== deep sweep ($depth): every test in a release build"
RECONCILE_SWEEP=$depth swift test -c release --disable-testable-imports > "$out/test.log" 2>&1
status=$?
tested=$(date +%s)
grep -E '^(✘|error:)|Test run with|failed after|recorded an issue' "$out/test.log" | head -n 60
if [ "$status" -ne 0 ]; then
  failed=1
  echo "deep-sweep: swift test -c release exited $status"
fi

echo "== deep sweep ($depth): the outside package's own command line"
if bash Scripts/check-own-command-line.sh > "$out/own.log" 2>&1; then
  own="held"
else
  own="FAILED"
  failed=1
  cat "$out/own.log"
fi
finished=$(date +%s)

echo
echo "== deep sweep ($depth): summary"
# Each sweep prints `sweep<TAB>name<TAB>depth<TAB>budget<TAB>verdict<TAB>detail`; the matrix's cells fold into one row.
awk -F'\t' -v own="$own" '
  $1 != "sweep" { next }
  $2 ~ /^matrix / {
    cells++; budget = $4
    if ($5 != "held") { bad++; failing = failing " [" substr($2, 8) ": " $6 "]" }
    next
  }
  { rows[++n] = sprintf("%-62s %-24s %-12s %s", $2, $4, $5, $6); if ($5 != "held" && $5 != "not run") bad++ }
  END {
    printf "%-62s %-24s %-12s %s\n", "sweep", "budget", "verdict", "detail"
    if (cells) printf "%-62s %-24s %-12s %s\n", "matrix: " cells " cells (client × resolver × policy × faults × schemas)", budget "/cell", (failing == "" ? "held" : "FAILED"), failing
    for (i = 1; i <= n; i++) print rows[i]
    printf "%-62s %-24s %-12s %s\n", "outside package: its own client and command line", "check-own-command-line", own, ""
    if (n + cells == 0) { print "deep-sweep: no sweep reported a line: the tests did not run"; exit 1 }
    exit bad > 0
  }' "$out/test.log" || failed=1
echo "deep sweep ($depth): tests $((tested - started)) s (build included), outside package $((finished - tested)) s, total $((finished - started)) s"
if [ $((finished - started)) -le "$budget" ]; then
  echo "deep sweep ($depth): time budget $budget s: within ($((finished - started)) s)"
else
  echo "deep sweep ($depth): time budget $budget s: OVER by $((finished - started - budget)) s — move a sweep's budget to the nightly depth (SweepBudget)"
fi
if [ "$failed" -ne 0 ]; then
  echo "deep sweep ($depth): FAILED — each failure's report and shrunk script: $out/test.log; replay a sweep's seed with"
  echo "  RECONCILE_SEED=N RECONCILE_SWEEP=$depth swift test -c release --filter NAME"
  exit 1
fi
echo "deep sweep ($depth): every sweep held"
