public import Foundation
public import Reconcile

/// What the simulation tells a client it builds: the device, the user, the zone, and the app's merge rules.
public struct ClientSetup: Sendable {
  /// The device's name.
  public var name: String
  /// The signed-in user's record name.
  public var userRecordName: String
  /// The custom zone to sync, in the user's private database.
  public var zoneID: ZoneID
  /// How the app merges conflicts.
  public var resolver: any ConflictResolver
  /// The fields each edit writes for the resolver.
  public var bookkeeping: EditBookkeeping
  /// Who wins between a delete and an edit.
  public var deletePolicy: DeletePolicy
  /// The app's schema, if the run has one.
  public var schema: Schema?
  /// How far the device's clock is ahead of true time, in seconds.
  public var clockOffset: TimeInterval
  /// What the app does when another client deletes its zone.
  public var zoneDeletion: ZoneLossPolicy
  /// What the app does with its local data when the device's iCloud account changes; `.deleteLocalData` unless set.
  /// A client that offers the choice reports the one it made (`accountChangeResponse`), which the oracles
  /// hold it to: the `sync-engine` client runs the core's policy of this name, and `sync-engine-sample` deletes, as
  /// Apple's sample does, whatever this says.
  public var accountChange: AccountChangePolicy = .deleteLocalData
  /// Deliberate mistakes to make, for showing that an invariant catches them; a client ignores those it does not
  /// model.
  public var defects: Set<ClientDefect>

  /// Creates a setup.
  /// - Parameters:
  ///   - name: The device's name.
  ///   - userRecordName: The user; `_user` unless given.
  ///   - zoneID: The zone.
  ///   - resolver: Server last-writer-wins unless given.
  ///   - bookkeeping: None unless given.
  ///   - deletePolicy: `.deleteWins` unless given.
  ///   - schema: None unless given.
  ///   - clockOffset: 0 unless given.
  ///   - zoneDeletion: `.dropLocalData` unless given.
  ///   - defects: None unless given.
  public init(
    name: String, userRecordName: String = "_user", zoneID: ZoneID,
    resolver: any ConflictResolver = .serverLastWriterWins, bookkeeping: EditBookkeeping = .none,
    deletePolicy: DeletePolicy = .deleteWins, schema: Schema? = nil, clockOffset: TimeInterval = 0,
    zoneDeletion: ZoneLossPolicy = .dropLocalData, defects: Set<ClientDefect> = []
  ) {
    self.name = name
    self.userRecordName = userRecordName
    self.zoneID = zoneID
    self.resolver = resolver
    self.bookkeeping = bookkeeping
    self.deletePolicy = deletePolicy
    self.schema = schema
    self.clockOffset = clockOffset
    self.zoneDeletion = zoneDeletion
    self.defects = defects
  }
}
