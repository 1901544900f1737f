import Foundation
import Reconcile
import Testing

@Suite("SchemaVersion")
struct SchemaVersionTests {
  @Test("parses, prints and compares MAJOR.MINOR.PATCH")
  func parseAndCompare() throws {
    let v = try SchemaVersion("1.2.0")
    #expect(v == SchemaVersion(major: 1, minor: 2, patch: 0))
    #expect(v.description == "1.2.0")
    #expect(try SchemaVersion("1.10.0") > SchemaVersion("1.9.9"))
    #expect(try SchemaVersion("2.0.0") > SchemaVersion("1.99.99"))
    #expect(try SchemaVersion("0.0.1") < SchemaVersion("0.1.0"))
    let json = try JSONEncoder().encode(v)
    #expect(String(decoding: json, as: UTF8.self) == #""1.2.0""#)
    #expect(try JSONDecoder().decode(SchemaVersion.self, from: json) == v)
  }

  @Test(
    "invalid text is an error naming it",
    arguments: [
      ("1.2", SchemaVersionError.Problem.wrongNumberOfParts(2)),
      ("1.2.3.4", .wrongNumberOfParts(4)),
      ("", .wrongNumberOfParts(1)),
      ("1..0", .emptyPart(1)),
      ("1.x.0", .notANumber("x")),
      ("v1.0.0", .notANumber("v1")),
      ("-1.0.0", .notANumber("-1")),
      (" 1.0.0", .notANumber(" 1")),
      ("01.0.0", .leadingZero("01")),
      ("99999999999999999999.0.0", .tooLarge("99999999999999999999")),
    ])
  func invalid(text: String, problem: SchemaVersionError.Problem) {
    let error = #expect(throws: SchemaVersionError.self) { try SchemaVersion(text) }
    #expect(error == SchemaVersionError(text: text, problem: problem))
    #expect(error?.description.contains("\"\(text)\" is not a schema version") == true)
  }

  @Test("a bad version in JSON is a decoding error naming it")
  func badJSON() {
    let error = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(SchemaVersion.self, from: Data(#""1.0""#.utf8))
    }
    #expect(String(describing: error).contains("\"1.0\" is not a schema version"))
  }
}
