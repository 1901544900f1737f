import Foundation
public import Reconcile

/// One slice of a seed range, so many machines can share the seeds: shard *i* of *n* runs the seeds whose remainder
/// modulo *n* is *i*.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
  /// The slice's index, from 0.
  public let index: Int
  /// How many slices.
  public let count: Int

  /// Creates a shard.
  /// - Parameters:
  ///   - index: From 0 to `count - 1`.
  ///   - count: At least 1.
  /// - Throws: ``ShardError`` when the numbers do not make a shard.
  public init(index: Int, of count: Int) throws(ShardError) {
    guard count >= 1, (0..<count).contains(index) else { throw ShardError(text: "\(index) of \(count)") }
    self.index = index
    self.count = count
  }

  /// Reads `i/n` or `i of n` (as a CI matrix writes it).
  /// - Parameter text: The shard.
  /// - Throws: ``ShardError`` naming the text.
  public init(parsing text: String) throws(ShardError) {
    let parts = text.replacingOccurrences(of: " of ", with: "/").split(separator: "/")
    guard parts.count == 2, let index = Int(parts[0].trimmingCharacters(in: .whitespaces)),
      let count = Int(parts[1].trimmingCharacters(in: .whitespaces))
    else { throw ShardError(text: text) }
    try self.init(index: index, of: count)
  }

  /// Whether this shard runs `seed`.
  /// - Parameter seed: A seed.
  public func contains(_ seed: UInt64) -> Bool { seed % UInt64(count) == UInt64(index) }

  /// `i of n`.
  public var description: String { "\(index) of \(count)" }
}

/// A shard that does not make sense, such as `3 of 2`.
public struct ShardError: Error, Sendable, Hashable, DescribedError {
  /// The text given.
  public var text: String

  /// Names the text and the rule.
  public var description: String { "invalid shard \"\(text)\": write i/n or \"i of n\" with 0 ≤ i < n" }
}
