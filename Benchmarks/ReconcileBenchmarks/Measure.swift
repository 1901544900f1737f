import Foundation

/// Times `body` over `iterations` calls, `rounds` times, and reports the fastest round in nanoseconds per call.
/// The fastest round is the least disturbed by other work on the machine.
func nanosecondsPerCall(iterations: Int, rounds: Int = 7, _ body: () throws -> Int) rethrows -> (ns: Double, sink: Int)
{
  var best = Double.infinity
  var sink = 0
  for _ in 0..<rounds {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { sink &+= try body() }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
    best = min(best, elapsed / Double(iterations))
  }
  return (best, sink)
}

/// Pads cells into aligned columns.
func table(_ rows: [[String]]) -> String {
  guard let first = rows.first else { return "" }
  let widths = (0..<first.count).map { col in rows.map { $0[col].count }.max() ?? 0 }
  return rows.map { row in
    row.enumerated().map { col, cell in
      col == 0
        ? cell.padding(toLength: widths[col], withPad: " ", startingAt: 0)
        : String(repeating: " ", count: widths[col] - cell.count) + cell
    }.joined(separator: "   ")
  }.joined(separator: "\n")
}

func format(_ value: Double, digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

/// The process's peak resident set so far, in bytes (`getrusage`; kilobytes on Linux, bytes on Darwin).
func peakResidentBytes() -> Int {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
  #endif
}
