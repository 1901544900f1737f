/// What users do in a seeded run, drawn per seed so that devices collide: a few hot records take most edits and
/// deletes, and edits come in bursts without a sync (seed 004's queued-edit pitfall).
///
/// Beside these knobs the scheduler always mixes in offline spells while others edit, deletes racing edits of the same
/// hot records, and re-creating a record under an ID that was deleted.
public struct Workload: Sendable, Hashable {
  /// How many of the first records created are hot, drawn per seed from this range.
  public var hotRecords: ClosedRange<Int>
  /// The share of edits and deletes aimed at a hot record the device holds, drawn per seed from this range.
  public var hotShare: ClosedRange<Double>
  /// The chance that an edit starts a burst of 2–5 edits on the same device without a sync.
  public var burstChance: Double
  /// Whether devices send their queue right after each user action without fetching first, as CKSyncEngine
  /// schedules a send after local changes; conflicts then reach the server as `serverRecordChanged`.
  public var sendsAfterEdits: Bool
  /// Whether a device may create a record under a name another device created (one it does not show: deleted, or not
  /// yet fetched), as apps that name records after their content do; `false` reuses only the device's own names, as
  /// apps that name records with UUIDs do (a re-created record is then the same device's, say an undone deletion).
  public var sharesRecordNames = true

  /// Creates a workload.
  /// - Parameters:
  ///   - hotRecords: 2...4 unless given.
  ///   - hotShare: 0.7...0.95 unless given.
  ///   - burstChance: 0.8 unless given.
  ///   - sendsAfterEdits: `true` unless given.
  public init(
    hotRecords: ClosedRange<Int> = 2...4, hotShare: ClosedRange<Double> = 0.7...0.95, burstChance: Double = 0.8,
    sendsAfterEdits: Bool = true
  ) {
    self.sendsAfterEdits = sendsAfterEdits
    self.hotRecords = max(0, hotRecords.lowerBound)...max(0, hotRecords.upperBound)
    self.hotShare = min(1, max(0, hotShare.lowerBound))...min(1, max(0, hotShare.upperBound))
    self.burstChance = min(1, max(0, burstChance))
  }

  /// The default: hot records, bursts, races.
  public static let colliding = Workload()
  /// Edits spread evenly over every record, no bursts: few conflicts.
  public static let spread = Workload(hotRecords: 0...0, hotShare: 0...0, burstChance: 0, sendsAfterEdits: false)

  /// One seed's draw.
  struct Draw: Sendable {
    /// The hot records, hottest first.
    var hot: [String]
    var hotShare: Double
    var burstChance: Double
    var sharesRecordNames: Bool
  }

  func draw(_ random: inout SimulationRandom) -> Draw {
    let count = hotRecords.lowerBound + random.below(hotRecords.count)
    let unit = Double(random.next() >> 11) / Double(1 << 53)
    let share = hotShare.lowerBound + (hotShare.upperBound - hotShare.lowerBound) * unit
    return Draw(
      hot: (0..<count).map { "r\($0 + 1)" }, hotShare: share, burstChance: burstChance,
      sharesRecordNames: sharesRecordNames)
  }
}
