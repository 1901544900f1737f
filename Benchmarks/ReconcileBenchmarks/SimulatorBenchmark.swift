import Foundation
import Reconcile
import ReconcileSimulator

/// Simulation throughput and the cost of a change feed against the length of its history.
enum SimulatorBenchmark {
  struct Throughput {
    var label: String
    var seeds: Int
    var steps: Int
    var seconds: Double

    var stepsPerSecond: Double { Double(steps) / seconds }
    var seedsPerSecond: Double { Double(seeds) / seconds }
  }

  /// Runs `seeds` seeds of the CI configuration (200 steps, 3 devices, deleteWins) for each resolver and profile.
  static func throughput(seeds: Int) -> [Throughput] {
    var results: [Throughput] = []
    for (resolver, faults) in [
      (ResolverChoice.fieldMerge, FaultProfile.none), (.fieldMerge, .flaky), (.serverLastWriterWins, .flaky),
      (.editCount, .flaky), (.hybridLogicalClock, .flaky), (.fieldMerge, .hostile),
    ] {
      let configuration = SimulationConfiguration(deviceCount: 3, steps: 200, resolver: resolver, faults: faults)
      var steps = 0
      let start = DispatchTime.now().uptimeNanoseconds
      for seed in 0..<UInt64(seeds) {
        var simulation = Simulation(seed: seed, configuration: configuration)
        steps += simulation.run().statistics.steps
      }
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      results.append(Throughput(label: "\(resolver), \(faults)", seeds: seeds, steps: steps, seconds: seconds))
    }
    return results
  }

  /// Field-merge with flaky faults through the property runner on `jobs` threads, as `explore` runs it.
  static func parallelThroughput(seeds: Int, jobs: Int) -> Throughput {
    let configuration = SimulationConfiguration(deviceCount: 3, steps: 200, resolver: .fieldMerge, faults: .flaky)
    let start = DispatchTime.now().uptimeNanoseconds
    let report = PropertyRunner(configuration: configuration, seeds: 0..<UInt64(seeds), maximumFailures: nil)
      .run(jobs: jobs) { _ in true }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return Throughput(label: "field-merge, flaky, \(jobs) jobs", seeds: seeds, steps: report.stepsRun, seconds: seconds)
  }

  /// What callgrind counts: 20 seeds of field-merge with flaky faults on 3 devices, 200 steps each, one thread (or
  /// the same grown). Returns the steps run.
  static func instructionWorkload(devices: Int = 3, seeds: UInt64 = 20, steps length: Int = 200) -> Int {
    let configuration = SimulationConfiguration(
      deviceCount: devices, steps: length, resolver: .fieldMerge, faults: .flaky)
    var steps = 0
    for seed in UInt64(0)..<seeds {
      var simulation = Simulation(seed: seed, configuration: configuration)
      steps += simulation.run().statistics.steps
    }
    return steps
  }

  /// The configurations each held to the per-step budget on its own line, by name: the benchmark's own, the
  /// CKSyncEngine stand-in's, the merging resolver's under swarm faults. Sharing and pushes add theirs as they land.
  static let budgeted: [(name: String, configuration: SimulationConfiguration)] = {
    var syncEngine = SimulationConfiguration(deviceCount: 3, steps: 200, resolver: .fieldMerge, faults: .flaky)
    syncEngine.client = .syncEngine
    return [
      (
        "reference, field-merge, flaky",
        SimulationConfiguration(
          deviceCount: 3, steps: 200, resolver: .fieldMerge, faults: .flaky)
      ),
      ("sync-engine, field-merge, flaky", syncEngine),
      (
        "reference, merging, swarm",
        SimulationConfiguration(
          deviceCount: 3, steps: 200, resolver: .merging, faults: .swarm)
      ),
    ]
  }()

  /// 5 seeds of the budgeted configuration named `name` (the first when unknown). Returns the steps run.
  static func budgetedWorkload(named name: String, seeds: UInt64 = 5) -> Int {
    let configuration = (budgeted.first { $0.name == name } ?? budgeted[0]).configuration
    var steps = 0
    for seed in UInt64(0)..<seeds {
      var simulation = Simulation(seed: seed, configuration: configuration)
      steps += simulation.run().statistics.steps
    }
    return steps
  }

  /// `seeds` seeds of the callgrind workload (under `faults`) in a zone first populated with `records` records the workload never
  /// touches (``Simulation/populate()``), each run `length` steps (0: populated and judged only). Returns the steps run.
  static func populatedWorkload(
    records: Int, faults: FaultProfile = .flaky, seeds: UInt64 = 5, steps length: Int = 200
  ) -> Int {
    var configuration = SimulationConfiguration(deviceCount: 3, steps: length, resolver: .fieldMerge, faults: faults)
    configuration.populatedRecords = records
    var steps = 0
    for seed in UInt64(0)..<seeds {
      var simulation = Simulation(seed: seed, configuration: configuration)
      simulation.populate()
      steps += simulation.run().statistics.steps
    }
    return steps
  }

  struct FeedCost {
    var history: Int
    var nanoseconds: Double
    var changes: Int
  }

  /// Builds a zone with `history` changes (saves of 1,000 records, round after round), makes 100 more changes, and
  /// times fetching those 100 from the token taken just before them.
  static func feedCost(history: Int, repetitions: Int) throws -> FeedCost {
    var server = SimulatedServer(configuration: .init(throttle: nil, ancestorDepth: 0))
    let client = ClientIdentity(userRecordName: "_bench", deviceName: "bench")
    let zone = try ZoneID(zoneName: "Bench")
    _ = try server.modifyZones(ModifyZonesRequest(saving: [RecordZone(zoneID: zone)]), as: client)
    var records = try (0..<1_000).map { index -> Record in
      var record = Record(recordType: "Item", recordID: try RecordID(recordName: "i\(index)", zoneID: zone))
      record["n"] = 0
      return record
    }
    var made = 0
    var round: Int64 = 0
    func saveRound(_ count: Int) throws {
      round += 1
      var start = 0
      while start < count {
        let end = min(count, start + 400)
        var batch: [Record] = []
        for index in start..<end {
          records[index]["n"] = .int64(round)
          batch.append(records[index])
        }
        let reply = try server.modifyRecords(ModifyRecordsRequest(saving: batch), as: client)
        for saved in reply.saved {
          if let index = Int(saved.recordID.recordName.dropFirst()) { records[index] = saved }
        }
        start = end
      }
    }
    while made < history {
      let count = min(1_000, history - made)
      try saveRound(count)
      made += count
    }
    guard let token = server.currentChangeToken(for: zone, ownedBy: "_bench") else {
      return FeedCost(history: history, nanoseconds: 0, changes: 0)
    }
    try saveRound(100)
    var changes = 0
    let request = ZoneChangesRequest(zoneID: zone, since: token)
    let (ns, _) = try nanosecondsPerCall(iterations: repetitions) {
      let page = try server.fetchZoneChanges(request, as: client)
      changes = page.changed.count
      return changes
    }
    return FeedCost(history: history, nanoseconds: ns, changes: changes)
  }
}
