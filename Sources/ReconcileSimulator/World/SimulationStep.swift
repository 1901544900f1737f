import Foundation
public import Reconcile

/// One thing that happens in a simulated run: a device action or a fault. After each step the simulation moves
/// virtual time by one second (``Simulation/stepInterval``), delivering whatever the network carries.
///
/// Every step has a one-line text form — the playground's script syntax — so a run can be written out and replayed;
/// see ``SimulationScript``.
public enum SimulationStep: Sendable, Hashable {
  /// The app on `device` creates record `record` (type `Note`) with these values.
  case create(device: String, record: String, values: [String: FieldValue])
  /// The app on `device` edits `record`: set each value, or remove the key for `nil`.
  case edit(device: String, record: String, values: [String: FieldValue?])
  /// The app on `device` deletes `record`.
  case delete(device: String, record: String)
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
  /// `device`'s clock jumps by `seconds`.
  case clockJump(device: String, seconds: Int)
  /// `device` updates its app to the simulation's newer schema.
  case upgrade(device: String)
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
  case advance(seconds: Int)
  /// The network or server misbehaves.
  case fault(SimulationFault)

  /// The device the step is about, if any.
  public var device: String? {
    switch self {
    case .create(let device, _, _), .edit(let device, _, _), .delete(let device, _), .sync(let device),
      .crash(let device), .quit(let device), .launch(let device), .offline(let device), .online(let device),
      .clockJump(let device, _), .upgrade(let device),
      .resetSync(let device), .account(let device, _), .answerAccount(let device, _):
      device
    case .advance: nil
    case .fault(let fault): fault.device
    }
  }

  /// Whether the step applies while the device's app is not running: the app launching, and what happens to the
  /// device around it (its account, its network, its clock, faults).
  package var reachesQuitApp: Bool {
    switch self {
    case .launch, .account, .offline, .online, .clockJump, .fault, .advance: true
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
