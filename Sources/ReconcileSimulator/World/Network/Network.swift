import Foundation
import Reconcile

/// Messages on their way between devices and the server, delivered in time order (ties in sending order).
struct Network: Sendable {
  enum Payload: Sendable {
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

  private(set) var messages: [Message] = []
  private var counter = 0

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
