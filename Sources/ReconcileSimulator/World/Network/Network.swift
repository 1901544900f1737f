import Foundation
import Reconcile

/// Messages on their way between devices and the server, delivered in time order (ties in sending order).
struct Network: Sendable {
  indirect enum Payload: Sendable {
    /// A request; `loseResponse` drops its answer silently, `failAnswer` replaces it with that error.
    case request(id: Int, ServerRequest, loseResponse: Bool, failAnswer: CloudKitError? = nil, account: String? = nil)
    /// An answer, with the IDs of the records its request saved (so an answer the device gave up on can be noted).
    case response(id: Int, Result<ServerReply, CloudKitError>, saving: [RecordID])
  }

  struct Message: Sendable {
    var deliverAt: Date
    var order: Int
    var device: Int
    var payload: Payload
  }

  /// What the network does to one request as it sends it: whether it is lost, how late it arrives, how many copies
  /// arrive, whether its answer is lost (and as which error the device hears of it), whether the device's network goes
  /// right after.
  struct Fate: Sendable {
    var lost = false
    var delay: TimeInterval = 0
    var copies = 1
    var loseAnswer = false
    var failAnswer: CloudKitError?
    var disconnects = false
  }

  private(set) var messages: [Message] = []
  private var counter = 0
  /// Faults armed per device, each for one of its next requests, in order: a request lost, an answer lost, a copy, a
  /// delay.
  private var armed: [String: [SimulationFault]] = [:]
  /// Per device, `networkFailure` errors armed for its next requests: the server applies the request and the answer is
  /// lost on its way back, so the device gets the error and never learns what landed.
  private var answersFailed: [String: [CloudKitError]] = [:]
  /// Devices whose next save reaches the server and whose answer is lost as their network goes
  /// (``SimulationFault/disconnectAfterSave(device:)``).
  private var disconnectsAfterSave: Set<String> = []

  /// Arms `fault` — one the network causes — for `device`'s next request (or next save).
  mutating func arm(_ fault: SimulationFault, for device: String) {
    if case .disconnectAfterSave = fault {
      disconnectsAfterSave.insert(device)
    } else {
      armed[device, default: []].append(fault)
    }
  }

  /// Arms a lost answer for `device`'s next request: the server applies it, and the device hears `error` instead.
  mutating func failAnswer(for device: String, with error: CloudKitError) {
    answersFailed[device, default: []].append(error)
  }

  /// Ends every fault armed.
  mutating func clearFaults() {
    armed.removeAll()
    answersFailed.removeAll()
    disconnectsAfterSave.removeAll()
  }

  /// What happens to `device`'s request as it is sent; the faults it meets are used up.
  /// - Parameters:
  ///   - device: The sending device.
  ///   - isSave: Whether the request saves records (a disconnect after a save waits for one).
  mutating func fate(ofRequestFrom device: String, isSave: Bool) -> Fate {
    var fate = Fate()
    if !answersFailed.isEmpty, var errors = answersFailed[device], !errors.isEmpty {
      fate.failAnswer = errors.removeFirst()
      answersFailed[device] = errors.isEmpty ? nil : errors
    }
    if !armed.isEmpty, var faults = armed[device], !faults.isEmpty {
      let fault = faults.removeFirst()
      armed[device] = faults.isEmpty ? nil : faults
      switch fault {
      case .loseRequest:
        fate.lost = true
        return fate
      case .loseResponse: fate.loseAnswer = true
      case .duplicate: fate.copies = 2
      case .delay(_, let seconds): fate.delay = TimeInterval(seconds)
      default: break
      }
    }
    if isSave, !disconnectsAfterSave.isEmpty, disconnectsAfterSave.contains(device) {
      // The save travels on; the device's network goes before the answer can come back.
      disconnectsAfterSave.remove(device)
      fate.loseAnswer = true
      fate.disconnects = true
    }
    return fate
  }

  var isEmpty: Bool { messages.isEmpty }
  // Messages are read field by field in place: copying one copies (and retains) the whole request or answer.
  var nextDelivery: Date? { messages.isEmpty ? nil : messages[0].deliverAt }

  mutating func send(_ payload: Payload, device: Int, at time: Date) {
    counter += 1
    let message = Message(deliverAt: time, order: counter, device: device, payload: payload)
    var low = 0
    var high = messages.count
    while low < high {
      let mid = (low + high) / 2
      let deliverAt = messages[mid].deliverAt
      if deliverAt < time || (deliverAt == time && messages[mid].order < counter) {
        low = mid + 1
      } else {
        high = mid
      }
    }
    messages.insert(message, at: low)
  }

  /// Takes the next message due at or before `time`.
  mutating func popDue(at time: Date) -> Message? {
    guard !messages.isEmpty, messages[0].deliverAt <= time else { return nil }
    return messages.removeFirst()
  }
}
