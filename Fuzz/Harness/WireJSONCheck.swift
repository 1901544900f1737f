import Foundation
import Reconcile
import ReconcileTestSupport

/// Fuzzes the Web Services JSON readers: `Record(wireJSON:)`, which checks the bytes strictly before decoding, and
/// `WireJSON.check` against Foundation's parser. Properties:
/// - whatever `WireJSON.check` accepts, `JSONSerialization` parses too (the strict check is never looser);
/// - `Record(wireJSON:)` and `JSONDecoder().decode(Record.self, …)` agree on every document the check accepts, except
///   where a number has more digits than a `Double` holds (`JSONDecoder` then reads it through a rounded `Double`);
/// - a record that decodes and validates is encoded again and decodes equal.
enum WireJSONCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    let strict: Record?
    do {
      strict = try Record(wireJSON: data)
    } catch {
      try FuzzFinding.requireMessage(error.description, from: "Record(wireJSON:)")
      guard (try? WireJSON.check(data)) != nil else { return }
      strict = nil
    }
    if (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil {
      throw FuzzFinding("WireJSON.check accepted a document Foundation cannot parse")
    }
    let plain = try? WireCoded.decode(data)
    // JSONDecoder reads a number past a Double's digits through a rounded Double; the tree reads its exact value.
    if plain != strict, !WireCoded.hasNumberBeyondDoublePrecision(data) {
      throw FuzzFinding(
        "Record(wireJSON:) gave \(String(describing: strict)), JSONDecoder \(String(describing: plain))")
    }
    guard let record = strict, (try? record.validate()) != nil else { return }
    try FuzzFinding.requireRoundTrip(record, format: "JSON") { try Record(wireJSON: try record.wireJSON()) }
  }
}
