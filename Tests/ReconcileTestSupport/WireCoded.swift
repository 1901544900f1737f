public import Foundation
public import Reconcile

/// A record coded as the Web Services dictionary through plain `JSONEncoder`/`JSONDecoder`, without the strict byte
/// check of `Record(wireJSON:)`: what tests compare the strict reader against, and how they build wire JSON of
/// records that do not validate.
public struct WireCoded: Codable {
  /// The record.
  public var record: Record

  /// Wraps a record.
  /// - Parameter record: The record.
  public init(_ record: Record) { self.record = record }

  /// Decodes the Web Services dictionary.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError`.
  public init(from decoder: any Decoder) throws { record = try Record(wireFormatFrom: decoder) }

  /// Encodes the Web Services dictionary.
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when the record does not validate.
  public func encode(to encoder: any Encoder) throws { try record.encodeWireFormat(to: encoder) }

  /// `JSONEncoder().encode` of the record's wire form.
  /// - Parameter record: The record.
  /// - Returns: The JSON.
  /// - Throws: `EncodingError` when the record does not validate.
  public static func encode(_ record: Record) throws -> Data { try JSONEncoder().encode(WireCoded(record)) }

  /// `JSONDecoder().decode` of a wire record, without the strict check.
  /// - Parameter data: The JSON.
  /// - Returns: The record.
  /// - Throws: `DecodingError`.
  public static func decode(_ data: Data) throws -> Record {
    try JSONDecoder().decode(WireCoded.self, from: data).record
  }

  /// Whether `data` holds, outside strings, a number written with a fraction or an exponent that a `Double` does not
  /// hold exactly: more than 15 significant digits, or a magnitude below 1e-300 (it rounds to zero or loses digits).
  /// `JSONDecoder` reads whether such a number is an integer through the rounded `Double` (`2.8e-602` as the integer 0),
  /// so where it differs from `Record(wireJSON:)`, which reads the exact value, the difference is `JSONDecoder`'s.
  /// - Parameter data: JSON text.
  /// - Returns: `true` when such a number occurs.
  public static func hasNumberBeyondDoublePrecision(_ data: Data) -> Bool {
    var inString = false
    var escaped = false
    var digits = 0
    var leading = true
    var decimal = false
    var inExponent = false
    var negativeExponent = false
    var exponent = 0
    func beyond() -> Bool { decimal && (digits > 15 || (negativeExponent && exponent >= 300)) }
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if inExponent {
          exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 10_000)
        } else {
          if byte != UInt8(ascii: "0") || !leading { digits += 1 }
          if byte != UInt8(ascii: "0") { leading = false }
        }
      case UInt8(ascii: "."):
        decimal = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        decimal = true
        inExponent = true
      case UInt8(ascii: "-"):
        if inExponent { negativeExponent = true }
      case UInt8(ascii: "+"):
        break
      default:
        if beyond() { return true }
        (digits, leading, decimal, inExponent, negativeExponent, exponent) = (0, true, false, false, false, 0)
        if byte == UInt8(ascii: "\"") { inString = true }
      }
    }
    return beyond()
  }
}
