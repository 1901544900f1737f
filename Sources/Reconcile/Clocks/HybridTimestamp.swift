public import Foundation

/// A hybrid-logical-clock timestamp: a wall time, a counter that orders events within one millisecond, and the node
/// that made it.
///
/// Timestamps order by wall time, then counter, then node ID, so two timestamps from different nodes are never equal
/// and every replica sorts them the same way.
public struct HybridTimestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// The logical wall time `l`, in milliseconds since 1970: the largest physical time the node has seen.
  public var wallTime: Int64
  /// The logical counter `c`, which orders events that share a wall time.
  public var counter: UInt32
  /// The node that made the timestamp; it breaks ties between nodes.
  public var nodeID: String

  /// Creates a timestamp from its parts.
  /// - Parameters:
  ///   - wallTime: Milliseconds since 1970.
  ///   - counter: The logical counter.
  ///   - nodeID: The node that made it.
  public init(wallTime: Int64, counter: UInt32, nodeID: String) {
    self.wallTime = wallTime
    self.counter = counter
    self.nodeID = nodeID
  }

  /// The wall time as a date.
  public var date: Date { Date(timeIntervalSince1970: Double(wallTime) / 1000) }

  /// Orders by wall time, then counter, then node ID.
  public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
    if lhs.wallTime != rhs.wallTime { return lhs.wallTime < rhs.wallTime }
    if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
    return lhs.nodeID < rhs.nodeID
  }

  /// The wall time in ISO 8601 with milliseconds, the counter and the node, such as
  /// `2026-11-21T03:40:36.123Z/2@phone`.
  public var description: String {
    let (seconds, milliseconds) = wallTime.quotientAndRemainder(dividingBy: 1000)
    let whole = milliseconds < 0 ? seconds - 1 : seconds
    let fraction = (milliseconds + 1000) % 1000
    let time = Date(timeIntervalSince1970: Double(whole)).formatted(.iso8601).dropLast()
    let padded = String(fraction + 1000).dropFirst()
    return "\(time).\(padded)Z/\(counter)@\(nodeID)"
  }
}
