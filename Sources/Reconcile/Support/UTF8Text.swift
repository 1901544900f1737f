/// Strict UTF-8 decoding that works on every deployment target (the standard library's `String(validating:)` needs
/// the 2024 OS releases).
enum UTF8Text {
  /// The string the bytes spell, or `nil` when they are not valid UTF-8.
  static func string(validating bytes: some Collection<UInt8>) -> String? {
    // ASCII, the common case for names and tags, is valid UTF-8 as it is.
    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: break loop
      case .error: return nil
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
