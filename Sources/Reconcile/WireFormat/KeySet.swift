/// The keys of the objects a JSON scan has open, for the repeated-key check: one flat stack for all of them, so an
/// object costs no allocation of its own.
///
/// Keys written in plain ASCII without escapes — nearly every key — are the same key exactly when their bytes are
/// equal, so they are told apart by a fingerprint of their bytes and compared as text only when two fingerprints
/// agree. Any other key may equal a differently written one (an escape, a composed or decomposed letter, which Swift
/// compares as equal), so it is compared as text with every key of its object. Past ``setThreshold`` keys an object's
/// keys move to a `Set`, so a hostile object of many keys costs linear time.
struct KeySet {
  /// One open object: where its keys start, and its `Set` once it has many.
  struct Object {
    fileprivate var start: Int
    fileprivate var large: Set<String>?
  }

  /// How many keys an object keeps in the stack before it moves to a `Set`.
  static let setThreshold = 32

  /// Each key's fingerprint, or `nil` for a key that must be compared as text.
  private var fingerprints: [UInt64?] = []
  private var texts: [String] = []

  /// Opens an object.
  mutating func open() -> Object { Object(start: texts.count, large: nil) }

  /// Closes `object`, the innermost open one.
  mutating func close(_ object: Object) {
    fingerprints.removeSubrange(object.start...)
    texts.removeSubrange(object.start...)
  }

  /// Adds `key` to `object`, the innermost open one; `false` when the object already has it. `fingerprint` is the
  /// key's bytes' (``fingerprint(_:)``), `nil` unless it was written in plain ASCII.
  mutating func insert(_ key: String, fingerprint: UInt64?, into object: inout Object) -> Bool {
    if object.large != nil { return object.large?.insert(key).inserted ?? false }
    if texts.count - object.start >= Self.setThreshold {
      var large = Set(texts[object.start...])
      let inserted = large.insert(key).inserted
      object.large = large
      return inserted
    }
    for index in object.start..<texts.count {
      if let fingerprint, let other = fingerprints[index] {
        if other == fingerprint, texts[index] == key { return false }
      } else if texts[index] == key {
        return false
      }
    }
    fingerprints.append(fingerprint)
    texts.append(key)
    return true
  }

  /// FNV-1a over `bytes`.
  static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash
  }
}
