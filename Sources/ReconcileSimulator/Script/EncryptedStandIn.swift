import Foundation
package import Reconcile

/// What a script writes for an encrypted value: never the value, but a stand-in of its kind and size
/// (`<redacted:string:12>`, `<redacted:bytes:40>`, `<redacted:int64>`), which reads back as a value of that kind and
/// size (twelve `x`s, forty zero bytes, 0). A counterexample with an encrypted edit then replays the same run wherever
/// a value's size matters — a batch's bytes, the record limit — without showing what the user wrote.
package enum EncryptedStandIn {
  /// The value a stand-in stands for, of the same kind and size as `value`, with no content of it.
  package static func standIn(for value: FieldValue) -> FieldValue {
    switch value {
    case .string(let text): .string(String(repeating: "x", count: text.utf8.count))
    case .bytes(let data): .bytes(Data(count: data.count))
    case .int64: .int64(0)
    case .double: .double(0)
    case .timestamp: .timestamp(Date(timeIntervalSince1970: 0))
    case .list(let elements): .list(elements.map(standIn(for:)))
    case .reference, .asset, .location: .string(RecordText.redacted)
    }
  }

  /// The stand-in's script text.
  package static func render(_ value: FieldValue) -> String {
    switch value {
    case .string(let text): "<redacted:string:\(text.utf8.count)>"
    case .bytes(let data): "<redacted:bytes:\(data.count)>"
    case .int64: "<redacted:int64>"
    case .double: "<redacted:double>"
    case .timestamp: "<redacted:timestamp>"
    case .list(let elements): "[" + elements.map(render).joined(separator: ", ") + "]"
    case .reference, .asset, .location: RecordText.redacted
    }
  }

  /// The value a stand-in's text reads as, or `nil` when `text` is not one.
  /// - Throws: ``ScriptError`` for a stand-in of an unknown kind or a size that is not a number up to 1 MB.
  static func parse(_ text: Substring) throws(ScriptError) -> FieldValue? {
    guard text.hasPrefix("<redacted:"), text.hasSuffix(">") else { return nil }
    let parts = text.dropFirst("<redacted:".count).dropLast().split(separator: ":", omittingEmptySubsequences: false)
    func size() throws(ScriptError) -> Int {
      guard parts.count == 2, let size = Int(parts[1]), (0...1_048_576).contains(size) else {
        throw ScriptError("\(text): a stand-in of a string or bytes names its size, such as <redacted:string:12>")
      }
      return size
    }
    switch parts.first {
    case "string": return .string(String(repeating: "x", count: try size()))
    case "bytes": return .bytes(Data(count: try size()))
    case "int64" where parts.count == 1: return .int64(0)
    case "double" where parts.count == 1: return .double(0)
    case "timestamp" where parts.count == 1: return .timestamp(Date(timeIntervalSince1970: 0))
    default:
      throw ScriptError(
        "\(text): not a stand-in; write <redacted:string:N>, <redacted:bytes:N>, <redacted:int64>, <redacted:double> "
          + "or <redacted:timestamp>")
    }
  }
}

extension SimulationStep {
  /// The step as its script line reads back: each encrypted value replaced by its stand-in.
  package var withEncryptedStandIns: SimulationStep {
    switch self {
    case .create(let device, var record):
      for key in record.encryptedValuesByKey.keys {
        if let value = record.encryptedValues[key] {
          record.encryptedValues[key] = EncryptedStandIn.standIn(for: value)
        }
      }
      return .create(device: device, record: record)
    case .edit(let device, let type, let record, let values, let encrypted):
      return .edit(
        device: device, type: type, record: record, values: values,
        encrypted: encrypted.mapValues { $0.map(EncryptedStandIn.standIn(for:)) })
    default:
      return self
    }
  }
}
