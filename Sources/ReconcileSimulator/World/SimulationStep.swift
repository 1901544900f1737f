public import Foundation
public import Reconcile

/// One thing that happens in a simulated run: a user's action, a device mishap or a fault. After each step the
/// simulation moves virtual time by one second (``Simulation/stepInterval``), delivering whatever the network carries.
///
/// Every way of driving a world lowers to steps: the property runner draws them, a replay script and the playground's
/// `run` and REPL read them from lines. Every step has a one-line text form — the playground's script syntax — so a
/// run can be written out and replayed; see ``SimulationScript``.
public enum SimulationStep: Sendable, Hashable {
  /// The app on `device` creates `record`, of any type, with its plain and encrypted values.
  case create(device: String, record: Record)
  /// The app on `device` edits the record `record` of type `type`: sets each value, or removes the key for `nil`;
  /// `encrypted` values go to the record's encrypted values.
  case edit(
    device: String, type: String, record: RecordID, values: [String: FieldValue?],
    encrypted: [String: FieldValue?] = [:])
  /// The app on `device` deletes the record `record` of type `type`.
  case delete(device: String, type: String, record: RecordID)
  /// `device` starts a sync.
  case sync(device: String)
  /// `device` crashes and relaunches, keeping only what it persisted.
  case crash(device: String)
  /// The app on `device` quits and stays quit: it sends nothing and hears nothing, and its user acts through other
  /// devices, until ``launch(device:)``. Account changes meanwhile reach it at launch as one.
  case quit(device: String)
  /// The app on `device`, quit, launches from what it persisted; if its iCloud account changed while it was not
  /// running, it learns of that as one change, from the account it last knew to the current one.
  case launch(device: String)
  /// `device` loses its network.
  case offline(device: String)
  /// `device` gets its network back.
  case online(device: String)
  /// `device`'s clock jumps by `seconds` (back, when negative).
  case clockJump(device: String, seconds: TimeInterval)
  /// `device` updates its app: to the simulation's newer schema (`nil`), or to the app `version` a script's `schema`
  /// lines declared.
  case upgrade(device: String, version: SchemaVersion? = nil)
  /// `device` clears its halt and syncs again.
  case restart(device: String)
  /// The user on `device` resets sync: the client drops its tokens and sync state and fetches everything again,
  /// keeping what it has not sent.
  case resetSync(device: String)
  /// The user on `device` signs in to the iCloud account `user` (a user record name such as `_user`), or signs out
  /// (`nil`); signing in to another account while signed in switches. An OS setting: it happens offline alike.
  case account(device: String, user: String?)
  /// The user answers the question an account change asked (`AccountChangePolicy.ask`): keep the records for the
  /// account signed in now, or delete them.
  case answerAccount(device: String, keepingData: Bool)
  /// Virtual time moves `seconds` forward.
  case advance(seconds: TimeInterval)
  /// The network, a device's host or the server misbehaves.
  case fault(SimulationFault)
  /// Every fault waiting ends, in every part of the world that holds one.
  case clearFaults

  /// The device the step is about, if any.
  public var device: String? {
    switch self {
    case .create(let device, _), .edit(let device, _, _, _, _), .delete(let device, _, _), .sync(let device),
      .crash(let device), .quit(let device), .launch(let device), .offline(let device), .online(let device),
      .clockJump(let device, _), .upgrade(let device, _), .restart(let device),
      .resetSync(let device), .account(let device, _), .answerAccount(let device, _):
      device
    case .advance, .clearFaults: nil
    case .fault(let fault): fault.device
    }
  }

  /// Whether the step applies while the device's app is not running: the app launching, and what happens to the
  /// device around it (its account, its network, its clock, faults).
  package var reachesQuitApp: Bool {
    switch self {
    case .launch, .account, .offline, .online, .clockJump, .fault, .clearFaults, .advance: true
    default: false
    }
  }

  /// Whether the step is a fault or a device mishap rather than an app action.
  package var isFault: Bool {
    switch self {
    case .fault, .crash, .quit, .launch, .offline, .online, .clockJump: true
    default: false
    }
  }

}

extension SimulationStep {
  /// The ID of a seeded run's note named `name`, in the simulation's zone. The runner draws names the record-name rules
  /// allow (`r0`, `r1`, …), so none is checked.
  package static func noteID(_ name: String) -> RecordID {
    RecordID(uncheckedRecordName: name, zoneID: Simulation.zoneID)
  }

  /// A seeded run's create: the note `name` with `values`.
  package static func createNote(device: String, name: String, values: [String: FieldValue]) -> SimulationStep {
    var note = Record(recordType: Simulation.recordType, recordID: noteID(name))
    for (key, value) in values { note[key] = value }
    return .create(device: device, record: note)
  }

  /// A seeded run's edit of the note `name`.
  package static func editNote(device: String, name: String, values: [String: FieldValue?]) -> SimulationStep {
    .edit(device: device, type: Simulation.recordType, record: noteID(name), values: values)
  }

  /// A seeded run's deletion of the note `name`.
  package static func deleteNote(device: String, name: String) -> SimulationStep {
    .delete(device: device, type: Simulation.recordType, record: noteID(name))
  }
}
