public import Foundation
import Reconcile

/// A property a fuzz target broke on some input, short of a trap: a wrong error type, an empty message, or a record
/// that changed on a round trip.
public struct FuzzFinding: Error, Sendable, CustomStringConvertible {
  /// What went wrong, naming the values involved.
  public var description: String

  /// Creates a finding.
  /// - Parameter description: What went wrong.
  public init(_ description: String) {
    self.description = description
  }

  /// Throws when `message`, an error's description, is empty: every error must say what is wrong.
  static func requireMessage(_ message: String, from target: String) throws(FuzzFinding) {
    if message.isEmpty { throw FuzzFinding("\(target) threw an error with an empty description") }
  }

  /// Throws unless `again` — `record` encoded and decoded once more in the same `format` — gives `record` back.
  static func requireRoundTrip(_ record: Record, format: String, _ again: () throws -> Record) throws(FuzzFinding) {
    let decoded: Record
    do {
      decoded = try again()
    } catch {
      throw FuzzFinding("a decoded record does not survive another \(format) round trip: \(error)")
    }
    if decoded != record { throw FuzzFinding("\(format) round trip changed \(record) into \(decoded)") }
  }
}

extension FuzzFinding: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}
