import Foundation
import Reconcile

/// Chooses the next step of a seeded run from the live state, so edits and deletes target records the device holds,
/// and draws per seed a workload that makes devices collide (see ``Workload``).
///
/// Device actions: create (8%), re-create a record the device no longer holds (3%), edit one or two of `title`,
/// `body`, `rank` (and `color` after an upgrade; 61%, an eighth of them removing `body`; with the workload's burst chance an
/// edit starts a burst of 2–5 edits on the same device), delete (6%), sync (7%), a wait of 5–40 s (9%), an offline spell
/// (1%, back online 10–40 steps later), an app upgrade (5%, when the scenario has one; a sync otherwise). Edits and
/// deletes pick a hot record the device holds with the workload's hot share, the hottest most often (weight 1/k for
/// the k-th); any record it holds otherwise. Faults, at the profile's rate, are drawn evenly from the
/// categories it enables — under ``FaultProfile/swarm`` from the categories the seed drew.
struct Scheduler: Sendable {
  var random: SimulationRandom
  let configuration: SimulationConfiguration
  let workload: Workload.Draw
  let faults: FaultProfile
  var nextRecord = 1
  var created: [String] = []
  /// The device that first created each name.
  var creators: [String: String] = [:]
  var burst: (device: String, remaining: Int)?
  var returns: [(step: Int, device: String)] = []
  /// The keys the resolver merges, with the edits users make to them (none for a resolver that merges none: its runs
  /// draw exactly what they drew before merging keys existed).
  let mergedKeys: [(key: String, edits: MergedEdits)]
  /// The hot records' IDs, in the workload's order: a device is asked whether it holds each, which costs a lookup,
  /// not a sorted listing of everything it holds.
  let hotIDs: [(name: String, id: RecordID)]

  init(seed: UInt64, configuration: SimulationConfiguration) {
    random = SimulationRandom(seed: seed)
    self.configuration = configuration
    workload = configuration.workload.draw(&random)
    hotIDs = workload.hot.map { ($0, SimulationStep.noteID($0)) }
    faults = configuration.faults.draw(&random)
    mergedKeys = configuration.resolver.keyContracts.compactMap { key, contract in contract.edits.map { (key, $0) } }
      .sorted { $0.key < $1.key }
  }

  /// The devices of a seeded run: `d1`, `d2`, …, the second one's clock a little behind and the third's ahead; under
  /// swarm, server limits lowered at random.
  static func setup(for configuration: SimulationConfiguration, random: inout SimulationRandom) -> SimulationSetup {
    let devices = (0..<configuration.deviceCount).map { index in
      // The draw happens whatever the bound, so runs with skew and without it share their other choices.
      let skew = index == 0 ? 0 : random.below(241) - 120
      let bound = max(0, configuration.maximumClockSkew)
      return DeviceSetup(name: "d\(index + 1)", clockOffset: Double(min(bound, max(-bound, skew))))
    }
    var limits = SimulatedServer.Limits.cloudKit
    if configuration.faults.isSwarm {
      limits.changesPageSize = [2, 3, 5, 10, 200][random.below(5)]
      limits.maximumBatchItems = [2, 3, 5, 10, 400][random.below(5)]
      limits.maximumBatchBytes = [400, 800, 2_000, 2 * 1_048_576][random.below(4)]
    }
    // Under server faults, every other conflict answer leaves out the server's record (no draw: other choices stay).
    if configuration.faults.serverFaults { limits.conflictWithoutRecordEvery = 2 }
    var setup = SimulationSetup(
      resolver: configuration.resolver, deletePolicy: configuration.deletePolicy, schemas: configuration.schemas,
      devices: devices, zoneDeletion: configuration.zoneDeletion, defects: configuration.defects, limits: limits,
      sendsAfterEdits: configuration.workload.sendsAfterEdits, client: configuration.client)
    setup.accountChange = configuration.accountChange
    return setup
  }

