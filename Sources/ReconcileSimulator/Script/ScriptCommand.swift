package import Foundation
package import Reconcile

/// One line of Reconcile's script language: what the playground's REPL and `run` read, and what the property runner
/// writes as a replay script (`.rcp`). ``ScriptParser`` reads every line into one of these; `SimulationSession` carries
/// every one out in one simulated world, and ``SimulationScript`` turns a whole replay script into a world and its
/// steps.
///
/// Every command runs in the REPL and `run`. A replay script holds those that are a world's setup or one of its steps
/// (``runsInReplay``); the rest look (`show`, `expect` on values, `help`), repeat steps (`sync all`, `wait`), or act
/// beyond a seeded run's steps (`schema`, `restart`, a record of another type …). The article *The script language*
/// lists them.
package enum ScriptCommand: Sendable, Hashable {
  // MARK: The world

  /// `device add NAME [--clock-offset 5m] [--upgraded] [--schema 1.0] [--user NAME]`
  case addDevice(DeviceSetup)
  /// `resolver NAME [--prefer P] [--union k1,k2]`
  case resolver(ResolverSetting)
  /// `delete-policy deleteWins|editWins`
  case deletePolicy(DeletePolicy)
  /// `schema VERSION TYPE key:type… [--unknown-keys halt|preserve] [--future-versions halt|allow-minor]`
  case schema(SchemaDeclaration)
  /// `schemas none|minor|major`: the simulator's two app versions (``SchemaScenario``).
  case schemas(SchemaScenario)
  /// `client NAME`: the sync client every device of a simulation runs (``ClientUnderTest``).
  case client(String)
  /// `invariants NAME…`: the invariants `expect invariants` judges; the resolver's defaults otherwise.
  case invariants(Set<Invariant>)
  /// `zone-deletion drop|reupload`
  case zoneDeletion(ZoneLossPolicy)
  /// `account-change delete|keep`
  case accountChange(AccountChangePolicy)
  /// `send-after-edits`: devices send right after each user action (``Workload/sendsAfterEdits``).
  case sendAfterEdits
  /// `steps-may-skip`: the steps were drawn at random (the runner writes it into every counterexample), so one that
  /// cannot apply is skipped, as when it was drawn; without it, such a line is an error in `run` and the REPL.
  case stepsMaySkip
  /// `defect NAME`: a deliberate mistake every device of a simulation makes (``ClientDefect``).
  case defect(ClientDefect)
  /// `limit batch-items|batch-bytes|page-size N …` (one or more pairs; older scripts wrote `server-limits`).
  case limits([ServerLimit: Int])

  // MARK: Steps

  /// `NAME create TYPE/NAME key=value…`; `TYPE/{1..100}` makes many.
  case create(device: String, records: [RecordPath], fields: [FieldAssignment])
  /// `NAME edit TYPE/NAME key=value… -key`
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
  /// `NAME quit` / `NAME launch`: the app quits and stays quit, or launches again.
  case running(device: String, Bool)
  /// `NAME restart`: clears a halt.
  case restart(device: String)
  /// `NAME reset-sync`: the user resets sync; the device drops its tokens and sync state, keeping what it has not sent.
  case resetSync(device: String)
  /// `NAME sign-in USER` / `NAME sign-out`: the device's iCloud account changes (`USER`: a user record name).
  case account(device: String, user: String?)
  /// `NAME answer-account keep|delete`: the user answers the question an account change asked.
  case answerAccount(device: String, keepingData: Bool)
  /// `NAME upgrade [VERSION]`: installs another app version's schema; without a version, the simulator's newer one.
  case upgrade(device: String, SchemaVersion?)
  /// `NAME clock +90s`: the device's clock jumps (back, when negative).
  case jumpClock(device: String, by: TimeInterval)
  /// `advance 30s`
  case advance(TimeInterval)
  /// `fault …`: one or more faults (`fault lose-response NAME 3` is three), in order.
  case fault([SimulationFault])
  /// `fault clear`: ends every fault.
  case clearFaults
  /// `wait [NAME]`: virtual time passes until the device (or every device) is idle, halted or offline.
  case wait(device: String?)
  /// `quiesce`: faults off, every device online and restarted, syncing until nothing changes.
  case quiesce

  // MARK: Looking

  /// `show server|NAME|diff|diagnostics|log [--json]`
  case show(ShowTarget, json: Bool)
  /// `expect …`
  case expect(Expectation)
  /// `help`
  case help
  /// `reset`: start over in an empty world, as if the session had just begun.
  case reset

  /// The device a step line is about, if any.
  package var device: String? {
    switch self {
    case .create(let device, _, _), .edit(let device, _, _), .delete(let device, _), .sync(let device),
      .setOnline(let device, _), .crash(let device), .running(let device, _), .restart(let device),
      .resetSync(let device),
      .account(let device, _), .answerAccount(let device, _),
      .upgrade(let device, _),
      .jumpClock(let device, _):
      device
    case .fault(let faults): faults.first?.device
    default: nil
    }
  }

  /// Whether a replay script may hold the line: it sets the world up or is one of its steps.
  package var runsInReplay: Bool {
    switch self {
    case .addDevice(let setup):
      return setup.schema == nil && setup.user == Simulation.user
        && DurationSyntax.wholeSeconds(setup.clockOffset) != nil
    case .resolver(let setting):
      return setting.prefer == .server && setting.unionKeys.isEmpty && setting.merges.isEmpty
        && setting.textGranularity == .line && setting.textOverlap == .both
    case .edit(_, _, let fields): return !fields.contains { $0.change != .set }
    case .upgrade(_, let version): return version == nil
    case .expect(let expectation): return expectation == .invariants
    case .deletePolicy, .schemas, .client, .invariants, .zoneDeletion, .accountChange, .sendAfterEdits, .stepsMaySkip,
      .defect, .limits, .fault, .clearFaults,
      .sync,
      .setOnline, .crash, .running, .resetSync, .account, .answerAccount, .quiesce, .create, .delete, .restart,
      .jumpClock, .advance:
      return true
    case .schema, .syncAll, .wait, .show, .help, .reset: return false
    }
  }
}

