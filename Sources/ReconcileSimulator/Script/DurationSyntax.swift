package import Foundation

/// Durations in scripts: a number and a unit, `250ms`, `30s`, `5m`, `2h`, `1d`, optionally signed (`-5m`).
package enum DurationSyntax {
  package static let units: [(suffix: String, seconds: Double)] = [
    ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400),
  ]

  /// The longest duration a script may write: a year.
  package static let longest: TimeInterval = 366 * 86_400

  /// `seconds` as whole seconds, or `nil` when it has a fraction or is longer than ``longest``: the simulator counts
  /// whole seconds.
  package static func wholeSeconds(_ seconds: TimeInterval) -> Int? {
    seconds == seconds.rounded() && abs(seconds) <= longest ? Int(seconds) : nil
  }

  /// Reads a duration.
  /// - Parameter text: Such as `30s` or `-5m`.
  /// - Returns: Seconds.
  /// - Throws: ``ScriptError`` naming the text when the number or the unit is missing or wrong, or it is beyond a
  ///   year.
  package static func parse(_ text: String) throws(ScriptError) -> TimeInterval {
    // Longest suffix first, so `ms` is not read as `m` after `…s`.
    for unit in units.sorted(by: { $0.suffix.count > $1.suffix.count }) where text.hasSuffix(unit.suffix) {
      let number = text.dropLast(unit.suffix.count)
      guard let value = Double(number), value.isFinite, number.allSatisfy({ $0.isASCIIDigit || "+-.".contains($0) })
      else { break }
      let seconds = value * unit.seconds
      guard abs(seconds) <= longest else { throw ScriptError("\(text): a duration of at most a year, please") }
      return seconds
    }
    throw ScriptError("\(text): not a duration; write a number and a unit, such as 30s, 5m, 2h or 250ms")
  }

  /// `90` → `1m30s`; whole seconds, or milliseconds below one second.
  package static func render(_ seconds: TimeInterval) -> String {
    if seconds == 0 { return "0s" }
    let sign = seconds < 0 ? "-" : ""
    let magnitude = abs(seconds)
    if magnitude < 1 { return sign + "\(Int((magnitude * 1000).rounded()))ms" }
    if magnitude < 60 {
      let text = magnitude == magnitude.rounded() ? "\(Int(magnitude))" : String(format: "%.1f", magnitude)
      return sign + text + "s"
    }
    let whole = Int(magnitude.rounded())
    let (hours, minutes, rest) = (whole / 3600, whole % 3600 / 60, whole % 60)
    var text = hours > 0 ? "\(hours)h" : ""
    if minutes > 0 { text += "\(minutes)m" }
    if rest > 0 { text += "\(rest)s" }
    return sign + text
  }

  /// A device clock's offset in words: `on`, `5m behind`, `90s ahead of` (true time follows).
  package static func offsetText(_ offset: TimeInterval) -> String {
    if offset == 0 { return "on" }
    return render(abs(offset)) + (offset < 0 ? " behind" : " ahead")
  }
}
