import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// `account-change ask`: the sync core (`AccountChangePolicy.ask`) pauses on an account change and keeps everything
/// until the user answers. Whichever answer the user gives, the judge holds it to losing nothing the user kept and
/// carrying nothing across accounts the user did not carry.
@Suite("Account question: the app asks the user what to do with the records on an account change")
struct AccountQuestionTests {
  static func script(answer: String) -> String {
    """
    client sync-engine
    resolver field-merge
    account-change ask
    device add phone
    device add mac
    phone create Note/n1 title="milk"
    quiesce
    phone sign-in _other
    wait phone
    expect phone status = halted
    expect phone records = 1
    phone edit Note/n1 body="written while asked"
    phone answer-account \(answer)
    wait phone
    """
  }

  @Test(
    "the question pauses syncing with every record kept; the answer keeps them for the new account or deletes them",
    arguments: [("keep", 1), ("delete", 0)])
  func answered(_ answer: String, _ records: Int) throws {
    var session = SimulationSession()
    var trace: [String] = []
    do {
      for line in Self.script(answer: answer).split(separator: "\n") {
        trace.append(try session.interpret(String(line)).text)
      }
      for line in ["expect phone records = \(records)", "quiesce", "expect invariants"] {
        trace.append(try session.interpret(line).text)
      }
    } catch {
      Issue.record("\(answer): \(error.message)\n\(trace.joined(separator: "\n"))")
    }
  }

  @Test("a question nobody answers ends the run answered delete, with every invariant held")
  func unansweredEndsDeleted() throws {
    let script = """
      client sync-engine
      resolver field-merge
      account-change ask
      device add phone
      phone create Note/n1 title="milk"
      phone sync
      phone sign-in _other
      phone edit Note/n1 title="oat milk"
      quiesce
      expect invariants
      """
    let result = try Simulation.replay(script)
    #expect(result.passed, "\(result.violations)")
    #expect(result.trace.contains { $0.contains("the account question answered delete") }, "\(result.trace)")
  }

  @Test(
    "a client whose apps cannot ask (the reference client, Apple's sample) refuses a run whose apps ask; the sync engine runs it",
    arguments: [("reference", false), ("sync-engine-sample", false), ("sync-engine", true)])
  func clientsThatCannotAskRefuseAsk(client: String, runs: Bool) throws {
    let script = """
      client \(client)
      resolver server-lww
      account-change ask
      device add phone
      phone create Note/n1 title="milk"
      """
    if runs {
      #expect(try Simulation.replay(script).passed)
      return
    }
    #expect {
      _ = try Simulation.replay(script)
    } throws: { error in
      "\(error)".contains("client \(client) never asks") && "\(error)".contains("sync-engine")
    }
  }

  /// An app that answers its own question: it keeps the records for the new account without asking anyone.
  struct SelfAnswering: ExampleSyncDelegateWrapper {
    var inner: ExampleSyncDelegate
    init(setup: ClientSetup) throws { inner = ExampleSyncDelegate(setup: setup) }
    mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
      inner.handleEvent(event, syncEngine: &syncEngine)
      if case .accountChange = event { _ = inner.answerAccountQuestion(keepingData: true, syncEngine: &syncEngine) }
    }
  }

  @Test("an app that keeps the records for the new account without asking the user is caught carrying them across")
  func keepingWithoutAskingIsCaught() throws {
    let script = """
      client self-answering
      resolver field-merge
      account-change ask
      device add phone
      phone create Note/n1 title="milk"
      quiesce
      phone sign-in _other
      quiesce
      expect invariants
      """
    let client = ClientUnderTest(name: "self-answering") { try SimulatedSyncEngine<SelfAnswering>(setup: $0) }
    try Self.expectCaught(script, client: client, by: .accountsKeptApart)
  }

  /// `script` names `client`: run so, it breaks `invariant`; run with `sync-engine` instead, it keeps every invariant.
  static func expectCaught(_ script: String, client: ClientUnderTest, by invariant: Invariant) throws {
    let broken = try Simulation.replay(script, clients: [client])
    #expect(broken.violations.contains { $0.invariant == invariant }, "\(broken.violations)")
    let healthy = try Simulation.replay(
      script.replacingOccurrences(of: "client \(client.name)", with: "client sync-engine"))
    #expect(healthy.passed, "\(healthy.violations)")
  }

  /// An app that hears "keep" but deletes: the records the user kept never reach the account signed in to.
  struct KeepDeletes: ExampleSyncDelegateWrapper {
    var inner: ExampleSyncDelegate
    init(setup: ClientSetup) throws { inner = ExampleSyncDelegate(setup: setup) }
    mutating func answerAccountQuestion(keepingData: Bool, syncEngine: inout SyncEngine.State) -> Bool {
      inner.answerAccountQuestion(keepingData: false, syncEngine: &syncEngine)
    }
  }

  @Test("an app that deletes what the user said to keep is caught losing it")
  func keepAnsweredByDeletingIsCaught() throws {
    let client = ClientUnderTest(name: "keep-deletes") { try SimulatedSyncEngine<KeepDeletes>(setup: $0) }
    let script = """
      client keep-deletes
      resolver field-merge
      account-change ask
      device add phone
      phone create Note/n1 title="milk"
      quiesce
      phone sign-in _other
      phone answer-account keep
      quiesce
      expect invariants
      """
    try Self.expectCaught(script, client: client, by: .noLostRecords)
  }

  /// `ask` (with the sync core, the built-in client that asks) and `keep` (with both built-in clients) under either
  /// fault profile that changes accounts and either delete policy; the default, delete, is what every other sweep runs.
  static let cells: [(AccountChangePolicy, ClientUnderTest, FaultProfile, DeletePolicy)] = [
    (AccountChangePolicy.ask, ClientUnderTest.syncEngine), (.keepForSameAccount, .syncEngine),
    (.keepForSameAccount, .reference),
  ].flatMap { response, client in
    [FaultProfile.hostile, .swarm].flatMap { faults in
      [DeletePolicy.deleteWins, .editWins].map { (response, client, faults, $0) }
    }
  }

  @Test(
    "under account changes and faults, asking or keeping for the same account, the clients keep every invariant",
    arguments: cells)
  func askUnderFaults(
    _ response: AccountChangePolicy, _ client: ClientUnderTest, _ faults: FaultProfile, _ policy: DeletePolicy
  ) {
    let budget = SweepBudget(unit: (20, 60), quick: (300, 60), full: (1_000, 60))
    // Account changes in every run: drawn among hostile's other faults, or swarm's.
    var configuration = SimulationConfiguration(
      steps: budget.steps, resolver: .fieldMerge, deletePolicy: policy, faults: faults)
    configuration.client = client
    configuration.accountChange = response
    configuration.faults.accountChanges = true
    let report = PropertyRunner(
      configuration: configuration, seeds: budget.seeds, maximumFailures: SweepDepth.current == .unit ? 1 : nil
    ).run()
    budget.report(
      "account change \(response) \(client) \(policy) \(faults.name)", failures: report.failures.count,
      detail: report.failures.compactMap(\.seed).prefix(10).map(String.init).joined(separator: " "))
    #expect(report.passed)
    #expect((report.runsReaching["accountChange"] ?? 0) > 0, "no device changed accounts: the sweep proves nothing")
  }
}
