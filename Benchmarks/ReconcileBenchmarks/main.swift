import Foundation

// reconcile-benchmarks: run with `swift run -c release reconcile-benchmarks [--check] [--quick]`.
// --check exits 1 when a target is missed; --quick runs fewer iterations (for smoke runs).
let arguments = Set(CommandLine.arguments.dropFirst())
let iterations = arguments.contains("--quick") ? 2_000 : 200_000

#if DEBUG
  print("warning: this is a debug build; figures are meaningful only with -c release\n")
#endif

var failures: [String] = []
do {
  let results = try SystemFieldsBenchmark.run(iterations: iterations)
  let base = results[0]
  print("System-fields round trip (encode + decode), a record shaped like the QSCompany fixture")
  var rows = [["format", "ns/round trip", "bytes", "time vs Reconcile", "size vs Reconcile"]]
  for r in results {
    rows.append([
      r.name, format(r.nsPerRoundTrip, digits: 0), String(r.bytes),
      format(r.nsPerRoundTrip / base.nsPerRoundTrip) + "×",
      format(Double(r.bytes) / Double(base.bytes)) + "×",
    ])
  }
  print(table(rows))
  let keyed = results[1]
  let speedup = keyed.nsPerRoundTrip / base.nsPerRoundTrip
  let sizeRatio = Double(base.bytes) / Double(keyed.bytes)
  let speedOK = speedup >= 20
  let sizeOK = sizeRatio <= 0.25
  print("target: Reconcile ≥ 20× faster than the keyed archive: \(format(speedup))× \(speedOK ? "PASS" : "FAIL")")
  print("target: Reconcile ≤ 1/4 the keyed archive's size: \(format(sizeRatio, digits: 3)) \(sizeOK ? "PASS" : "FAIL")")
  if !speedOK { failures.append("system-fields speed") }
  if !sizeOK { failures.append("system-fields size") }
} catch {
  print("benchmark failed: \(error)")
  exit(2)
}

if arguments.contains("--check") && !failures.isEmpty {
  print("missed targets: \(failures.joined(separator: ", "))")
  exit(1)
}
