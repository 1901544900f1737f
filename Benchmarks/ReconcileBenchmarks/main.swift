import Foundation
import Reconcile

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

  print("\nConflict resolution: a fifth of the fields changed on each side, one field on both")
  let merges = try MergeBenchmark.run(iterations: iterations)
  var mergeRows = [["resolver", "fields", "ns/resolution", "resolutions/s", "vs naive"]]
  for r in merges {
    let naive =
      merges.first { $0.name.hasPrefix("naive") && $0.fields == r.fields }?.nsPerResolution ?? r.nsPerResolution
    mergeRows.append([
      r.name, String(r.fields), format(r.nsPerResolution, digits: 0), format(1e9 / r.nsPerResolution, digits: 0),
      format(r.nsPerResolution / naive, digits: 2) + "×",
    ])
  }
  print(table(mergeRows))
  func fieldMerge(_ fields: Int) -> Double {
    merges.first { $0.name == "FieldMerge" && $0.fields == fields }?.nsPerResolution ?? .infinity
  }
  let perSecond = 1e9 / fieldMerge(10)
  let growth = fieldMerge(100) / fieldMerge(10)
  let rateOK = perSecond >= 1_000_000
  let growthOK = growth <= 12
  let floor = merges.first { $0.name.hasPrefix("floor") && $0.fields == 10 }?.nsPerResolution ?? 0
  print("floor: copying a 10-field record and writing one key costs \(format(floor, digits: 0)) ns on this machine")
  print(
    "target: ≥ 1,000,000 ten-field FieldMerge resolutions/s: \(format(perSecond, digits: 0)) \(rateOK ? "PASS" : "FAIL")"
  )
  print("target: 100 fields ≤ 12× the 10-field cost: \(format(growth))× \(growthOK ? "PASS" : "FAIL")")
  if !rateOK { failures.append("FieldMerge rate") }
  if !growthOK { failures.append("FieldMerge growth") }
} catch {
  print("benchmark failed: \(error)")
  exit(2)
}

if arguments.contains("--check") && !failures.isEmpty {
  print("missed targets: \(failures.joined(separator: ", "))")
  exit(1)
}
