import Foundation

/// A semantic version, `MAJOR.MINOR.PATCH`, such as `1.2.0`: the version of the app's schema that wrote a record.
///
/// ```swift
/// let version = try SchemaVersion("1.2.0")
/// version < SchemaVersion(major: 2, minor: 0, patch: 0)   // true
/// version.description                                      // "1.2.0"
/// ```
///
/// Versions compare by major, then minor, then patch. A record carries its version as a `STRING` field (see
/// ``Schema/versionKey``).
public struct SchemaVersion: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// Incremented for changes older apps cannot read safely.
  public var major: Int
  /// Incremented for additions older apps can ignore.
  public var minor: Int
  /// Incremented for fixes that change no fields.
  public var patch: Int

  /// Creates a version from its parts.
  /// - Parameters:
  ///   - major: The major version, 0 or more.
  ///   - minor: The minor version, 0 or more.
  ///   - patch: The patch version, 0 or more.
  public init(major: Int, minor: Int = 0, patch: Int = 0) {
    self.major = max(major, 0)
    self.minor = max(minor, 0)
    self.patch = max(patch, 0)
  }

  /// Parses `MAJOR.MINOR.PATCH`: three decimal numbers without signs, spaces or leading zeros.
  /// - Parameter string: Text such as `1.2.0`.
  /// - Throws: ``SchemaVersionError`` naming the text and what is wrong with it.
  /// - Complexity: O(*n*) in the length of the text, over its UTF-8 bytes.
  public init(_ string: String) throws(SchemaVersionError) {
    // Bytes, not Characters: a dot and the digits are ASCII, and grapheme breaking would cost ten times as much on a
    // long hostile string.
    let parts = string.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw SchemaVersionError(text: string, problem: .wrongNumberOfParts(parts.count)) }
    var numbers: [Int] = []
    for (index, part) in parts.enumerated() {
      guard !part.isEmpty else { throw SchemaVersionError(text: string, problem: .emptyPart(index)) }
      let text = { String(decoding: part, as: UTF8.self) }
      guard part.allSatisfy({ (0x30...0x39).contains($0) }) else {
        throw SchemaVersionError(text: string, problem: .notANumber(text()))
      }
      guard part.count == 1 || part.first != UInt8(ascii: "0") else {
        throw SchemaVersionError(text: string, problem: .leadingZero(text()))
      }
      guard part.count <= 19, let number = Int(text()) else {
        throw SchemaVersionError(text: string, problem: .tooLarge(text()))
      }
      numbers.append(number)
    }
    self.init(major: numbers[0], minor: numbers[1], patch: numbers[2])
  }

  /// `MAJOR.MINOR.PATCH`.
  public var description: String { "\(major).\(minor).\(patch)" }

  /// Orders by major, then minor, then patch.
  public static func < (lhs: SchemaVersion, rhs: SchemaVersion) -> Bool {
    (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
  }

  /// Decodes a version from its string form.
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` naming bad text.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      try self.init(text)
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  /// Encodes the version as its string form.
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// Text that is not a `MAJOR.MINOR.PATCH` version.
public struct SchemaVersionError: Error, Sendable, Hashable, DescribedError {
  /// What is wrong with the text.
  public enum Problem: Sendable, Hashable {
    /// The text has this many dot-separated parts instead of three.
    case wrongNumberOfParts(Int)
    /// The part at this index (0 = major) is empty.
    case emptyPart(Int)
    /// A part holds something other than decimal digits.
    case notANumber(String)
    /// A part has a leading zero, which semantic versioning forbids.
    case leadingZero(String)
    /// A part is too large for an `Int`.
    case tooLarge(String)
  }

  /// The text that failed to parse.
  public var text: String
  /// What is wrong with it.
  public var problem: Problem

  /// Creates the error.
  /// - Parameters:
  ///   - text: The text that failed to parse.
  ///   - problem: What is wrong with it.
  package init(text: String, problem: Problem) {
    self.text = text
    self.problem = problem
  }

  /// A sentence naming the text and the problem.
  public var description: String {
    let why: String
    // Quoted text is cut short: a hostile version string may be megabytes long.
    func quoted(_ s: String) -> String {
      s.utf8.count <= 40 ? "\"\(s)\"" : "\"\(s.prefix(40))…\" (\(s.utf8.count) bytes)"
    }
    switch problem {
    case .wrongNumberOfParts(let count): why = "it has \(count) part\(count == 1 ? "" : "s"), not MAJOR.MINOR.PATCH"
    case .emptyPart(let index): why = "its \(["major", "minor", "patch"][min(index, 2)]) part is empty"
    case .notANumber(let part): why = "\(quoted(part)) is not a decimal number"
    case .leadingZero(let part): why = "\(quoted(part)) has a leading zero"
    case .tooLarge(let part): why = "\(quoted(part)) is too large"
    }
    return "\(quoted(text)) is not a schema version: \(why)."
  }
}