  mutating func next(index: Int, world: Simulation) -> SimulationStep {
    // Apps that ask on an account change: a user answers an open question a third of the time, keeping the records
    // or not as often (drawn only in such runs, so every other run draws what it drew before).
    if configuration.accountChange == .ask,
      let asking = world.devices.clients.indices.first(where: {
        if case .accountChanged? = world.devices.clients[$0].haltReason { true } else { false }
      }),
      random.below(3) == 0
    {
      return .answerAccount(device: world.devices.names[asking], keepingData: random.below(2) == 0)
    }
    if let due = returns.firstIndex(where: { $0.step <= index }) {
      let device = returns.remove(at: due).device
      if let slot = world.index(of: device), !world.devices.isOnline(slot) { return .online(device: device) }
    }
    if let current = burst, current.remaining > 0 {
      burst = current.remaining > 1 ? (current.device, current.remaining - 1) : nil
      if let slot = world.index(of: current.device), let record = pickHeld(in: world, slot: slot) {
        return edit(device: current.device, record: record, index: index, world: world)
      }
      burst = nil
    }
    if faults.faultRate > 0, random.chance(faults.faultRate), let fault = nextFault(world: world) { return fault }
    guard let device = random.pick(world.setup.devices)?.name, let slot = world.index(of: device) else {
      return .advance(seconds: 1)
    }
    // Its user opens an app that is not running to use it.
    if !world.devices.hosts.isRunning(device) { return .launch(device: device) }
    let roll = random.below(100)
    switch roll {
    case ..<8: return create(device: device, index: index)
    case ..<11:
      let held = Set(heldWorkloadIDs(in: world, slot: slot).map(\.recordName))
      let reusable = created.filter { !held.contains($0) && (workload.sharesRecordNames || creators[$0] == device) }
      guard let name = random.pick(reusable) else { return .sync(device: device) }
      return create(device: device, name: name, index: index)
    case ..<72:
      guard let record = pickHeld(in: world, slot: slot) else { return create(device: device, index: index) }
      if random.chance(workload.burstChance) { burst = (device, 1 + random.below(4)) }
      return edit(device: device, record: record, index: index, world: world)
    case ..<78:
      guard let record = pickHeld(in: world, slot: slot) else { return .sync(device: device) }
      return .deleteNote(device: device, name: record)
    case ..<85: return .sync(device: device)
    case ..<93: return .advance(seconds: TimeInterval(5 + random.below(36)))
    // In a populated zone a sync reset is a plain sync: a reset lists the whole zone again, which costs every record
    // (in CloudKit too) and would hide what a step costs beside records the workload never touches.
    case ..<94: return configuration.populatedRecords > 0 ? .sync(device: device) : .resetSync(device: device)
    case ..<95:
      guard world.devices.isOnline(slot), !returns.contains(where: { $0.device == device }) else {
        return .sync(device: device)
      }
      returns.append((index + 10 + random.below(31), device))
      return .offline(device: device)
    default:
      guard configuration.schemas != .none, !world.devices.hosts.isUpgraded(device) else {
        return .sync(device: device)
      }
      return .upgrade(device: device)
    }
  }

  /// A record the device in `slot` holds: one of the hot records with the workload's hot share, else any.
  private mutating func pickHeld(in world: Simulation, slot: Int) -> String? {
    var hot: [String] = []
    for (name, id) in hotIDs where world.devices.clients[slot].record(id) != nil { hot.append(name) }
    if !hot.isEmpty, random.chance(workload.hotShare) { return zipf(hot) }
    return random.pick(heldWorkloadIDs(in: world, slot: slot))?.recordName
  }

  /// The workload's records the device in `slot` holds, sorted: every record it holds, unless the zone was populated
  /// (``Simulation/populate()``); then the ones after the populated records, found by a binary search, so a draw
  /// neither touches them nor lists them.
  private func heldWorkloadIDs(in world: Simulation, slot: Int) -> ArraySlice<RecordID> {
    let held = world.devices.clients[slot].recordIDs[...]
    guard configuration.populatedRecords > 0 else { return held }
    var (low, high) = (held.startIndex, held.endIndex)
    while low < high {
      let middle = low + (high - low) / 2
      if held[middle].recordName.hasPrefix(Simulation.populatedPrefix) { low = middle + 1 } else { high = middle }
    }
    return held[low...]
  }

  /// One of `items`, the k-th (from 0) with weight 1/(k+1): the first is the hottest.
  private mutating func zipf(_ items: [String]) -> String? {
    var total = 0.0
    for k in items.indices { total += 1 / Double(k + 1) }
    var roll = Double(random.next() >> 11) / Double(1 << 53) * total
    for (k, item) in items.enumerated() {
      let weight = 1 / Double(k + 1)
      if roll < weight { return item }
      roll -= weight
    }
    return items.last
  }

  private mutating func create(device: String, name: String? = nil, index: Int) -> SimulationStep {
    let record: String
    if let name {
      record = name
    } else {
      record = "r\(nextRecord)"
      nextRecord += 1
      created.append(record)
      creators[record] = device
    }
    return .createNote(
      device: device, name: record,
      values: ["title": .string(Self.label(device, index)), "rank": .int64(Int64(index))])
  }

  private mutating func edit(device: String, record: String, index: Int, world: Simulation) -> SimulationStep {
    var keys = ["title", "body", "rank"]
    if world.devices.hosts.isUpgraded(device) { keys.append("color") }
    for merged in mergedKeys where !keys.contains(merged.key) { keys.append(merged.key) }
    var values: [String: FieldValue?] = [:]
    for _ in 0..<(1 + random.below(2)) {
      guard let key = random.pick(keys) else { break }
      if let edits = mergedKeys.first(where: { $0.key == key })?.edits {
        let shown = values[key] ?? shownValue(of: key, record: record, device: device, world: world)
        values[key] = edits.draw(from: shown, label: Self.label(device, index), random: &random)
      } else if key == "body", random.below(8) == 0 {
        values[key] = .some(nil)
      } else if key == "rank" {
        values[key] = .int64(Int64(index))
      } else {
        values[key] = .string(Self.label(device, index))
      }
    }
    return .editNote(device: device, name: record, values: values)
  }

