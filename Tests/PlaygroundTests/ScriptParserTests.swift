import Foundation
import Reconcile
import ReconcilePlayground
import ReconcileSimulator
import Testing

@Suite("Playground command language: parsing")
struct ScriptParserTests {
  static func parse(_ line: String) throws -> ScriptCommand {
    try #require(try ScriptParser.parse(line))
  }

  static func error(_ line: String) -> String {
    do {
      _ = try ScriptParser.parse(line)
      return "parsed"
    } catch {
      return error.message
    }
  }

  @Test("blank and comment-only lines are nothing; a comment after a command is ignored")
  func commentsAndBlanks() throws {
    #expect(try ScriptParser.parse("") == nil)
    #expect(try ScriptParser.parse("   # just a note") == nil)
    guard case .sync(let device) = try Self.parse("phone sync   # go") else {
      Issue.record("not a sync")
      return
    }
    #expect(device == "phone")
  }

  @Test("a key that breaks CloudKit's key rule is a parse error naming it, so a line reads back as written")
  func malformedKeysAreRefused() throws {
    // The fuzzer's find: `title---` read as the key `title--` with `-=`, and was written back with one dash less.
    for line in ["d1 create Note/r6 rank=15 title---=\"d1.15\"", "d1 edit Note/r6 ti-tle=1", "d1 edit Note/r6 -9lives"]
    {
      do {
        _ = try ScriptParser.parse(line)
        Issue.record("\(line) parsed")
      } catch {
        #expect(error.message.contains("is not a key"), "\(line): \(error.message)")
        #expect(error.token != nil, "\(line): the error names the word")
      }
    }
    // The operators still read: `title-=` takes away from `title`, `-title` removes it.
    #expect(throws: Never.self) { try ScriptParser.parse("d1 edit Note/r6 title-=\"x\" -body plays+=1") }
  }

  @Test("device add reads clock offsets, app versions and users")
  func deviceAdd() throws {
    guard case .addDevice(let setup) = try Self.parse("device add mac --clock-offset -5m --schema 2.0 --user bob")
    else {
      Issue.record("not device add")
      return
    }
    #expect(setup.name == "mac")
    #expect(setup.clockOffset == -300)
    #expect(setup.schema == SchemaVersion(major: 2))
    #expect(setup.user == "bob")
  }

