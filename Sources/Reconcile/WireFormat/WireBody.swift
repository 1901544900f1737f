import Foundation

/// A Web Services value — a body, a record, a share — read only by the strict reader (``WireJSON/check(_:maximumDepth:)``
/// and the request's zone as context) and written only by the validating writer.
///
/// The bodies are not `Codable` in public: `JSONDecoder` would skip the strict checks and read records that name no
/// zone into the default zone instead of the request's, so ``WebServices/Request``, ``WebServices/Response`` and
/// ``WebServices/Body`` are the one way in and out. (A record's and a share's `Codable` is their local format, not
/// this one.)
protocol WireBody {
  /// Decodes the value from the strict reader's decoder.
  init(wireFormatFrom decoder: any Decoder) throws
  /// Encodes the value.
  func encodeWireFormat(to encoder: any Encoder) throws
}

/// A ``WireBody`` as the `Codable` value the coders need inside this module.
struct Wire<Body: WireBody>: Codable {
  var body: Body

  init(_ body: Body) { self.body = body }
  init(from decoder: any Decoder) throws { body = try Body(wireFormatFrom: decoder) }
  func encode(to encoder: any Encoder) throws { try body.encodeWireFormat(to: encoder) }
}
