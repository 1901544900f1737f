import ReconcileSimulator

/// How often seeded runs reach the paths that lose data when a client gets them wrong: server conflicts, paging,
/// request limits, atomic batch failures, token expiry, torn crashes and blocked resurrections.
enum WorkloadBenchmark {
  struct Coverage {
    var label: String
    var runs = 0
    var conflicts = 0
    var runsWithoutConflict = 0
    var runsPaging = 0
    var runsLimitExceeded = 0
    var runsBatchFailed = 0
    var runsTokenExpired = 0
    var runsTornCrash = 0
    var runsResurrectionBlocked = 0
    var failures = 0

    func share(_ count: Int) -> Double { runs == 0 ? 0 : Double(count) / Double(runs) }
  }

  /// Runs `seeds` seeds of one configuration and counts, per run, which paths it reached.
  static func coverage(_ label: String, _ configuration: SimulationConfiguration, seeds: Int) -> Coverage {
    var coverage = Coverage(label: label)
    for seed in 0..<UInt64(seeds) {
      var simulation = Simulation(seed: seed, configuration: configuration)
      let result = simulation.run()
      let s = result.statistics
      coverage.runs += 1
      coverage.conflicts += s.conflicts
      if s.conflicts == 0 { coverage.runsWithoutConflict += 1 }
      if s.moreComingPages > 0 { coverage.runsPaging += 1 }
      if s.limitExceeded > 0 { coverage.runsLimitExceeded += 1 }
      if s.batchRequestFailed > 0 { coverage.runsBatchFailed += 1 }
      if s.tokenExpiries > 0 { coverage.runsTokenExpired += 1 }
      if s.tornCrashes > 0 { coverage.runsTornCrash += 1 }
      if s.resurrectionsBlocked > 0 { coverage.runsResurrectionBlocked += 1 }
      if !result.passed { coverage.failures += 1 }
    }
    return coverage
  }
}
