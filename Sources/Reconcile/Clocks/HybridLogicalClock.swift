public import Foundation

/// A hybrid logical clock (Kulkarni, Demirbas et al., 2014): timestamps that follow physical time closely, never go
/// backwards, and order every event after the events it could have seen — even when device clocks disagree.
///
/// ```swift
/// var clock = try HybridLogicalClock(nodeID: "phone")
/// let stamp = try clock.now()                   // a local edit, or a message sent
/// _ = try clock.receive(stampFromTablet)        // a message received: the clock moves past it
/// ```
///
/// ## The algorithm
/// For a local or send event at physical time *pt*: *l′* = max(*l*, *pt*); *c* = *c* + 1 if *l′* = *l*, else 0.
/// For a receive of (*l*ₘ, *c*ₘ): *l′* = max(*l*, *l*ₘ, *pt*), and *c* becomes max(*c*, *c*ₘ) + 1, *c* + 1, *c*ₘ + 1 or 0
/// as *l′* equals both, only *l*, only *l*ₘ, or neither. Ties between nodes are broken by ``HybridTimestamp/nodeID``.
///
/// ## Drift
/// One device with a wild clock would drag every clock that hears from it into the future. ``receive(_:at:)`` throws
/// ``HybridLogicalClockError/remoteTooFarAhead(remote:physicalTime:maximumDrift:)`` instead of accepting a timestamp
/// more than ``maximumDrift`` ahead of this node's physical time. The default, ten minutes, tolerates phones whose
/// clocks are a few minutes off.
///
/// Physical time is passed in (it defaults to `Date()`), so tests and simulations stay deterministic.
public struct HybridLogicalClock: Sendable, Hashable {
  /// This node's ID, which breaks ties between timestamps of different nodes.
  public let nodeID: String
  /// How far ahead of this node's physical time a received timestamp may be.
  public let maximumDrift: Duration
  /// The last timestamp this clock issued or received; `nil` before the first event.
  public private(set) var latest: HybridTimestamp?

  private let maximumDriftMilliseconds: Int64

  /// Creates a clock for one node.
  /// - Parameters:
  ///   - nodeID: A unique, stable ID for the node, such as a device ID; 1 to 255 UTF-8 bytes.
  ///   - maximumDrift: How far ahead a received timestamp may be; ten minutes unless given.
  ///   - latest: The last timestamp of a clock saved earlier, so a restarted node never goes backwards.
  /// - Throws: ``HybridLogicalClockError/invalidNodeID(_:)`` or ``HybridLogicalClockError/invalidMaximumDrift(_:)``.
  public init(nodeID: String, maximumDrift: Duration = .seconds(600), latest: HybridTimestamp? = nil)
    throws(HybridLogicalClockError)
  {
    guard (1...255).contains(nodeID.utf8.count) else { throw .invalidNodeID(nodeID) }
    guard maximumDrift >= .zero else { throw .invalidMaximumDrift(maximumDrift) }
    self.nodeID = nodeID
    self.maximumDrift = maximumDrift
    self.latest = latest
    let (seconds, attoseconds) = maximumDrift.components
    maximumDriftMilliseconds =
      seconds.multipliedReportingOverflow(by: 1000).overflow
      ? Int64.max : seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }

  /// A timestamp for a local event, or for a message about to be sent.
  /// - Parameter physicalTime: This node's physical clock; `Date()` unless given.
  /// - Returns: A timestamp later than every one this clock issued or received.
  /// - Throws: ``HybridLogicalClockError/invalidPhysicalTime(_:)`` or
  ///   ``HybridLogicalClockError/counterOverflow(_:)``.
  public mutating func now(at physicalTime: Date = Date()) throws(HybridLogicalClockError) -> HybridTimestamp {
    let pt = try Self.milliseconds(physicalTime)
    guard let last = latest, last.wallTime >= pt else { return issue(wallTime: pt, counter: 0) }
    return try issue(wallTime: last.wallTime, counter: Self.increment(last.counter, at: last))
  }

  /// Moves the clock past a timestamp received from another node.
  /// - Parameters:
  ///   - remote: The received timestamp.
  ///   - physicalTime: This node's physical clock; `Date()` unless given.
  /// - Returns: The timestamp of the receive event, later than both `remote` and every earlier timestamp of this clock.
  /// - Throws: ``HybridLogicalClockError/remoteTooFarAhead(remote:physicalTime:maximumDrift:)`` when `remote` is more
  ///   than ``maximumDrift`` ahead of `physicalTime` (the clock is unchanged); also as ``now(at:)``.
  public mutating func receive(_ remote: HybridTimestamp, at physicalTime: Date = Date())
    throws(HybridLogicalClockError) -> HybridTimestamp
  {
    let pt = try Self.milliseconds(physicalTime)
    let (ahead, overflow) = remote.wallTime.subtractingReportingOverflow(pt)
    let tooFarAhead = overflow ? remote.wallTime > pt : ahead > maximumDriftMilliseconds
    guard !tooFarAhead else {
      throw .remoteTooFarAhead(remote: remote, physicalTime: physicalTime, maximumDrift: maximumDrift)
    }
    let local = latest ?? HybridTimestamp(wallTime: Int64.min, counter: 0, nodeID: nodeID)
    let wallTime = max(local.wallTime, remote.wallTime, pt)
    let counter: UInt32
    if wallTime == local.wallTime && wallTime == remote.wallTime {
      counter = try Self.increment(max(local.counter, remote.counter), at: max(local, remote))
    } else if wallTime == local.wallTime {
      counter = try Self.increment(local.counter, at: local)
    } else if wallTime == remote.wallTime {
      counter = try Self.increment(remote.counter, at: remote)
    } else {
      counter = 0
    }
    return issue(wallTime: wallTime, counter: counter)
  }

  private mutating func issue(wallTime: Int64, counter: UInt32) -> HybridTimestamp {
    let stamp = HybridTimestamp(wallTime: wallTime, counter: counter, nodeID: nodeID)
    latest = stamp
    return stamp
  }

  private static func increment(_ counter: UInt32, at stamp: HybridTimestamp) throws(HybridLogicalClockError) -> UInt32
  {
    guard counter < UInt32.max else { throw .counterOverflow(stamp) }
    return counter + 1
  }

  /// 2^53 milliseconds is about 285,000 years: every real clock reading fits, and the conversion is exact.
  private static let physicalTimeLimit: Double = 9_007_199_254_740_992

  private static func milliseconds(_ date: Date) throws(HybridLogicalClockError) -> Int64 {
    let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
    guard ms.isFinite, abs(ms) <= physicalTimeLimit else { throw .invalidPhysicalTime(date) }
    return Int64(ms)
  }
}