/// A record named in a script: `Note/1`.
package struct RecordPath: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The record type.
  package var recordType: String
  /// The record name; the playground's records live in one zone, so the name alone is the record's identity.
  package var recordName: String

  /// Names a record.
  /// - Parameters:
  ///   - recordType: The record type.
  ///   - recordName: The record name.
  package init(recordType: String, recordName: String) {
    self.recordType = recordType
    self.recordName = recordName
  }

  /// `TYPE/NAME`.
  package var description: String { "\(recordType)/\(recordName)" }

  /// The record's ID in the zone every device of the language syncs.
  /// - Throws: ``ScriptError`` naming the path when the name is not one CloudKit accepts.
  package func recordID() throws(ScriptError) -> RecordID {
    do {
      return try RecordID(recordName: recordName, zoneID: Simulation.zoneID)
    } catch {
      throw ScriptError("\(self): \(error)")
    }
  }

  /// Orders by name, then type.
  package static func < (lhs: RecordPath, rhs: RecordPath) -> Bool {
    (lhs.recordName, lhs.recordType) < (rhs.recordName, rhs.recordType)
  }
}

/// `key=value`, or `encrypted:key=value` for an encrypted value; `key+=value` and `key-=value` change the device's
/// current value.
package struct FieldAssignment: Sendable, Hashable {
  /// How the value is applied.
  package enum Change: Sendable, Hashable {
    /// `=`: the value replaces the field's.
    case set
    /// `+=`: added to a number, appended to text or a list (a missing field counts as zero or empty).
    case add
    /// `-=`: subtracted from a number, its first occurrence cut from text, or each of its elements removed from a list.
    case remove
  }

  /// The field's key.
  package var key: String
  /// The value; `nil` removes the field.
  package var value: FieldValue?
  /// Whether the value is stored in the record's encrypted values.
  package var encrypted: Bool
  /// How the value is applied.
  package var change: Change = .set

  /// Creates an assignment.
  /// - Parameters:
  ///   - key: The field's key.
  ///   - value: The value, or `nil` to remove the field.
  ///   - encrypted: Whether it is an encrypted value; `false` unless given.
  ///   - change: `.set` unless given.
  package init(key: String, value: FieldValue?, encrypted: Bool = false, change: Change = .set) {
    self.key = key
    self.value = value
    self.encrypted = encrypted
    self.change = change
  }

  /// The field's new value, given its current one.
  /// - Throws: ``ScriptError`` when `+=` or `-=` meets a value of another kind.
  package func applied(to current: FieldValue?) throws(ScriptError) -> FieldValue? {
    guard change != .set, let value else { return value }
    let adding = change == .add
    switch (current, value) {
    case (nil, _) where adding: return value
    case (nil, _): return nil
    case (.int64(let have)?, .int64(let amount)):
      let (result, overflow) = adding ? have.addingReportingOverflow(amount) : have.subtractingReportingOverflow(amount)
      guard !overflow else {
        throw ScriptError("\(key): \(have) \(adding ? "+" : "-") \(amount) does not fit in 64 bits")
      }
      return .int64(result)
    case (.double(let have)?, .double(let amount)): return .double(adding ? have + amount : have - amount)
    case (.double(let have)?, .int64(let amount)):
      return .double(adding ? have + Double(amount) : have - Double(amount))
    case (.string(let have)?, .string(let text)):
      guard !adding else { return .string(have + text) }
      guard let range = have.range(of: text) else { return current }
      return .string(have.replacingCharacters(in: range, with: ""))
    case (.list(let have)?, _):
      let elements = value.listValue ?? [value]
      return .list(adding ? have + elements : have.filter { !elements.contains($0) })
    case (let have?, _):
      throw ScriptError(
        "\(key)\(adding ? "+=" : "-=")…: \(key) holds \(have.type.wireName), which \(value.type.wireName) cannot \(adding ? "add to" : "take from")"
      )
    }
  }
}