  /// `device.index`: the unique value a step writes (built without interpolation's generic formatting).
  private static func label(_ device: String, _ index: Int) -> String { device + "." + String(index) }

  /// The value of `key` the device shows in `record`.
  private func shownValue(of key: String, record: String, device: String, world: Simulation) -> FieldValue? {
    guard let slot = world.index(of: device),
      let id = heldWorkloadIDs(in: world, slot: slot).first(where: { $0.recordName == record })
    else { return nil }
    return world.devices.clients[slot].record(id)?[key]
  }

  /// A fault step of a kind the profile injects; `nil` when none can be drawn.
  private mutating func nextFault(world: Simulation) -> SimulationStep? {
    // Without exclusions the draws are exactly those of earlier releases, so seeds replay unchanged.
    guard !faults.excluded.isEmpty else { return drawFault(world: world) }
    for _ in 0..<32 {
      guard let step = drawFault(world: world) else { return nil }
      if let kind = FaultKind(of: step), faults.excluded.contains(kind) { continue }
      return step
    }
    return nil
  }

  /// The account a device signs in to next (`nil`: it signs out): signed in, it signs out or switches accounts, one
  /// as often as the other; signed out, it signs in, to its own account twice as often as to another.
  private mutating func nextAccount(of device: String, world: Simulation) -> String? {
    let other = Simulation.otherUser
    switch world.devices.hosts.accounts[device] {
    case nil: return random.below(3) == 0 ? other : Simulation.user
    case Simulation.user?: return random.below(2) == 0 ? nil : other
    default: return random.below(2) == 0 ? nil : Simulation.user
    }
  }

  private mutating func drawFault(world: Simulation) -> SimulationStep? {
    var kinds: [Int] = []
    if faults.network { kinds.append(0) }
    if faults.transientErrors { kinds.append(1) }
    if faults.deviceFaults { kinds.append(2) }
    if faults.serverFaults { kinds.append(3) }
    if faults.storageCorruption { kinds.append(4) }
    if faults.accountChanges { kinds.append(5) }
    guard let kind = random.pick(kinds), let device = random.pick(world.setup.devices.map(\.name)) else { return nil }
    switch kind {
    case 0:
      switch random.below(4) {
      case 0: return .fault(.loseRequest(device: device))
      case 1: return .fault(.loseResponse(device: device))
      case 2: return .fault(.duplicate(device: device))
      default:
        // A quarter of delays outlast the request timeout: the device retries, and the stale copy arrives after.
        let seconds = random.below(4) == 0 ? 61 + random.below(30) : 1 + random.below(20)
        return .fault(.delay(device: device, seconds: seconds))
      }
    case 1:
      let name = random.pick(SimulationFault.transientErrorNames) ?? "zoneBusy"
      let wait = 1 + random.below(10)
      // A third of transient errors hit one item of a save rather than the whole request.
      if random.below(3) == 0 { return .fault(.itemTransient(device: device, error: name, retryAfter: wait)) }
      return .fault(.transient(device: device, error: name, retryAfter: wait))
    case 2:
      switch random.below(4) {
      case 0: return .crash(device: device)
      case 3: return .fault(.tornCrash(device: device, afterWrites: 1 + random.below(3)))
      case 1:
        let online = world.index(of: device).map { world.devices.isOnline($0) } ?? true
        return online ? .offline(device: device) : .online(device: device)
      default:
        let jump = 5 + random.below(116)
        let ahead = random.below(2) == 0
        // Clocks that must agree crash instead (same draws, so the rest of the run is unchanged).
        guard configuration.maximumClockSkew > 0 else { return .crash(device: device) }
        return .clockJump(device: device, seconds: TimeInterval(ahead ? jump : -jump))
      }
    case 5:
      // A quarter of these draws quit a running app; it launches when its user next turns to it, and account changes
      // made meanwhile reach it then as one.
      if world.devices.hosts.isRunning(device), random.below(4) == 0 { return .quit(device: device) }
      return .account(device: device, user: nextAccount(of: device, world: world))
    case 4:
      let held = world.index(of: device).map { heldWorkloadIDs(in: world, slot: $0).map(\.recordName) }
      guard let record = random.pick(held ?? []) else { return .crash(device: device) }
      return .fault(.corruptStorage(device: device, record: record))
    default:
      switch random.below(8) {
      case 0, 1, 2: return .fault(.throttle(seconds: 5 + random.below(56)))
      case 3, 4: return .fault(.expireTokens)
      case 5: return .fault(.expireDatabaseTokens)
      case 6: return .fault(.quotaFull(seconds: 10 + random.below(50)))
      default:
        // The zone goes: deleted by a client (half the time), purged by the user in Settings, or with the user's reset
        // of their encrypted data (a quarter each).
        switch random.below(4) {
        case 0: return .fault(.purgeZone)
        case 1: return .fault(.resetEncryptedData)
        default: return .fault(.deleteZone)
        }
      }
    }
  }
}
