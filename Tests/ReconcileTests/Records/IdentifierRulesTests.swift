import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// Keys are checked on every edit and every save, so plain ASCII identifiers take a byte-by-byte path; these tests
/// hold every key, plain or not, to the same rules written out independently here.
@Suite("Identifier rules")
struct IdentifierRulesTests {
  /// CloudKit's rules for a key, written out scalar by scalar: the error `validate()` must report, or `nil`.
  static func expectedError(forKey key: String) -> RecordValidationError? {
    let scalars = Array(key.unicodeScalars)
    guard let first = scalars.first else { return .invalidName(.key, key, violation: .empty) }
    func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
    if first == "_" { return .invalidName(.key, key, violation: .leadingUnderscore) }
    if !isLetter(first) {
      return first.isASCII
        ? .invalidName(.key, key, violation: .mustStartWithLetter)
        : .invalidName(.key, key, violation: .invalidCharacter(first, offset: 0))
    }
    for (offset, scalar) in scalars.enumerated().dropFirst().prefix(255) {
      if !(isLetter(scalar) || ("0"..."9").contains(scalar) || scalar == "_") {
        return .invalidName(.key, key, violation: .invalidCharacter(scalar, offset: offset))
      }
    }
    if scalars.count > 255 { return .invalidName(.key, key, violation: .tooLong(count: scalars.count)) }
    let reserved: Set<String> = [
      "recordID", "recordType", "recordChangeTag", "creationDate", "creatorUserRecordID", "modificationDate",
      "lastModifiedUserRecordID", "parent", "share", "encryptedValues", "allKeys", "changedKeys",
    ]
    return reserved.contains(key) ? .invalidName(.key, key, violation: .reserved) : nil
  }

  static func validationError(of key: String) throws -> RecordValidationError? {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "n"))
    record[key] = "x"
    do {
      try record.validate()
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "edge keys get the error the rules name",
    arguments: [
      "a", "Z", "title", "color", "body_2", "recordID", "parent", "share", "recordid", "Parent", "_x", "1up", "",
      "a.b", "a-b", "a b", "héllo", "é", "naïve", String(repeating: "k", count: 255),
      String(repeating: "k", count: 256),
      String(repeating: "k", count: 300) + ".", "k" + String(repeating: "é", count: 300), "a\u{0}", "a`", "a{", "a@",
      "a[", "a/", "a:",
    ])
  func edgeKeys(key: String) throws {
    #expect(try Self.validationError(of: key) == Self.expectedError(forKey: key))
  }

  @Test("random keys get the error the rules name", arguments: TestSeeds.seeds(1...4))
  func randomKeys(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let identifier = Array("abcxyzABCXYZ019_")
    let anything = identifier + Array(".-é ~`@[{/:\u{7F}") + ["\u{0}"]
    for _ in 0..<2_000 {
      // Half the keys are made of identifier characters only, so the plain path is taken often, not just refused.
      let alphabet = random.next() % 2 == 0 ? identifier : anything
      let length = [0, 1, 2, 3, 5, 8, 13, 254, 255, 256][Int(random.next() % 10)]
      let key = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
      let found = try Self.validationError(of: key)
      let expected = Self.expectedError(forKey: key)
      #expect(found == expected, "key \(key.debugDescription); \(TestSeeds.replay(seed, test: "randomKeys"))")
      if found != expected { return }
    }
  }
}