/// `resolver NAME [options]`.
package struct ResolverSetting: Sendable, Hashable {
  /// The resolver's name: a built-in (``ResolverChoice``) or, in a replay script, one of your own
  /// (``ResolverUnderTest``).
  package var name: String
  /// For `field-merge`: who wins a same-field conflict (`server` unless given).
  package var prefer: SameFieldPolicy
  /// For `field-merge`: list fields merged by union.
  package var unionKeys: [String]
  /// For `field-merge`: keys merged by one of the merging policies (`--text body`, `--counter plays` …).
  package var merges: [String: KeyMerge] = [:]
  /// For `field-merge`'s `--text` keys: the pieces (`--text-granularity`, lines unless given).
  package var textGranularity: FieldMerge.TextGranularity = .line
  /// For `field-merge`'s `--text` keys: what an overlap keeps (`--text-overlap`, both versions unless given).
  package var textOverlap: TextOverlapChoice = .both

  /// What a `--text` key's overlap keeps, as `--text-overlap` names it.
  package enum TextOverlapChoice: String, Sendable, Hashable, CaseIterable {
    /// `.both`: both versions, the server's first.
    case both
    /// `.server`: the server's version.
    case server
    /// `.client`: the client's version.
    case client
    /// `.markers`: both, between conflict markers.
    case markers

    /// The policy's overlap.
    package var overlap: FieldMerge.TextOverlap {
      switch self {
      case .both: .both
      case .server: .server
      case .client: .client
      case .markers: .markers
      }
    }
  }

  /// A merging policy a `resolver field-merge` line gives keys.
  package enum KeyMerge: String, Sendable, Hashable, CaseIterable {
    /// `--text`: `.text(.line, overlap: .both)`, or the granularity and overlap `--text-granularity` and
    /// `--text-overlap` name.
    case text
    /// `--counter`: `.counter`.
    case counter
    /// `--set`: `.set(.addWins)`.
    case set
    /// `--ordered-list`: `.orderedList`.
    case orderedList = "ordered-list"
    /// `--keep-both`: `.keepBoth(into: "KEYConflict")`.
    case keepBoth = "keep-both"
  }

  /// The built-in resolver this setting names, or `nil` for one of your own.
  package var choice: ResolverChoice? { ResolverChoice(rawValue: name) }

  /// Creates a setting for a built-in resolver.
  /// - Parameters:
  ///   - choice: The built-in resolver.
  ///   - prefer: For `field-merge`, who wins a same-field conflict; the server unless given.
  ///   - unionKeys: For `field-merge`, list fields merged by union; none unless given.
  package init(choice: ResolverChoice, prefer: SameFieldPolicy = .server, unionKeys: [String] = []) {
    self.init(name: choice.rawValue, prefer: prefer, unionKeys: unionKeys)
  }

  /// Creates a setting for a resolver by name.
  /// - Parameters:
  ///   - name: A built-in's name or one of your own.
  ///   - prefer: For `field-merge`, who wins a same-field conflict; the server unless given.
  ///   - unionKeys: For `field-merge`, list fields merged by union; none unless given.
  package init(name: String, prefer: SameFieldPolicy = .server, unionKeys: [String] = []) {
    self.name = name
    self.prefer = prefer
    self.unionKeys = unionKeys
  }

  /// Who wins a same-field conflict under `field-merge`.
  package enum SameFieldPolicy: String, Sendable, Hashable, CaseIterable {
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
package struct SchemaDeclaration: Sendable, Hashable {
  /// The app version.
  package var version: SchemaVersion
  /// The record type and its fields.
  package var recordSchema: RecordSchema
  /// What the app does with keys it does not know.
  package var unknownKeys: Schema.UnknownKeyPolicy
  /// What the app does with records from newer versions.
  package var futureVersions: Schema.FutureVersionPolicy

  /// Creates a declaration.
  /// - Parameters:
  ///   - version: The app version.
  ///   - recordSchema: The record type and its fields; its version should be `version`.
  ///   - unknownKeys: `.halt` unless given.
  ///   - futureVersions: `.halt` unless given.
  package init(
    version: SchemaVersion, recordSchema: RecordSchema, unknownKeys: Schema.UnknownKeyPolicy = .halt,
    futureVersions: Schema.FutureVersionPolicy = .halt
  ) {
    self.version = version
    self.recordSchema = recordSchema
    self.unknownKeys = unknownKeys
    self.futureVersions = futureVersions
  }
}

/// `limit …`: the server's limits.
package enum ServerLimit: String, Sendable, Hashable, CaseIterable {
  /// The most records saved and deleted per request (400 in CloudKit).
  case batchItems = "batch-items"
  /// The most bytes per request (2 MB in CloudKit).
  case batchBytes = "batch-bytes"
  /// The most changes per page of a change feed.
  case pageSize = "page-size"
  /// Every how many conflict answers one comes without the server's record (0: never).
  case conflictWithoutRecordEvery = "conflict-without-record-every"

  /// What a `limit` line set, a line per limit in name order: `server batch-items = 50`.
  package static func confirmation(_ limits: [ServerLimit: Int]) -> [String] {
    limits.sorted { $0.key.rawValue < $1.key.rawValue }.map { "server \($0.key.rawValue) = \($0.value)" }
  }
}

extension SimulatedServer.Limits {
  /// The limit a script's `limit` line names.
  /// - Parameter limit: Which limit.
  package subscript(limit: ServerLimit) -> Int {
    get {
      switch limit {
      case .batchItems: maximumBatchItems
      case .batchBytes: maximumBatchBytes
      case .pageSize: changesPageSize
      case .conflictWithoutRecordEvery: conflictWithoutRecordEvery
      }
    }
    set {
      switch limit {
      case .batchItems: maximumBatchItems = newValue
      case .batchBytes: maximumBatchBytes = newValue
      case .pageSize: changesPageSize = newValue
      case .conflictWithoutRecordEvery: conflictWithoutRecordEvery = newValue
      }
    }
  }
}

/// What `show` prints.
package enum ShowTarget: Sendable, Hashable {
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
package enum Place: Sendable, Hashable, CustomStringConvertible {
  /// The server.
  case server
  /// A device, by name.
  case device(String)

  /// `server` or the device's name.
  package var description: String {
    switch self {
    case .server: "server"
    case .device(let name): name
    }
  }
}

/// An `expect` assertion; a failed one stops a script.
package enum Expectation: Sendable, Hashable {
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
  /// `expect invariants`: the simulator judges the run so far against its invariants (``Invariant``).
  case invariants

  /// A comparison operator.
  package enum Comparison: String, Sendable, Hashable, CaseIterable {
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

    package func holds<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
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
