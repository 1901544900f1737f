import Reconcile

/// Chooses the next step of a seeded run from the live state, so edits and deletes target records the device holds.
///
/// Device actions: create (12%), edit one or two of `title`, `body`, `rank` (and `color` after an upgrade; 43%, an
/// eighth of them removing `body`), delete (5%), sync (32%), a wait of 5–40 s (4%), an app upgrade (4%, when the
/// scenario has one). Faults, at the profile's rate, are drawn evenly from the categories it enables.
struct Scheduler: Sendable {
  var random: SimulationRandom
  let configuration: SimulationConfiguration
  var nextRecord = 1

  init(seed: UInt64, configuration: SimulationConfiguration) {
    random = SimulationRandom(seed: seed)
    self.configuration = configuration
  }

  /// The devices of a seeded run: `d1`, `d2`, …, the second one's clock a little behind and the third's ahead.
  static func setup(for configuration: SimulationConfiguration, random: inout SimulationRandom) -> SimulationSetup {
    let devices = (0..<configuration.deviceCount).map { index in
      DeviceSetup(name: "d\(index + 1)", clockOffset: index == 0 ? 0 : random.below(241) - 120)
    }
    return SimulationSetup(
      resolver: configuration.resolver, deletePolicy: configuration.deletePolicy, schemas: configuration.schemas,
      devices: devices, zoneDeletion: configuration.zoneDeletion, defects: configuration.defects)
  }

  mutating func next(index: Int, world: Simulation) -> SimulationStep {
    let profile = configuration.faults
    if profile.faultRate > 0, random.chance(profile.faultRate), let fault = nextFault(world: world) { return fault }
    let names = world.setup.devices.map(\.name)
    guard let device = random.pick(names), let slot = world.index(of: device) else { return .advance(seconds: 1) }
    let roll = random.below(100)
    let held = (12..<60).contains(roll) ? world.devices[slot].storage.records.keys.map(\.recordName).sorted() : []
    switch roll {
    case ..<12: return create(device: device, index: index)
    case ..<55:
      guard let record = random.pick(held) else { return create(device: device, index: index) }
      return edit(device: device, record: record, index: index, upgraded: world.isUpgraded(device))
    case ..<60:
      guard let record = random.pick(held) else { return .sync(device: device) }
      return .delete(device: device, record: record)
    case ..<92: return .sync(device: device)
    case ..<96: return .advance(seconds: 5 + random.below(36))
    default:
      guard configuration.schemas != .none, !world.isUpgraded(device) else { return .sync(device: device) }
      return .upgrade(device: device)
    }
  }

  private mutating func create(device: String, index: Int) -> SimulationStep {
    let name = "r\(nextRecord)"
    nextRecord += 1
    return .create(
      device: device, record: name,
      values: ["title": .string("\(device).\(index)"), "rank": .int64(Int64(index))])
  }

  private mutating func edit(device: String, record: String, index: Int, upgraded: Bool) -> SimulationStep {
    var keys = ["title", "body", "rank"]
    if upgraded { keys.append("color") }
    var values: [String: FieldValue?] = [:]
    for _ in 0..<(1 + random.below(2)) {
      guard let key = random.pick(keys) else { break }
      if key == "body", random.below(8) == 0 {
        values[key] = .some(nil)
      } else if key == "rank" {
        values[key] = .int64(Int64(index))
      } else {
        values[key] = .string("\(device).\(index)")
      }
    }
    return .edit(device: device, record: record, values: values)
  }

  private mutating func nextFault(world: Simulation) -> SimulationStep? {
    let profile = configuration.faults
    var kinds: [Int] = []
    if profile.network { kinds.append(0) }
    if profile.transientErrors { kinds.append(1) }
    if profile.deviceFaults { kinds.append(2) }
    if profile.serverFaults { kinds.append(3) }
    if profile.storageCorruption { kinds.append(4) }
    guard let kind = random.pick(kinds), let device = random.pick(world.setup.devices.map(\.name)) else { return nil }
    switch kind {
    case 0:
      switch random.below(4) {
      case 0: return .fault(.loseRequest(device: device))
      case 1: return .fault(.loseResponse(device: device))
      case 2: return .fault(.duplicate(device: device))
      default: return .fault(.delay(device: device, seconds: 1 + random.below(20)))
      }
    case 1:
      let name = random.pick(SimulationFault.transientErrorNames) ?? "zoneBusy"
      return .fault(.transient(device: device, error: name, retryAfter: 1 + random.below(10)))
    case 2:
      switch random.below(3) {
      case 0: return .crash(device: device)
      case 1:
        let online = world.index(of: device).map { world.devices[$0].isOnline } ?? true
        return online ? .offline(device: device) : .online(device: device)
      default:
        let jump = 5 + random.below(116)
        return .clockJump(device: device, seconds: random.below(2) == 0 ? jump : -jump)
      }
    case 4:
      let held = world.index(of: device).map { world.devices[$0].storage.records.keys.map(\.recordName).sorted() }
      guard let record = random.pick(held ?? []) else { return .crash(device: device) }
      return .fault(.corruptStorage(device: device, record: record))
    default:
      switch random.below(6) {
      case 0, 1, 2: return .fault(.throttle(seconds: 5 + random.below(56)))
      case 3, 4: return .fault(.expireTokens)
      default: return .fault(.deleteZone)
      }
    }
  }
}
