public import Foundation
public import Reconcile
public import ReconcileSimulator

/// One command of the playground's language, as the REPL and scripts share it. ``ScriptParser`` makes them;
/// ``PlaygroundSession`` carries them out.
public enum ScriptCommand: Sendable, Hashable {
  /// `device add NAME [--clock-offset 5m] [--schema 1.0] [--user NAME]`
  case addDevice(DeviceSetup)
  /// `NAME create TYPE/NAME key=value…`; `TYPE/{1..100}` makes many.
  case create(device: String, records: [RecordPath], fields: [FieldAssignment])
  /// `NAME edit TYPE/NAME key=value…`
  case edit(device: String, records: [RecordPath], fields: [FieldAssignment])
  /// `NAME delete TYPE/NAME`
  case delete(device: String, records: [RecordPath])
  /// `NAME sync`
  case sync(device: String)
  /// `sync all`: every device in turn, round after round, until a round sends no change.
  case syncAll
  /// `NAME online` / `NAME offline`
  case setOnline(device: String, Bool)
  /// `NAME crash`: the app quits and relaunches; what is on disk survives.
  case crash(device: String)
  /// `NAME restart`: clears a halt.
  case restart(device: String)
  /// `NAME upgrade 2.0`: installs another app version's schema.
  case upgrade(device: String, SchemaVersion)
  /// `NAME clock +90s`: the device's clock jumps (back, when negative), as in replay scripts.
  case jumpClock(device: String, by: TimeInterval)
  /// `resolver NAME [--prefer P] [--union k1,k2]`
  case resolver(ResolverSetting)
  /// `delete-policy deleteWins|editWins`
  case deletePolicy(DeletePolicy)
  /// `schema VERSION TYPE key:type… [--unknown-keys halt|preserve] [--future-versions halt|allow-minor]`
  case schema(SchemaDeclaration)
  /// `fault …`
  case fault(Fault)
  /// `limit batch-items|batch-bytes|page-size N`
  case limit(ServerLimit, Int)
  /// `advance 30s`
  case advance(TimeInterval)
  /// `show server|NAME|diff|diagnostics|log [--json]`
  case show(ShowTarget, json: Bool)
  /// `expect …`
  case expect(Expectation)
  /// `help`
  case help
}

/// A record named in a script: `Note/1`.
public struct RecordPath: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The record type.
  public var recordType: String
  /// The record name; the playground's records live in one zone, so the name alone is the record's identity.
  public var recordName: String

  /// Names a record.
  /// - Parameters:
  ///   - recordType: The record type.
  ///   - recordName: The record name.
  public init(recordType: String, recordName: String) {
    self.recordType = recordType
    self.recordName = recordName
  }

  /// `TYPE/NAME`.
  public var description: String { "\(recordType)/\(recordName)" }

  /// Orders by name, then type.
  public static func < (lhs: RecordPath, rhs: RecordPath) -> Bool {
    (lhs.recordName, lhs.recordType) < (rhs.recordName, rhs.recordType)
  }
}

/// `key=value`, or `encrypted:key=value` for an encrypted value.
public struct FieldAssignment: Sendable, Hashable {
  /// The field's key.
  public var key: String
  /// The value; `nil` removes the field.
  public var value: FieldValue?
  /// Whether the value is stored in the record's encrypted values.
  public var encrypted: Bool

  /// Creates an assignment.
  /// - Parameters:
  ///   - key: The field's key.
  ///   - value: The value, or `nil` to remove the field.
  ///   - encrypted: Whether it is an encrypted value; `false` unless given.
  public init(key: String, value: FieldValue?, encrypted: Bool = false) {
    self.key = key
    self.value = value
    self.encrypted = encrypted
  }
}

/// `device add` with its options.
public struct DeviceSetup: Sendable, Hashable {
  /// The device's name.
  public var name: String
  /// How far its clock is ahead of true time, in seconds (negative: behind).
  public var clockOffset: TimeInterval
  /// The app version whose declared schema it runs, or `nil` for none.
  public var schema: SchemaVersion?
  /// The signed-in user, `_user` unless given.
  public var user: String

  /// Describes a device.
  /// - Parameters:
  ///   - name: Its name.
  ///   - clockOffset: Its clock skew in seconds; 0 unless given.
  ///   - schema: The app version it runs; none unless given.
  ///   - user: The signed-in user; `_user` unless given.
  public init(name: String, clockOffset: TimeInterval = 0, schema: SchemaVersion? = nil, user: String = "_user") {
    self.name = name
    self.clockOffset = clockOffset
    self.schema = schema
    self.user = user
  }
}

/// `resolver NAME [options]`.
public struct ResolverSetting: Sendable, Hashable {
  /// The built-in resolver.
  public var choice: ResolverChoice
  /// For `field-merge`: who wins a same-field conflict (`server` unless given).
  public var prefer: SameFieldPolicy
  /// For `field-merge`: list fields merged by union.
  public var unionKeys: [String]

  /// Creates a setting.
  /// - Parameters:
  ///   - choice: The built-in resolver.
  ///   - prefer: For `field-merge`, who wins a same-field conflict; the server unless given.
  ///   - unionKeys: For `field-merge`, list fields merged by union; none unless given.
  public init(choice: ResolverChoice, prefer: SameFieldPolicy = .server, unionKeys: [String] = []) {
    self.choice = choice
    self.prefer = prefer
    self.unionKeys = unionKeys
  }

