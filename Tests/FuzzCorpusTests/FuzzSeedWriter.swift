import Foundation
import Reconcile
import ReconcileFuzzing
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// Writes the seed corpora in `Fuzz/Corpus` from the same records, fixtures and scripts the other tests use. It runs
/// only when asked (`RECONCILE_WRITE_FUZZ_SEEDS=1 swift test --filter FuzzSeedWriter`); the written files are
/// committed, and fuzzing adds its own finds beside them.
@Suite("Fuzz seed writer")
struct FuzzSeedWriter {
  static let repository = FuzzCorpusReplayTests.fuzzFolder.deletingLastPathComponent()

  @Test(
    "writes the seed corpora from tests, fixtures and scripts",
    .enabled(if: ProcessInfo.processInfo.environment["RECONCILE_WRITE_FUZZ_SEEDS"] != nil))
  func writeSeeds() throws {
    let fixtures = Self.repository.appendingPathComponent("Tests/ReconcileTests/Fixtures")
    var records: [Record] = []
    for seed in UInt64(1)...12 {
      var gen = RandomRecords(seed: seed)
      records.append(gen.record())
    }

    for (i, record) in records.enumerated() {
      try write(record.encodeSystemFields(), .systemFields, "random-\(i + 1)")
      var apple = record.systemFieldsOnly
      if apple.parent?.action == .validate { apple.parent?.action = .none }
      if apple.share?.action == .validate { apple.share?.action = .none }
      try write(try apple.cloudKitSystemFieldsArchive(), .cloudKitArchive, "random-\(i + 1)")
      if (try? record.validate()) != nil {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // the same bytes on every run
        try write(try encoder.encode(WireCoded(record)), .wireJSON, "random-\(i + 1)")
      }
    }
    for name in [
      "synckit-system-fields-QSCompany.bplist", "synckit-system-fields-QSCompany.xml.plist",
      "synckit-server-change-token.bplist",
    ] {
      let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
      try write(data, .cloudKitArchive, "fixture-" + name)
      try write(data, .systemFields, "fixture-" + name)
    }
    for (name, json) in Self.wireExamples { try write(Data(json.utf8), .wireJSON, name) }
    // Every real body and archive in the fixtures seeds the whole-body and state-archive targets.
    let webServices = fixtures.appendingPathComponent("web-services")
    for file in try FileManager.default.contentsOfDirectory(atPath: webServices.path).sorted() {
      try write(try Data(contentsOf: webServices.appendingPathComponent(file)), .webServices, "fixture-" + file)
    }
    for file in try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
    where file.hasSuffix("plist") {
      try write(try Data(contentsOf: fixtures.appendingPathComponent(file)), .cloudKitState, "fixture-" + file)
    }
    for (i, text) in Self.versions.enumerated() { try write(Data(text.utf8), .schemaVersion, "version-\(i + 1)") }

    var lines = Set<String>()
    for folder in ["Playground/Scenarios", "Playground/Scripts", "Tests/PlaygroundTests/Golden"] {
      let url = Self.repository.appendingPathComponent(folder)
      for file in try FileManager.default.contentsOfDirectory(atPath: url.path) where file.hasSuffix(".rcp") {
        let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
        try write(Data(text.utf8), .playgroundScript, "script-" + file)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") { lines.insert(String(line)) }
      }
    }
    for (i, line) in lines.sorted().enumerated() { try write(Data(line.utf8), .playgroundScript, "line-\(i + 1)") }

    let replay = Self.repository.appendingPathComponent("Playground/Scripts/server-lww-loses-one-sided-edit.rcp")
    try write(try Data(contentsOf: replay), .replayScript, "server-lww-loses-one-sided-edit")
    for (seed, resolver, faults) in [
      (1, ResolverChoice.fieldMerge, FaultProfile.hostile), (2, .editCount, .flaky), (3, .hybridLogicalClock, .hostile),
      (4, .serverLastWriterWins, .none), (5, .localClock, .flaky),
    ] {
      var simulation = Simulation(
        seed: UInt64(seed),
        configuration: SimulationConfiguration(
          steps: 40, resolver: resolver, faults: faults, schemas: seed.isMultiple(of: 2) ? .minorUpgrade : .none))
      try write(Data(simulation.run().script.utf8), .replayScript, "simulation-\(seed)")
    }
  }

  private func write(_ data: Data, _ target: FuzzTarget, _ name: String) throws {
    let folder = FuzzCorpusReplayTests.fuzzFolder.appendingPathComponent("Corpus").appendingPathComponent(
      target.rawValue)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try data.write(to: folder.appendingPathComponent("seed-" + name))
  }

  /// Web Services documents in the shapes cloudkit-semantics.md §7 shows: a response record with every system field,
  /// a request record with omitted types, and one of each list and reference form.
  static let wireExamples: [(String, String)] = [
    ("response", WireExamples.response),
    (
      "request",
      """
      {"recordName":"note-42","recordType":"Note","recordChangeTag":"k3",
       "fields":{"title":{"value":"Hi"},"pinned":{"value":1},"ratio":{"value":0.5},"tags":{"value":["a"]},
        "where":{"value":{"latitude":1.5,"longitude":2.5}},"ref":{"value":{"recordName":"x"}},
        "file":{"value":{"fileChecksum":"abc","size":3}}}}
      """
    ),
    (
      "lists",
      """
      {"recordName":"r","recordType":"T","parent":{"recordName":"p","action":"DELETE_SELF"},
       "share":{"recordName":"s","zoneID":{"zoneName":"Other"}},
       "fields":{"i":{"value":[1,2],"type":"INT64_LIST"},"d":{"value":[1.5],"type":"DOUBLE_LIST"},
        "t":{"value":[0],"type":"TIMESTAMP_LIST"},"b":{"value":["AAE="],"type":"BYTES_LIST"},
        "e":{"value":"c2VjcmV0","type":"ENCRYPTED_BYTES"},"bytes":{"value":"AA==","type":"BYTES"},
        "r":{"value":[{"recordName":"a","action":"VALIDATE"}],"type":"REFERENCE_LIST"},
        "l":{"value":[{"latitude":0,"longitude":0,"altitude":1,"horizontalAccuracy":2}],"type":"LOCATION_LIST"}}}
      """
    ),
  ]

  /// Valid versions and each kind of invalid one `SchemaVersionError` names.
  static let versions = [
    "1.0.0", "2.10.3", "0.0.0", "9223372036854775807.0.1", "1.0", "1.2.3.4", "1..0", "01.0.0", "1.a.0", "-1.0.0",
    "99999999999999999999.0.0", " 1.0.0", "1.0.0\n", "١.٠.٠",
  ]
}
