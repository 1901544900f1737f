public import Foundation

/// Why a ``HybridLogicalClock`` refused to make or accept a timestamp.
public enum HybridLogicalClockError: Error, Sendable, Hashable, DescribedError {
  /// The node ID is empty or longer than 255 UTF-8 bytes.
  case invalidNodeID(String)
  /// The maximum drift is negative.
  case invalidMaximumDrift(Duration)
  /// The physical time is not a finite date within ±285,000 years of 1970.
  case invalidPhysicalTime(Date)
  /// A received timestamp is further ahead of this node's physical clock than the maximum drift allows. Accepting it
  /// would drag this clock — and every clock that hears from it — into the future.
  case remoteTooFarAhead(remote: HybridTimestamp, physicalTime: Date, maximumDrift: Duration)
  /// More than 4,294,967,295 events shared one millisecond of wall time.
  case counterOverflow(HybridTimestamp)

  /// A sentence naming the bad input.
  public var description: String {
    switch self {
    case .invalidNodeID(let id):
      return "The node ID \"\(id)\" is not usable: it must have 1 to 255 UTF-8 bytes."
    case .invalidMaximumDrift(let drift):
      return "The maximum drift \(drift) is negative."
    case .invalidPhysicalTime(let date):
      return "The physical time \(date.timeIntervalSince1970) seconds since 1970 is not a usable clock reading."
    case .remoteTooFarAhead(let remote, let physicalTime, let drift):
      let ahead = Double(remote.wallTime) / 1000 - physicalTime.timeIntervalSince1970
      return
        "The timestamp \(remote) is \(ahead) seconds ahead of this clock, more than the maximum drift of \(drift); "
        + "the sender's clock is probably wrong."
    case .counterOverflow(let stamp):
      return "The clock's counter overflowed at \(stamp)."
    }
  }
}