  /// Who wins a same-field conflict under `field-merge`.
  public enum SameFieldPolicy: String, Sendable, Hashable, CaseIterable {
    /// The server's value.
    case server
    /// The device's value.
    case client
    /// The later device clock (the `editedAt` field).
    case localClock = "local-clock"
    /// The larger edit count (the `editCount` field).
    case editCount = "edit-count"
  }
}

/// `schema VERSION TYPE key:type…`: what one app version knows about one record type.
public struct SchemaDeclaration: Sendable, Hashable {
  /// The app version.
  public var version: SchemaVersion
  /// The record type and its fields.
  public var recordSchema: RecordSchema
  /// What the app does with keys it does not know.
  public var unknownKeys: Schema.UnknownKeyPolicy
  /// What the app does with records from newer versions.
  public var futureVersions: Schema.FutureVersionPolicy

  /// Creates a declaration.
  /// - Parameters:
  ///   - version: The app version.
  ///   - recordSchema: The record type and its fields; its version should be `version`.
  ///   - unknownKeys: `.halt` unless given.
  ///   - futureVersions: `.halt` unless given.
  public init(
    version: SchemaVersion, recordSchema: RecordSchema, unknownKeys: Schema.UnknownKeyPolicy = .halt,
    futureVersions: Schema.FutureVersionPolicy = .halt
  ) {
    self.version = version
    self.recordSchema = recordSchema
    self.unknownKeys = unknownKeys
    self.futureVersions = futureVersions
  }
}

/// `fault …`: what goes wrong next.
public enum Fault: Sendable, Hashable {
  /// `fault NAME disconnect-after-save`: the device's next save reaches the server, then the device loses its
  /// network before the answer arrives.
  case disconnectAfterSave(device: String)
  /// `fault NAME lose-response [N]`: the server handles the device's next N requests but the answers are lost.
  case loseResponses(device: String, count: Int)
  /// `fault NAME corrupt TYPE/NAME`: the device's stored copy of the record is damaged on disk; the device finds out
  /// at its next check, throws the copy away and fetches the server's again.
  case corruptStorage(device: String, record: RecordPath)
  /// `fault throttle 30s`: the whole container answers `serviceUnavailable` with a retry-after.
  case throttle(TimeInterval)
  /// `fault error NAME [N] [--device D] [--retry-after 5s]`: the server answers the next N requests with an error.
  case error(ServerError, count: Int, device: String?)
  /// `fault expire-tokens`: the server compacts its history; old change tokens expire.
  case expireTokens
  /// `fault clear`: ends every fault.
  case clear
}

/// `limit …`: the server's limits.
public enum ServerLimit: String, Sendable, Hashable, CaseIterable {
  /// The most records saved and deleted per request (400 in CloudKit).
  case batchItems = "batch-items"
  /// The most bytes per request (2 MB in CloudKit).
  case batchBytes = "batch-bytes"
  /// The most changes per page of a change feed.
  case pageSize = "page-size"
}

/// What `show` prints.
public enum ShowTarget: Sendable, Hashable {
  /// The server's records.
  case server
  /// One device's records and queue.
  case device(String)
  /// Every field on which the server and the devices disagree.
  case diff
  /// Each device's sync diagnostics.
  case diagnostics
  /// Every request and answer so far.
  case log
}

/// Where a value is looked up: the server or a device.
public enum Place: Sendable, Hashable, CustomStringConvertible {
  /// The server.
  case server
  /// A device, by name.
  case device(String)

  /// `server` or the device's name.
  public var description: String {
    switch self {
    case .server: "server"
    case .device(let name): name
    }
  }
}

/// An `expect` assertion; a failed one stops a script.
public enum Expectation: Sendable, Hashable {
  /// `expect PLACE TYPE/NAME KEY = VALUE` (or `!=`); `nil` means "no value".
  case field(Place, RecordPath, key: String, Comparison, FieldValue?)
  /// `expect PLACE TYPE/NAME exists` / `absent`
  case exists(Place, RecordPath, Bool)
  /// `expect PLACE METRIC OP NUMBER`: `records`, `queued`, `requests`, `errors`, `errors:CODE`, `waited` (seconds).
  case metric(Place, String, Comparison, Double)
  /// `expect NAME status = idle|syncing|waiting|offline|halted`
  case status(String, DeviceStatus)
  /// `expect halted NAME`
  case halted(String)
  /// `expect converged`: no device is halted or has changes queued, and every device holds what the server holds.
  case converged

  /// A comparison operator.
  public enum Comparison: String, Sendable, Hashable, CaseIterable {
    /// `=`
    case equal = "="
    /// `!=`
    case notEqual = "!="
    /// `<`
    case less = "<"
    /// `<=`
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=`
    case greaterOrEqual = ">="

    func holds<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
      switch self {
      case .equal: lhs == rhs
      case .notEqual: lhs != rhs
      case .less: lhs < rhs
      case .lessOrEqual: lhs <= rhs
      case .greater: lhs > rhs
      case .greaterOrEqual: lhs >= rhs
      }
    }
  }
}