  @Test("create reads every kind of value and expands a range of records")
  func createValues() throws {
    let line =
      #"phone create Note/1 title="Buy milk" note=bare n=42 ratio=0.5 due=2026-11-21T09:30:00Z "#
      + #"tags=[milk, "oat milk"] folder=@Folder/f1 owner=@!Folder/f2 raw=0x00ff done=true gone=nil encrypted:pin=1234"#
    guard case .create(let device, let records, let fields) = try Self.parse(line) else {
      Issue.record("not a create")
      return
    }
    #expect(device == "phone")
    #expect(records.map(\.description) == ["Note/1"])
    let values = Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0.value) })
    #expect(values["title"] == .some(.string("Buy milk")))
    #expect(values["note"] == .some(.string("bare")))
    #expect(values["n"] == .some(.int64(42)))
    #expect(values["ratio"] == .some(.double(0.5)))
    #expect(values["due"] == .some(.timestamp(Date(timeIntervalSince1970: 1_795_253_400))))
    #expect(values["tags"] == .some(.list([.string("milk"), .string("oat milk")])))
    let folder = try RecordID(recordName: "f1", zoneID: Simulation.zoneID)
    #expect(values["folder"] == .some(.reference(Reference(recordID: folder))))
    #expect(values["owner"]??.referenceValue?.action == .deleteSelf)
    #expect(values["raw"] == .some(.bytes(Data([0x00, 0xFF]))))
    #expect(values["done"] == .some(.int64(1)))
    #expect(values["gone"] == .some(nil))
    #expect(fields.first { $0.key == "pin" }?.encrypted == true)

    guard case .create(_, let many, _) = try Self.parse("phone create Note/{1..1000} title=bulk") else {
      Issue.record("not a create")
      return
    }
    #expect(many.count == 1000)
    #expect(many.last?.recordName == "1000")
  }

  @Test(
    "values print in script syntax and read back as the same value",
    arguments: [
      FieldValue.string("with \"quotes\", a \\ and\na newline"), .string(""), .string("nil"), .string("42"),
      .string("Windows\r\nlines and a lone \r"), .string("12abc"),
      .int64(-7), .double(2.5), .timestamp(Date(timeIntervalSince1970: 1_795_253_400)), .bytes(Data([1, 2, 254])),
      .list([.int64(1), .int64(2)]), .list([.string("a, b"), .string("[c]")]), .list([]),
    ])
  func valuesRoundTrip(_ value: FieldValue) throws {
    let text = ValueSyntax.render(value)
    #expect(try ValueSyntax.parse(text) == value, "\(text)")
  }

  @Test(
    "a bad line is an error that names the offending token",
    arguments: [
      ("phone create Note/1 title=\"open", "unterminated quote starting at column 27"),
      ("phone create Note/1 tags=[a, b", "unclosed '[' at column 26"),
      ("phone create Note/1 n=99999999999999999999", "integer out of the 64-bit range"),
      ("phone create Note/1 count=12abc", "count: 12abc: not a number; write \"12abc\" to store it as text"),
      ("phone create Note/1 price=-3.5x", "not a number"),
      ("phone create Note/1 title=\"a\\qb\"", "unknown escape '\\q'; use \\\", \\\\, \\n, \\r or \\t"),
      ("phone create Note/1 due=2026-13-45T00:00:00Z", "2026-13-45T00:00:00Z: not an ISO 8601 date"),
      ("phone create Note/1 raw=0xabc", "0xabc: bytes need an even number of hex digits"),
      ("phone create Note/1 title", "title: expected key=value"),
      ("phone create 1 title=a", "1: name a record as TYPE/NAME"),
      ("phone create Note/_hidden title=a", "Note/_hidden:"),
      ("phone create Note/1 x=[[[[[[[[[1]]]]]]]]]", "lists nested more than 8 deep"),
      ("phone create Note/{1..200000} x=1", "at most 100000 records at once"),
      ("phone sink", "unknown device command 'sink'; did you mean 'sync'?"),
      ("sycn all", "unknown command 'sycn'; did you mean 'sync'?"),
      ("shwo", "unknown command 'shwo'; did you mean 'show'?"),
      ("resolver field-marge", "unknown resolver 'field-marge'; did you mean 'field-merge'?"),
      (
        "resolver lww",
        "unknown resolver 'lww'; expected one of server-lww, local-clock, edit-count, field-merge, hlc, merging ("
      ),
      ("delete-policy deletewins", "did you mean 'deleteWins'?"),
      ("advance soon", "soon: not a duration"),
      ("advance 30s extra", "unexpected 'extra' at column 13"),
      ("device add sync", "'sync' is a command word"),
      ("expect server Note/1 title < 3", "compare field values with = or !="),
      ("expect phone recrods = 3", "unknown count 'recrods'; did you mean 'records'?"),
      ("fault error serverUnavailable", "did you mean 'serviceUnavailable'?"),
      ("schema 1.0 Note title:text", "unknown field type 'text'"),
      ("limit batch-item 10", "did you mean 'batch-items'?"),
    ])
  func errorsNameTheToken(_ line: String, _ message: String) {
    let error = Self.error(line)
    #expect(error.contains(message), "\(line) → \(error)")
  }

  @Test("every command help lists parses in its example form")
  func helpExamplesParse() throws {
    let examples = [
      "device add phone --clock-offset 5m --schema 1.0", "phone create Note/1 title=a", "phone edit Note/1 title=b",
      "phone delete Note/1", "phone sync", "sync all", "phone offline", "phone online", "phone crash",
      "phone restart", "phone upgrade 2.0", "phone clock -5m", "resolver field-merge --prefer client --union tags",
      "delete-policy editWins", "schema 2.0 Note title:string:required tags:[string] pin:string:encrypted",
      "fault phone disconnect-after-save", "fault phone lose-response 2", "fault throttle 30s",
      "fault error zoneBusy 3 --device phone --retry-after 5s", "fault expire-tokens", "fault clear",
      "limit batch-items 100", "advance 1h", "show server --json", "show phone", "show diff", "show diagnostics",
      "show log", "expect server Note/1 title = \"b\"", "expect phone Note/1 exists", "expect converged",
      "expect halted phone", "expect phone status = idle", "expect phone errors:limitExceeded >= 1", "help",
    ]
    for example in examples { #expect(try ScriptParser.parse(example) != nil, "\(example)") }
    #expect(ScriptParser.commands.count >= 20)
  }

  @Test("megabyte lines parse, or fail with a short message, without a quadratic suggestion search")
  func megabyteLines() throws {
    // 1 MB keeps the debug test quick; the benchmark's `hostile` group times 10 MB lines in release.
    let huge = String(repeating: "x", count: 1_048_576)
    guard case .create(_, _, let fields)? = try ScriptParser.parse("phone create Note/1 title=\"\(huge)\"") else {
      Issue.record("a 10 MB value did not parse as create")
      return
    }
    #expect(fields.first?.value?.stringValue?.utf8.count == huge.utf8.count)
    for line in [huge, "phone " + huge, "phone create Note/1 " + huge, "expect " + huge] {
      #expect {
        try ScriptParser.parse(line)
      } throws: { error in
        (error as? ScriptError).map { $0.message.count <= ScriptError.longestMessage } ?? false
      }
    }
  }
}
