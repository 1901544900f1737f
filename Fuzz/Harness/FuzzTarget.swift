public import Foundation

/// A decoder or parser that reads untrusted input, as a fuzz target.
///
/// `Scripts/fuzz.sh TARGET SECONDS` runs one under libFuzzer with AddressSanitizer; the `FuzzCorpusTests` suite replays
/// every committed input in `Fuzz/Corpus/TARGET` and `Fuzz/Regressions/TARGET` through ``check(_:)`` in the normal test
/// run, so an input that once crashed keeps failing `swift test` until it is fixed.
public enum FuzzTarget: String, CaseIterable, Sendable, CustomStringConvertible {
  /// `Record(systemFieldsData:)`, Reconcile's compact archive.
  case systemFields = "system-fields"
  /// `Record(cloudKitSystemFieldsArchive:)`, Apple's keyed archive in a binary or XML property list.
  case cloudKitArchive = "cloudkit-archive"
  /// `Record: Decodable` reading CloudKit Web Services JSON.
  case wireJSON = "wire-json"
  /// `WebServices.Body(json:)` and `WebServices.Response(json:endpoint:)`: whole request and response bodies.
  case webServices = "web-services"
  /// `CloudKitArchive(data:)`: archived shares, change tokens, record and zone IDs, and arrays of them.
  case cloudKitState = "cloudkit-state"
  /// `SchemaVersion("MAJOR.MINOR.PATCH")`.
  case schemaVersion = "schema-version"
  /// The playground's `ScriptParser.parse`, one line at a time.
  case playgroundScript = "playground-script"
  /// The simulator's replay scripts, `SimulationScript.parse`.
  case replayScript = "replay-script"

  /// The name used on the command line and for the corpus folder.
  public var description: String { rawValue }

  /// Feeds one input to the target and checks what came back.
  ///
  /// A trap ends the process, which is what libFuzzer and the test run both report. Beyond not trapping, each target
  /// checks a property of its own (see the `*Check` types): errors are the documented type and say something, and
  /// whatever decodes survives a round trip through the matching encoder unchanged.
  /// - Parameter data: Any bytes.
  /// - Throws: ``FuzzFinding`` describing a broken property.
  public func check(_ data: Data) throws(FuzzFinding) {
    switch self {
    case .systemFields: try SystemFieldsCheck.check(data)
    case .cloudKitArchive: try CloudKitArchiveCheck.check(data)
    case .wireJSON: try WireJSONCheck.check(data)
    case .webServices: try WebServicesCheck.check(data)
    case .cloudKitState: try CloudKitStateArchiveCheck.check(data)
    case .schemaVersion: try SchemaVersionCheck.check(data)
    case .playgroundScript: try PlaygroundScriptCheck.check(data)
    case .replayScript: try ReplayScriptCheck.check(data)
    }
  }
}
