import Reconcile

extension Auditor {
  /// Judges the run. `end` is `nil` when the world was not driven to quiescence: only what broke while running is
  /// judged then, and the end-state invariants do not apply.
  func verdict(end: EndState?) -> Verdict {
    var tally = InvariantTally()
    tally.violations = liveViolations
    judgeRunningInvariants(into: &tally)
    if let end {
      tally.judged(.liveness)
      if !end.quiescent { tally.fail(.liveness, "no quiescence within the bound") }
      judgeEndState(end, into: &tally)
    } else {
      for invariant in Invariant.endState { tally.inapplicable(invariant, "the run was not driven to quiescence") }
    }
    let invariants = rules.invariants
    return Verdict(
      violations: Self.ordered(tally.violations.filter { invariants.contains($0.invariant) }),
      outcomes: tally.outcomes(for: invariants, extra: []), setAside: tally.setAsideCounts,
      recordsJudged: tally.recordsConsidered)
  }

  /// Violations grouped by invariant in declaration order, each group in the order found.
  static func ordered(_ violations: [InvariantViolation]) -> [InvariantViolation] {
    let rank = Dictionary(uniqueKeysWithValues: Invariant.allCases.enumerated().map { ($1, $0) })
    return violations.enumerated().sorted {
      (rank[$0.element.invariant] ?? 0, $0.offset) < (rank[$1.element.invariant] ?? 0, $1.offset)
    }.map(\.element)
  }

  private func judgeRunningInvariants(into tally: inout InvariantTally) {
    tally.judged(.serverInvariants, tagsIssued + tokenChecks)
    tally.inapplicable(.serverInvariants, "the server issued no change tag and no device moved a token")
    tally.judged(.haltedDeviceSendsNothing, haltCount)
    tally.inapplicable(.haltedDeviceSendsNothing, "no device halted")
    tally.judged(.retryAfterHonoured, retryAftersHanded)
    tally.inapplicable(.retryAfterHonoured, "no client was handed an error with a retry-after")
    tally.judged(.damagedDataNeverUploaded, damageCount)
    tally.inapplicable(.damagedDataNeverUploaded, "no device's stored copy was damaged")
    tally.judged(.accountsKeptApart, privacy.checks)
    if !privacy.accountsChanged { tally.inapplicable(.accountsKeptApart, "no device changed accounts") }
    tally.judged(.unknownKeysKept, unknownKeySaves)
    tally.inapplicable(
      .unknownKeysKept,
      rules.appsKnowEveryKey
        ? "the run has no schemas, so every app knows every key"
        : "no device saved a record holding a key its app does not know")
  }

  private func judgeEndState(_ end: EndState, into tally: inout InvariantTally) {
    guard end.quiescent else {
      for invariant in Invariant.endState where invariant != .liveness {
        tally.inapplicable(invariant, "the world did not become quiescent (see liveness)")
      }
      return
    }
    for device in end.devices {
      // A device converges with its own account's database; signed out, it syncs nothing, and what it holds waits
      // for the next sign-in.
      guard let account = device.account else { continue }
      tally.judged(.convergence)
      let pending = device.pendingChangeCount
      if pending > 0 { tally.fail(.convergence, "\(device.name) still has \(pending) queued") }
      let server = account == rules.owner ? end.serverRecords : end.otherAccounts[account] ?? []
      if device.records != server {
        tally.fail(.convergence, Self.difference(device: device, server: server))
      }
    }
    let kept = self.history
    let acrossAccounts = privacy.shown(end.devices) { kept.keptThroughSignOut(by: $0) }
    tally.judged(.accountsKeptApart, acrossAccounts.checks)
    tally.violations += acrossAccounts.violations
    if rules.invariants.contains(.oneSidedChangesKept) {
      // Only keys users write carry unique values; bookkeeping fields (edit counts, stamps) repeat by design.
      tally.violations += staleOverwrites()
    }
    // A device left signed out, keeping its records for their account, has not sent what it holds: that account's
    // database is not held to it.
    var history = history
    for device in end.devices where device.account == nil {
      history.recordKeptAtEnd(device: device.name, time: .distantFuture)
    }
    // Each account's database is judged alone, against what users meant for it and the devices signed in to it.
    let accounts = Set([rules.owner]).union(history.accounts).union(end.otherAccounts.keys).sorted()
    for account in accounts {
      let primary = account == rules.owner
      let judge = IntentJudge(
        history: history.only(account: account, primary: rules.owner),
        timeline: ServerTimeline(
          events: end.serverEvents, zoneID: rules.zoneID, owner: account, response: rules.zoneDeletion),
        deletePolicy: rules.deletePolicy, editCountKey: rules.editCountKey,
        stampsKey: rules.stampsKey, start: rules.start, contracts: rules.contracts)
      let shown = end.devices.filter { $0.account == account }.map { device in
        (
          name: device.name,
          records: Dictionary(device.records.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a })
        )
      }
      let records = primary ? end.serverRecords : end.otherAccounts[account] ?? []
      var judged = InvariantTally()
      judge.judge(
        server: Dictionary(records.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a }), devices: shown,
        invariants: rules.invariants, into: &judged)
      // A violation in another account's database says so.
      tally.merge(judged, label: primary ? nil : "in the database of \(account): ")
    }
  }

  /// The first record on which a device differs from the server, described.
  static func difference(device: EndState.Device, server: [Record]) -> String {
    let local = Dictionary(device.records.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a })
    let remote = Dictionary(server.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a })
    for id in Set(local.keys).union(remote.keys).sorted() where local[id] != remote[id] {
      let mine = local[id].map { "\($0)" } ?? "nothing"
      let theirs = remote[id].map { "\($0)" } ?? "nothing"
      return "\(device.name) differs from the server on \(id.recordName): device has \(mine); server has \(theirs)"
    }
    return "\(device.name) differs from the server"
  }
}
