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
}
