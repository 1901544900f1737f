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
}
