public import Foundation

/// Strict checks for Web Services JSON.
///
/// `JSONDecoder` keeps the first of two equal keys without a word, calls every problem "not valid JSON", and its
/// error says neither where nor why. ``check(_:maximumDepth:)`` walks the bytes once, without recursion, and names the
/// first problem with its byte offset: invalid UTF-8, a syntax error, a repeated key, nesting deeper than a record
/// needs, `NaN` or `Infinity`, a number too large for a `Double`, a malformed escape or a lone surrogate. Use it on a
/// body you decode with `JSONDecoder` yourself; ``Record/init(wireJSON:)`` and ``WebServices`` make the same checks in
/// the pass that reads the bytes for their typed decoders.
public enum WireJSON {
  /// The default nesting limit: a record needs about six levels (record, fields, field, list, location), a response
  /// envelope two more.
  public static let maximumDepth = JSONTree.defaultMaximumDepth

  /// Checks that `data` is strict JSON as described above.
  /// - Parameters:
  ///   - data: The document.
  ///   - maximumDepth: How deep arrays and objects may nest.
  /// - Throws: ``WireJSONError`` naming the first problem and its byte offset.
  /// - Complexity: O(*n*) time in the size of the data; memory O(*d* + *k*) for nesting depth *d* and the keys *k*
  ///   of the objects being read.
  public static func check(_ data: Data, maximumDepth: Int = WireJSON.maximumDepth) throws(WireJSONError) {
    let result: Result<Void, WireJSONError> = data.withUnsafeBytes { buffer in
      var scanner = JSONScanner(buffer, maximumDepth: maximumDepth, output: JSONCheckOnly())
      do throws(WireJSONError) {
        try scanner.scanDocument()
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }
}

extension Record {
  /// Decodes one Web Services record dictionary, making the checks of ``WireJSON/check(_:maximumDepth:)`` in the pass
  /// that reads the bytes.
  ///
  /// Every problem, from a repeated key to a field of the wrong type, is one typed error naming where it is.
  /// - Parameter data: A record dictionary, as the <doc:WebServicesJSON> article documents it.
  /// - Throws: ``WireJSONError``; a well-formed document that is not a valid record gives
  ///   ``WireJSONError/invalidRecord(path:reason:)`` with the field path.
  /// - Complexity: O(*n*) in the size of the data.
  public init(wireJSON data: Data) throws(WireJSONError) {
    let tree = try JSONTree.parse(data)
    do {
      self = try tree.decode(Wire<Record>.self, at: 0).body
    } catch let error as DecodingError {
      throw WireJSONError(error)
    } catch {
      throw .invalidRecord(path: "", reason: "\(error)")
    }
  }
}

extension Record {
  /// The record as a Web Services record dictionary, in JSON with sorted keys (equal records give equal bytes).
  ///
  /// This is the wire format; `Record: Codable` is not (see ``Record`` "Storing records locally").
  /// - Returns: The JSON.
  /// - Throws: ``WireJSONError/invalidRecord(path:reason:)`` when ``validate()`` fails, naming the rule.
  public func wireJSON() throws(WireJSONError) -> Data {
    do {
      return try WebServices.encode(Wire(self))
    } catch .invalidBody(_, let path, let reason) {
      throw .invalidRecord(path: path, reason: reason)
    } catch {
      throw error
    }
  }
}

extension WireJSONError {
  /// The decoding error as an ``invalidRecord(path:reason:)`` with a dotted path (`fields.title.value`), or as an
  /// ``invalidBody(_:path:reason:)`` when `subject` names a body.
  init(_ error: DecodingError, subject: String? = nil) {
    let context: DecodingError.Context
    let reason: String
    switch error {
    case .typeMismatch(let type, let c):
      context = c
      reason = "expected \(type): \(c.debugDescription)"
    case .valueNotFound(let type, let c):
      context = c
      reason = "missing \(type) value: \(c.debugDescription)"
    case .keyNotFound(let key, let c):
      context = c
      reason = "missing key \"\(key.stringValue)\""
    case .dataCorrupted(let c):
      context = c
      reason = c.debugDescription
    @unknown default:
      self = .invalidRecord(path: "", reason: "\(error)")
      return
    }
    let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    if let subject {
      self = .invalidBody(subject, path: path, reason: reason)
    } else {
      self = .invalidRecord(path: path, reason: reason)
    }
  }
}
