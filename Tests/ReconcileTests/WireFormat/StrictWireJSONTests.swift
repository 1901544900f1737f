import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

@Suite("Strict Web Services JSON: hostile documents get a typed error naming the problem")
struct StrictWireJSONTests {
  static func record(fields: String) -> String {
    #"{"recordName":"n","recordType":"T","fields":{"# + fields + "}}"
  }

  func error(_ json: String) -> WireJSONError? { error(Data(json.utf8)) }

  func error(_ data: Data) -> WireJSONError? {
    do {
      _ = try Record(wireJSON: data)
      return nil
    } catch {
      return error
    }
  }

  @Test("well-formed records decode as JSONDecoder decodes them")
  func acceptsValidRecords() throws {
    for json in [
      WireFormatTests.responseRecord,
      Self.record(fields: #""t":{"value":"\u00e9\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t","type":"STRING"}"#),
      Self.record(fields: #""n":{"value":-0.5e-3},"m":{"value":[]},"o":{"value":1E2}"#),
    ] {
      let strict = try Record(wireJSON: Data(json.utf8))
      #expect(strict == (try WireCoded.decode(Data(json.utf8))))
    }
  }

  @Test(
    "a repeated key is refused wherever it is, even spelt with escapes",
    arguments: [
      (#"{"recordName":"a","recordName":"b","recordType":"T"}"#, "recordName", 18),
      (record(fields: #""x":{"value":1},"x":{"value":2}"#), "x", 61),
      (record(fields: #""x":{"value":1,"value":2}"#), "value", 60),
      (record(fields: #""x":{"value":1},"\u0078":{"value":2}"#), "x", 61),
      // Canonically equal spellings are one key to Swift, so one to the check: composed and decomposed é, and the
      // Kelvin sign, which decomposes to a plain K.
      (record(fields: "\"\u{E9}\":{\"value\":1},\"e\u{301}\":{\"value\":2}"), "e\u{301}", 62),
      (record(fields: #""K":{"value":1},"\u212A":{"value":2}"#), "\u{212A}", 61),
      (record(fields: "\"\u{212A}\":{\"value\":1},\"K\":{\"value\":2}"), "K", 63),
    ])
  func duplicateKeys(json: String, key: String, offset: Int) {
    #expect(error(json) == .duplicateKey(key, offset: offset))
  }

  @Test("a repeated key is found in an object of many keys, before and after the check moves it to a set")
  func duplicateKeysInLargeObjects() {
    for (count, repeated) in [(20, 7), (40, 3), (40, 35), (500, 499)] {
      var members = (0..<count).map { "\"k\($0)\":{\"value\":\($0)}" }
      members.append("\"k\(repeated)\":{\"value\":0}")
      let json = Self.record(fields: members.joined(separator: ","))
      guard case .duplicateKey(let key, _)? = error(json) else {
        Issue.record("no repeated key found among \(count) keys (k\(repeated))")
        continue
      }
      #expect(key == "k\(repeated)")
    }
  }

  @Test(
    "NaN and infinities are named; numbers beyond a Double are out of range",
    arguments: [
      (#"{"value":NaN}"#, WireJSONError.nonFiniteNumber("NaN", offset: 9)),
      (#"{"value":Infinity}"#, .nonFiniteNumber("Infinity", offset: 9)),
      (#"{"value":-Infinity}"#, .nonFiniteNumber("-Infinity", offset: 9)),
      (#"{"value":1e400}"#, .numberOutOfRange("1e400", offset: 9)),
      (#"{"value":-1e309}"#, .numberOutOfRange("-1e309", offset: 9)),
      (
        "{\"value\":1" + String(repeating: "0", count: 400) + "}",
        .numberOutOfRange("1" + String(repeating: "0", count: 400), offset: 9)
      ),
    ])
  func nonFinite(json: String, expected: WireJSONError) {
    #expect(error(json) == expected)
  }

  @Test(
    "invalid UTF-8 is found at its byte: bad lead, overlong, surrogate, past U+10FFFF, truncated",
    arguments: [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] as [[UInt8]])
  func invalidUTF8(bytes: [UInt8]) {
    let data = Data(#"{"recordName":""#.utf8) + Data(bytes) + Data(#"","recordType":"T"}"#.utf8)
    #expect(error(data) == .invalidUTF8(offset: 15))
  }

  @Test(
    "lone surrogates and malformed escapes are refused",
    arguments: [#"\ud800"#, #"\udc00x"#, #"\ud800\u0041"#, #"\x"#, #"\u12"#])
  func badEscapes(escape: String) {
    #expect(error(#"{"recordName":"# + "\"" + escape + "\"}") == .invalidEscape(offset: 15))
  }

  @Test("100,000 levels of nesting stop at the limit without recursion")
  func deepNesting() {
    let depth = 100_000
    let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect(error(json) == .nestedTooDeep(offset: WireJSON.maximumDepth, limit: WireJSON.maximumDepth))
    let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    #expect(error(objects) == .nestedTooDeep(offset: 5 * WireJSON.maximumDepth, limit: WireJSON.maximumDepth))
    #expect(throws: WireJSONError.self) { try WireJSON.check(Data("[[[1]]]".utf8), maximumDepth: 2) }
  }

  @Test(
    "syntax errors say what was expected and where",
    arguments: [
      ("", WireJSONError.syntax(offset: 0, expected: "a value")),
      ("{", .syntax(offset: 1, expected: "a string key")),
      (#"{"a" 1}"#, .syntax(offset: 5, expected: "':'")),
      (#"{"a":1,}"#, .syntax(offset: 7, expected: "a string key")),
      ("[1 2]", .syntax(offset: 3, expected: "',' or ']'")),
      ("[01]", .syntax(offset: 2, expected: "',' or ']'")),
      ("[1.]", .syntax(offset: 3, expected: "a digit after '.'")),
      ("[tru]", .syntax(offset: 1, expected: "true")),
      (#"{} {}"#, .syntax(offset: 3, expected: "the end of the document")),
      ("\"a\u{01}\"", .syntax(offset: 2, expected: "a control character to be escaped")),
    ])
  func syntax(json: String, expected: WireJSONError) {
    #expect(throws: expected) { try WireJSON.check(Data(json.utf8)) }
  }

  @Test(
    "well-formed JSON that is not a record names the field path",
    arguments: [
      (record(fields: #""l":{"value":[[1]],"type":"INT64_LIST"}"#), "fields.l.value"),
      (record(fields: #""l":{"value":[1,"a"]}"#), "fields.l.value"),
      (record(fields: #""t":{"value":1e300,"type":"TIMESTAMP"}"#), "fields.t.value"),
      (#"{"recordName":"n"}"#, ""),
    ])
  func invalidRecords(json: String, path: String) {
    guard case .invalidRecord(let found, let reason)? = error(json) else {
      Issue.record("expected invalidRecord for \(json)")
      return
    }
    #expect(found == path)
    #expect(!reason.isEmpty)
  }

  @Test("every error reads as a sentence with its offset")
  func descriptions() {
    #expect(WireJSONError.duplicateKey("x", offset: 61).description == #"JSON object repeats the key "x" at byte 61"#)
    #expect(
      WireJSONError.invalidRecord(path: "fields.l", reason: "mixed").description
        == "record JSON is invalid at fields.l: mixed")
  }
}

/// `Record(wireJSON:)` reads a tree the strict scanner built, with its own `Decoder` and a shortcut for `fields`; a
/// body of your own decodes records with `JSONDecoder` and ``Record/init(wireFormatFrom:)``. Both must read the same
/// bytes the same way, and fail at the same path.
@Suite("The tree decoder and JSONDecoder agree")
struct TreeDecoderAgreementTests {
  static let record = StrictWireJSONTests.record(fields:)

  @Test(
    "a malformed entry of fields fails at the same path either way",
    arguments: [
      record(#""x":7"#),
      record(#""x":{"type":7,"value":1}"#),
      record(#""x":{"type":"STRING"}"#),
      record(#""x":{"type":"STRINGY","value":"a"}"#),
      record(#""x":{"value":1,"isEncrypted":"yes"}"#),
      record(#""x":{"value":"a","type":"INT64"}"#),
      record(#""x":{"value":{"recordName":7},"type":"REFERENCE"}"#),
      record(#""x":{"value":[1,"a"]}"#),
      #"{"recordName":"n","recordType":"T","fields":[]}"#,
      #"{"recordName":"n","recordType":"T","created":{"timestamp":"soon"}}"#,
      #"{"recordName":7,"recordType":"T"}"#,
      #"{"recordName":"n","recordType":"T","zoneID":{"zoneName":7}}"#,
    ])
  func sameFailure(json: String) {
    let data = Data(json.utf8)
    var strict: WireJSONError?
    do { _ = try Record(wireJSON: data) } catch { strict = error }
    var decodedPath: String?
    do { _ = try WireCoded.decode(data) } catch let error as DecodingError {
      decodedPath = Self.path(error)
    } catch {
      Issue.record("JSONDecoder threw \(error)")
    }
    guard case .invalidRecord(let strictPath, _)? = strict, let decodedPath else {
      Issue.record(
        "expected both to fail: tree \(String(describing: strict)), JSONDecoder \(String(describing: decodedPath))")
      return
    }
    #expect(strictPath == decodedPath, "\(json)")
  }

  /// The dotted path `WireJSONError` gives a decoding error.
  static func path(_ error: DecodingError) -> String {
    let context: DecodingError.Context
    switch error {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
    @unknown default: return ""
    }
    return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
  }

  @Test("numbers without a type read as JSONDecoder reads them, and past a Double's digits by their exact value")
  func sameNumbers() throws {
    var numbers = ["67143957742687968.055", "9007199254740993.0", "1.0e2", "-0.0", "1e-2", "123.4500e2", "12345e-3"]
    numbers += ["2.845176e-602", "1e-300", "-5e-324", "0.0e-400"]
    numbers += [
      "9223372036854775807", "9223372036854775808", "-9223372036854775808.0", "-9223372036854775809", "0e999",
    ]
    for seed in TestSeeds.seeds(1...1_500) {
      var random = SeededRandom(seed: seed)
      var text = Int.random(in: 0...1, using: &random) == 0 ? "" : "-"
      text += String(Int.random(in: 1...9, using: &random))
      text += (0..<Int.random(in: 0...19, using: &random)).map { _ in String(Int.random(in: 0...9, using: &random)) }
        .joined()
      if Bool.random(using: &random) {
        let zeros = Bool.random(using: &random)
        text +=
          "."
          + (0..<Int.random(in: 1...4, using: &random)).map { _ in
            zeros ? "0" : String(Int.random(in: 0...9, using: &random))
          }.joined()
      }
      if Bool.random(using: &random) { text += "e" + String(Int.random(in: -22...22, using: &random)) }
      numbers.append(text)
    }
    for number in numbers {
      let data = Data(Self.record(#""n":{"value":"# + number + "}").utf8)
      let strict = try Record(wireJSON: data)
      if !WireCoded.hasNumberBeyondDoublePrecision(data) {
        #expect(strict == (try WireCoded.decode(data)), "\(number)")
        continue
      }
      // JSONDecoder reads such a number through a rounded Double (`9007199254740993.5` as 9007199254740993, but
      // `67143957742687968.055` as a Double); the tree reads its exact value: an integer when that is whole and fits.
      guard let exact = Decimal(string: number), !exact.isNaN, exact.exponent > -128 || exact.isZero else {
        // Beyond a Decimal's range too: zero written so is the integer 0; anything else is no whole number, and a
        // Double reads it (as zero, below its range).
        let mantissa = number.lowercased().split(separator: "e").first ?? ""
        let isZero = !mantissa.contains { "123456789".contains($0) }
        #expect(strict["n"] == (isZero ? .int64(0) : .double(try #require(Double(number)))), "\(number)")
        continue
      }
      var whole = Decimal()
      var copy = exact
      NSDecimalRound(&whole, &copy, 0, .plain)
      if whole == exact, let integer = Int64(exactly: NSDecimalNumber(decimal: exact).int64Value),
        Decimal(integer) == exact
      {
        #expect(strict["n"] == .int64(integer), "\(number)")
      } else {
        #expect(strict["n"] == .double(try #require(Double(number))), "\(number)")
      }
    }
  }

  @Test("records decode to the same record either way")
  func sameRecords() throws {
    for json in [
      WireFormatTests.responseRecord,
      Self.record(#""x":{"value":1.0},"y":{"value":1E2},"z":{"value":-0.5},"w":{"value":12345678901234567890}"#),
      Self.record(#""l":{"value":{"latitude":1,"longitude":2.5,"timestamp":1}},"a":{"value":{"size":3}}"#),
      Self.record(
        #""e":{"value":"AAAA","type":"ENCRYPTED_BYTES"},"p":{"value":"x","type":"STRING","isEncrypted":true}"#),
    ] {
      let data = Data(json.utf8)
      #expect(try Record(wireJSON: data) == (try WireCoded.decode(data)), "\(json)")
    }
  }
}
