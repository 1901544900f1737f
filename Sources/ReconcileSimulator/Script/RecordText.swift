import Foundation
package import Reconcile

/// How the playground prints records: user fields in script syntax, bookkeeping hidden, encrypted values redacted.
package enum RecordText {
  /// The fields the playground writes for the resolvers; not shown, because a script never edits them.
  package static let hiddenKeys: Set<String> = [
    ResolverChoice.editCountKey, ResolverChoice.modifiedAtKey, ResolverChoice.fieldStampsKey,
  ]
  /// What is printed in place of an encrypted value: the playground never shows one.
  package static let redacted = "<redacted>"

  /// `key=value …`, sorted by key; encrypted values as `encrypted:key=<redacted>`.
  package static func fields(_ record: Record) -> String {
    shownKeys(record).map { key in
      record.encryptedValuesByKey[key] != nil ? "encrypted:\(key)=\(redacted)" : "\(key)=\(value(record, key))"
    }.joined(separator: " ")
  }

  /// The keys shown for `record`, plain and encrypted, sorted.
  package static func shownKeys(_ record: Record) -> [String] {
    Set(record.values.keys).union(record.encryptedValuesByKey.keys).subtracting(hiddenKeys).sorted()
  }

  /// The value of `key` in script syntax, `<redacted>` when encrypted, `-` when absent.
  package static func value(_ record: Record?, _ key: String) -> String {
    guard let record else { return "(absent)" }
    if record.encryptedValuesByKey[key] != nil { return redacted }
    guard let value = record[key] else { return "-" }
    return ValueSyntax.render(value)
  }

  /// An assignment as a script writes it, encrypted values redacted.
  package static func assignment(_ field: FieldAssignment) -> String {
    field.encrypted ? "encrypted:\(field.key)=\(redacted)" : "\(field.key)=\(ValueSyntax.render(field.value))"
  }

  /// `Note/1`.
  package static func path(_ record: Record) -> String { "\(record.recordType)/\(record.recordID.recordName)" }

  /// A record's shown fields as JSON values, encrypted ones redacted.
  package static func json(_ record: Record) -> [String: ShownValue] {
    var fields: [String: ShownValue] = [:]
    for key in shownKeys(record) {
      if record.encryptedValuesByKey[key] != nil {
        fields[key] = .string(redacted)
      } else if let value = record[key] {
        fields[key] = ShownValue(value)
      }
    }
    return fields
  }
}

/// A field value as JSON: strings, numbers, ISO 8601 dates, arrays; references as `@name`, bytes as `0x…`.
package enum ShownValue: Encodable, Hashable {
  case string(String)
  case integer(Int64)
  case number(Double)
  case array([ShownValue])

  package init(_ value: FieldValue) {
    switch value {
    case .string(let text): self = .string(text)
    case .int64(let number): self = .integer(number)
    case .double(let number): self = number.isFinite ? .number(number) : .string(String(number))
    case .list(let elements): self = .array(elements.map(ShownValue.init))
    default: self = .string(ValueSyntax.render(value))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let text): try container.encode(text)
    case .integer(let number): try container.encode(number)
    case .number(let number): try container.encode(number)
    case .array(let elements): try container.encode(elements)
    }
  }
}
