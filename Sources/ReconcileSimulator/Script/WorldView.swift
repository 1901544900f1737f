import Foundation
package import Reconcile

/// What the looking lines (`show server|NAME|diff`, and `expect` on records, status and convergence) read: the server's
/// records, what each device shows, each device's traffic and the world's trace, as the interpreter
/// (`SimulationSession.interpret`) reads them from the one world.
package struct WorldView {
  /// What one device shows.
  package struct Device {
    package var name: String
    /// The device's records, sorted by ID.
    package var records: [Record]
    var status: DeviceStatus
    package var haltReason: HaltReason?
    /// Changes queued to send.
    var queued: Int
    /// What is queued for each record, where the client tells (the built-in device does; other clients need not).
    var queuedKinds: [RecordID: String]
    /// Each record's sync state where it is more than the server version known, where the client keeps one.
    var syncStates: [RecordID: String]
    var clockOffset: TimeInterval
    var appVersion: String?
    /// The last error the device noted, where the client keeps one (the reference client does).
    var lastError: String?
    /// The records of the server zone this device syncs (its own user's), sorted by ID.
    var serverRecords: [Record]

    /// The record with `id`, found by halving ``records`` (sorted by ID): scripts look up every record of a line.
    package func record(_ id: RecordID) -> Record? {
      var low = 0
      var high = records.count
      while low < high {
        let middle = (low + high) / 2
        if records[middle].recordID < id { low = middle + 1 } else { high = middle }
      }
      return low < records.count && records[low].recordID == id ? records[low] : nil
    }
  }

  /// The server's records in the playground's zone, for every user a device signed in as, sorted by ID.
  package var serverRecords: [Record]
  package var devices: [Device]
  /// Each device's requests, errors and waits.
  package var counts: [String: DeviceCounts]
  /// The world's trace so far, for `show log`: written out only when read, since a view is built for every line a
  /// script runs and a long run's trace is thousands of lines.
  var trace: [String] { traceLines() }
  private let traceLines: () -> [String]
  /// The same trace as structured entries, for `show log --json`; built only when read.
  var log: [LogEntry] { logEntries() }
  private let logEntries: () -> [LogEntry]
  /// The decisions the devices' clients reported so far, oldest first, each with its device's name.
  package var decisions: [(device: String, decision: SyncDecision)]

  /// What `world` shows so far, from what any sync client exposes: the built-in device tells what it queued for each
  /// record; others give their count.
  /// - Parameter world: The world.
  package init(_ world: Simulation) {
    let names = world.clientNames
    let users = Dictionary(world.setup.devices.map { ($0.name, $0.user) }) { first, _ in first }
    // A client that tells its clock (the reference device's diagnostics) shows it as it is now, after any jumps;
    // another, as it was set up.
    let clockOffsets = Dictionary(world.setup.devices.map { ($0.name, $0.clockOffset) }) { first, _ in first }
    counts = Dictionary(zip(names, world.devices.counts)) { first, _ in first }
    traceLines = { world.trace }
    logEntries = { world.traceEntries.map { LogEntry($0, steps: world.steps) } }
    decisions = world.traceEntries.compactMap { entry in
      if case .decision(let device, let decision) = entry { (device, decision) } else { nil }
    }
    let owners = Set(names.compactMap { users[$0] }).sorted()
    var byOwner: [String: [Record]] = [:]
    for owner in owners {
      byOwner[owner] = world.server.records(in: Simulation.zoneID, ownedBy: owner).sorted { $0.recordID < $1.recordID }
    }
    serverRecords = owners.flatMap { byOwner[$0] ?? [] }.sorted { $0.recordID < $1.recordID }
    devices = zip(names, world.clients).map { name, client in
      let diagnostics = DeviceDiagnostics(
        of: client, online: world.isOnline(name), clockOffset: clockOffsets[name] ?? 0)
      return Device(
        name: name, records: client.records.sorted { $0.recordID < $1.recordID },
        status: diagnostics.status,
        haltReason: client.haltReason,
        queued: client.pendingChangeCount,
        queuedKinds: diagnostics.queuedKinds,
        syncStates: Self.waitingStates(of: client),
        clockOffset: diagnostics.clockOffset,
        appVersion: diagnostics.appVersion,
        lastError: diagnostics.lastError, serverRecords: users[name].flatMap { byOwner[$0] } ?? [])
    }
  }

  // MARK: Show

  /// One record in a `show` listing.
  struct RecordRow: Encodable {
    var record: String
    var changeTag: String?
    var queued: String?
    /// The record's sync state, where it is more than the server version known.
    var syncState: String?
    var fields: [String: ShownValue]
  }

  /// The sync state of each record of `client` that is not settled (``RecordSyncState/isSettled``), printed.
  static func waitingStates(of client: any SyncClient) -> [RecordID: String] {
    guard let states = (client as? any ShowsRecordSyncStates)?.recordSyncStates else { return [:] }
    return states.filter { !$0.value.isSettled }.mapValues(\.description)
  }

  /// One device in `show NAME --json`.
  struct DeviceListing: Encodable {
    var device: String
    var status: String
    var queued: Int
    var haltReason: String?
    var records: [RecordRow]
    /// The sync state of records the device no longer shows whose sync is not over, by record name.
    var syncStatesOfRecordsNotShown: [String: String]?
  }

  /// One differing field in `show diff`.
  package struct DiffRow: Encodable {
    var record: String
    var key: String
    var values: [String: String]
  }

  /// What `show` prints: records, differences, diagnostics or the trace.
  package func show(_ target: ShowTarget, json: Bool) throws(ScriptError) -> String {
    switch target {
    case .server:
      let rows = serverRecords.map {
        RecordRow(record: RecordText.path($0), changeTag: $0.recordChangeTag, fields: RecordText.json($0))
      }
      if json { return try Self.json(["records": rows]) }
      guard !serverRecords.isEmpty else { return "the server has no records" }
      return "server: \(serverRecords.count) record\(serverRecords.count == 1 ? "" : "s")\n"
        + TextTable.render(
          [["record", "tag", "fields"]]
            + serverRecords.map { [RecordText.path($0), $0.recordChangeTag ?? "", RecordText.fields($0)] })
    case .device(let name):
      let device = try self.device(name)
      let rows = device.records.map { record in
        RecordRow(
          record: RecordText.path(record), changeTag: record.recordChangeTag,
          queued: device.queuedKinds[record.recordID], syncState: device.syncStates[record.recordID],
          fields: RecordText.json(record))
      }
      // Records the device no longer shows whose sync is not over (a deletion owed, a create that may land late).
      let unshown = device.syncStates.filter { device.record($0.key) == nil }.sorted { $0.key < $1.key }
      if json {
        return try Self.json(
          DeviceListing(
            device: device.name, status: "\(device.status)", queued: device.queued,
            haltReason: device.haltReason?.description, records: rows,
            syncStatesOfRecordsNotShown: unshown.isEmpty
              ? nil : Dictionary(uniqueKeysWithValues: unshown.map { ("\($0.key.recordName)", $0.value) })))
      }
      var text = "\(device.name): \(device.status), \(device.queued) queued"
      if let version = device.appVersion { text += ", app \(version)" }
      if device.clockOffset != 0 {
        let of = device.clockOffset > 0 ? " of" : ""
        text += ", clock \(DurationSyntax.offsetText(device.clockOffset))\(of) true time"
      }
      if let reason = device.haltReason { text += "\nhalted: \(reason)" }
      let notShown = unshown.map { "not shown, sync not over: record \($0.key.recordName): \($0.value)" }
      guard !device.records.isEmpty else {
        return ([text, "no records"] + notShown).joined(separator: "\n")
      }
      // The sync column appears only when some record's sync is not over.
      let sync = rows.contains { $0.syncState != nil }
      return text + "\n"
        + TextTable.render(
          [["record", "tag", "queued"] + (sync ? ["sync"] : []) + ["fields"]]
            + zip(rows, device.records).map { row, record in
              [row.record, record.recordChangeTag ?? "", row.queued ?? ""] + (sync ? [row.syncState ?? ""] : [])
                + [RecordText.fields(record)]
            }) + notShown.map { $0 + "\n" }.joined()
    case .diff:
      let rows = differences()
      if json { return try Self.json(["differences": rows]) }
      guard !rows.isEmpty else { return "no differences: every device holds what the server holds" }
      let places = ["server"] + devices.map(\.name)
      return TextTable.render(
        [["record", "key"] + places] + rows.map { row in [row.record, row.key] + places.map { row.values[$0] ?? "" } })
    case .diagnostics:
      let rows = devices.map { device in
        let count = counts[device.name] ?? DeviceCounts()
        return DiagnosticsRow(
          device: device.name, status: "\(device.status)", queued: device.queued, records: device.records.count,
          requests: count.requests, errors: count.errors, waitedSeconds: count.waited,
          clockOffsetSeconds: device.clockOffset, appVersion: device.appVersion,
          lastError: device.lastError, haltReason: device.haltReason?.description)
      }
      if json { return try Self.json(["devices": rows]) }
      guard !rows.isEmpty else { return "no devices" }
      return TextTable.render(
        [["device", "status", "queued", "records", "requests", "errors", "waited", "clock", "app", "last error"]]
          + rows.map { row in
            [
              row.device, row.status, "\(row.queued)", "\(row.records)", "\(row.requests)",
              row.errors.isEmpty
                ? "0" : row.errors.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "),
              DurationSyntax.render(row.waitedSeconds), DurationSyntax.render(row.clockOffsetSeconds),
              row.appVersion ?? "-", row.haltReason.map { "HALTED: \($0)" } ?? row.lastError ?? "",
            ]
          })
    case .log:
      if json { return try Self.json(["log": log]) }
      return trace.isEmpty ? "nothing has happened yet" : trace.joined(separator: "\n")
    }
  }

  /// One device in `show diagnostics` of a world that counts traffic.
  package struct DiagnosticsRow: Encodable {
    var device: String
    var status: String
    var queued: Int
    var records: Int
    var requests: Int
    var errors: [String: Int]
    var waitedSeconds: Double
    var clockOffsetSeconds: Double
    var appVersion: String?
    var lastError: String?
    var haltReason: String?
  }

  /// Every (record, key) on which the server and the devices do not all agree.
  package func differences() -> [DiffRow] {
    let server = Dictionary(serverRecords.map { ($0.recordID, $0) }, uniquingKeysWith: { first, _ in first })
    var ids = Set(server.keys)
    for device in devices { ids.formUnion(device.records.map(\.recordID)) }
    var rows: [DiffRow] = []
    for id in ids.sorted() {
      let holders: [(String, Record?)] = [("server", server[id])] + devices.map { ($0.name, $0.record(id)) }
      let present = holders.compactMap(\.1)
      guard let sample = present.first else { continue }
      let path = RecordText.path(sample)
      var keys = Set<String>()
      for record in present { keys.formUnion(RecordText.shownKeys(record)) }
      if present.count < holders.count { keys.insert("(record)") }
      for key in keys.sorted() {
        let values = holders.map {
          ($0.0, key == "(record)" ? ($0.1 == nil ? "(absent)" : "present") : RecordText.value($0.1, key))
        }
        guard Set(values.map(\.1)).count > 1 else { continue }
        rows.append(
          DiffRow(record: path, key: key, values: Dictionary(values, uniquingKeysWith: { first, _ in first })))
      }
    }
    return rows
  }

  // MARK: Expect

  /// Checks an expectation on records, a device's status or counts, or convergence.
  /// - Returns: `ok: …` saying what held.
  /// - Throws: ``ScriptError`` starting `expectation failed:` with what was expected and what was found.
  package func check(_ expectation: Expectation) throws(ScriptError) -> String {
    switch expectation {
    case .invariants: throw ScriptError("expect invariants asks the oracles, not the records: the world judges it")
    case .converged:
      if let problem = convergenceProblem() { throw Self.failed("converged, but \(problem)") }
      return "ok: converged"
    case .halted(let name):
      let device = try self.device(name)
      guard let reason = device.haltReason else { throw Self.failed("\(name) halted, but it is \(device.status)") }
      return "ok: \(name) halted: \(reason)"
    case .status(let name, let status):
      let device = try self.device(name)
      guard device.status == status else { throw Self.failed("\(name) \(status), but it is \(device.status)") }
      return "ok: \(name) is \(status)"
    case .exists(let place, let path, let exists):
      let found = try record(path, at: place) != nil
      guard found == exists else {
        throw Self.failed("\(place) \(path) \(exists ? "exists" : "absent"), but it is \(found ? "there" : "absent")")
      }
      return "ok: \(place) \(path) \(exists ? "exists" : "is absent")"
    case .field(let place, let path, let key, let comparison, let expected):
      guard let record = try record(path, at: place) else {
        throw Self.failed("\(place) \(path) \(key) \(comparison.rawValue) …, but \(place) has no \(path)")
      }
      let actual = record[key] ?? record.encryptedValuesByKey[key]
      let holds = comparison == .equal ? actual == expected : actual != expected
      let shown = record.encryptedValuesByKey[key] != nil ? RecordText.redacted : ValueSyntax.render(actual)
      let wanted = record.encryptedValuesByKey[key] != nil ? RecordText.redacted : ValueSyntax.render(expected)
      guard holds else {
        throw Self.failed("\(place) \(path) \(key) \(comparison.rawValue) \(wanted), but it is \(shown)")
      }
      return "ok: \(place) \(path) \(key) = \(shown)"
    case .metric(let place, let metric, let comparison, let number):
      let actual: Double
      switch (place, metric) {
      case (.server, "records"): actual = Double(serverRecords.count)
      case (.server, _): throw ScriptError("the server counts only records, not \(metric)")
      case (.device(let name), "records"): actual = Double(try device(name).records.count)
      case (.device(let name), "queued"): actual = Double(try device(name).queued)
      case (.device(let name), _):
        let count = counts[try device(name).name] ?? DeviceCounts()
        switch metric {
        case "requests": actual = Double(count.requests)
        case "errors": actual = Double(count.errors.values.reduce(0, +))
        case "waited": actual = count.waited
        default: actual = Double(count.errors[String(metric.dropFirst("errors:".count))] ?? 0)
        }
      }
      guard comparison.holds(actual, number) else {
        throw Self.failed(
          "\(place) \(metric) \(comparison.rawValue) \(Self.number(number)), but it is \(Self.number(actual))")
      }
      return "ok: \(place) \(metric) = \(Self.number(actual))"
    }
  }

  /// Why the world has not converged, or `nil` when it has: no device halted or with changes queued, and every
  /// device holding exactly its user's server records and values.
  package func convergenceProblem() -> String? {
    guard let problem = divergence() else { return nil }
    // A sync under way is the likeliest reason, in a script that syncs without waiting.
    let busy = devices.filter { $0.status == .syncing }.map(\.name)
    guard !busy.isEmpty else { return problem }
    return problem + " (a sync is still under way on \(busy.joined(separator: ", ")): add \"wait\" or use \"sync all\")"
  }

  private func divergence() -> String? {
    for device in devices {
      if device.status == .halted { return "\(device.name) is halted" }
      if device.queued > 0 { return "\(device.name) has \(device.queued) change(s) queued" }
      guard device.records.count == device.serverRecords.count else {
        return "\(device.name) holds \(device.records.count) record(s), the server \(device.serverRecords.count)"
      }
      for (mine, theirs) in zip(device.records, device.serverRecords) {
        guard mine.recordID == theirs.recordID, mine.values == theirs.values,
          mine.encryptedValuesByKey == theirs.encryptedValuesByKey
        else { return "\(device.name) differs from the server on \(RecordText.path(mine))" }
      }
    }
    return nil
  }

  // MARK: Lookups

  /// The device called `name`.
  /// - Throws: ``ScriptError`` naming the device, with the nearest known name.
  package func device(_ name: String) throws(ScriptError) -> Device {
    if let device = devices.first(where: { $0.name == name }) { return device }
    if devices.isEmpty { throw ScriptError("no device '\(name)'; add one with `device add \(name)`") }
    throw .unknown("device", name, choices: devices.map(\.name))
  }

  package func record(_ path: RecordPath, at place: Place) throws(ScriptError) -> Record? {
    let id = try path.recordID()
    switch place {
    case .server: return serverRecords.first { $0.recordID == id }
    case .device(let name): return try device(name).record(id)
    }
  }

  package static func failed(_ text: String) -> ScriptError { ScriptError("expectation failed: expected \(text)") }

  package static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  package static func json(_ value: some Encodable) throws(ScriptError) -> String {
    do {
      return try JSONText.render(value).trimmingCharacters(in: .newlines)
    } catch {
      throw ScriptError("could not write JSON: \(error)")
    }
  }
}
