import Foundation
import Reconcile
import ReconcileSimulator

extension PlaygroundSession {
  /// Checks an expectation.
  /// - Returns: `ok: …` saying what held.
  /// - Throws: ``ScriptError`` starting `expectation failed:` with what was expected and what was found.
  func check(_ expectation: Expectation) throws(ScriptError) -> String {
    switch expectation {
    case .invariants:
      throw Self.simulatorOnly("expect invariants")
    default:
      return try view.check(expectation) ?? ""
    }
  }

  /// Why the world has not converged, or `nil` when it has (see ``WorldView/convergenceProblem()``).
  func convergenceProblem() -> String? { view.convergenceProblem() }

  /// Notes that the devices agree, when they do: the next change starts a new round of intents, and until then the
  /// last round's can still be asked what was lost.
  mutating func clearIntentsIfConverged() {
    if convergenceProblem() == nil { intentsAreSettled = true }
  }

  /// The changes devices made since they last agreed that the server does not hold: `phone: title="b"`,
  /// `phone's delete`, `mac's edit (record deleted)`.
  /// - Parameter id: Only this record; every record unless given.
  func lostChanges(for id: RecordID? = nil) -> [String] {
    let server = Dictionary(serverRecords.map { ($0.recordID, $0) }, uniquingKeysWith: { first, _ in first })
    var lost: [String] = []
    for device in devices {
      for (recordID, intent) in (intents[device.name] ?? [:]).sorted(by: { $0.key < $1.key })
      where id == nil || recordID == id {
        let onServer = server[recordID]
        switch intent {
        case .delete:
          if onServer != nil { lost.append("\(device.name)'s delete") }
        case .fields(let changes):
          guard let onServer else {
            lost.append("\(device.name)'s edit (deleted)")
            continue
          }
          for (key, value) in changes.sorted(by: { $0.key < $1.key })
          where (onServer[key] ?? onServer.encryptedValuesByKey[key]) != value {
            let shown = onServer.encryptedValuesByKey[key] != nil ? RecordText.redacted : ValueSyntax.render(value)
            lost.append("\(device.name): \(key)=\(shown)")
          }
        }
      }
    }
    return lost
  }
}
