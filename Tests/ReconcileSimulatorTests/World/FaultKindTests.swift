import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// Leaving fault kinds out of a run: typed, reported, and never injected.
@Suite("Faults you choose: a profile leaves fault kinds out and says so")
struct FaultKindTests {
  /// The fault kinds the steps of `seeds` runs under `faults` injected.
  static func injected(_ faults: FaultProfile, seeds: Range<UInt64>) -> Set<FaultKind> {
    var kinds = Set<FaultKind>()
    for seed in seeds {
      var simulation = Simulation(seed: seed, configuration: SimulationConfiguration(steps: 120, faults: faults))
      for step in simulation.run().steps {
        switch step {
        case .crash: kinds.insert(.crash)
        case .clockJump: kinds.insert(.clockJump)
        case .fault(.deleteZone): kinds.insert(.zoneDeletion)
        case .fault(.expireTokens): kinds.insert(.tokenExpiry)
        case .fault(.throttle): kinds.insert(.throttle)
        case .fault(.loseResponse): kinds.insert(.lostResponse)
        default: break
        }
      }
    }
    return kinds
  }

  @Test("a profile without zone deletion and token expiry never injects them; the whole profile does")
  func excludedKindsAreNeverInjected() {
    let whole = Self.injected(.hostile, seeds: 0..<20)
    #expect(whole.isSuperset(of: [.zoneDeletion, .tokenExpiry, .throttle, .lostResponse, .crash]))
    let narrowed = Self.injected(FaultProfile.hostile.without([.zoneDeletion, .tokenExpiry]), seeds: 0..<20)
    #expect(narrowed.isDisjoint(with: [.zoneDeletion, .tokenExpiry]))
    #expect(narrowed.isSuperset(of: [.throttle, .lostResponse, .crash]), "the other kinds are still drawn")
  }

  @Test("leaving nothing out draws exactly the runs of the whole profile")
  func nothingLeftOutChangesNothing() {
    var whole = Simulation(seed: 7, configuration: SimulationConfiguration(steps: 80, faults: .swarm))
    var same = Simulation(seed: 7, configuration: SimulationConfiguration(steps: 80, faults: .swarm.without([])))
    #expect(whole.run().trace == same.run().trace)
  }

  @Test("what a profile leaves out is in its description, the counterexample's script and the report's coverage")
  func leftOutIsReported() throws {
    var configuration = SimulationConfiguration(
      steps: 60, resolver: .fieldMerge, faults: FaultProfile.hostile.without([.zoneDeletion, .quotaFull]))
    configuration.defects = [.resaveDeleted]
    #expect("\(configuration.faults)" == "hostile without quota-full, zone-deletion")
    let report = PropertyRunner(configuration: configuration, seeds: 0..<100).run()
    let failure = try #require(report.failures.first)
    #expect(failure.script.contains("# faults hostile without quota-full, zone-deletion\n"))
    #expect(report.coverage.contains("faults left out: quota-full, zone-deletion"))
  }

  /// One fault of every case, each on a device where it takes one.
  static let everyFault: [SimulationFault] = [
    .loseRequest(device: "phone"), .loseResponse(device: "phone"), .duplicate(device: "phone"),
    .delay(device: "phone", seconds: 3), .transient(device: "phone", error: "zoneBusy", retryAfter: 2),
    .itemTransient(device: "phone", error: "zoneBusy", retryAfter: 2), .throttle(seconds: 5), .expireTokens,
    .expireDatabaseTokens, .quotaFull(seconds: 5), .deleteZone, .purgeZone, .resetEncryptedData,
    .corruptStorage(device: "phone", record: "n1"), .tornCrash(device: "phone"),
    .serverError(code: .zoneBusy, count: 1, device: nil, retryAfter: 1), .disconnectAfterSave(device: "phone"),
  ]

  @Test("a fault kind breaks the part its faults break", arguments: everyFault)
  func kindAndFaultAgreeOnThePart(fault: SimulationFault) throws {
    let kind = try #require(FaultKind(of: .fault(fault)))
    #expect(kind.part == fault.part, "\(fault) is a \(kind)")
  }

  @Test("the one exception: a transient networkFailure is the network's, drawn among the server's transient errors")
  func transientNetworkFailureIsTheNetworks() throws {
    let fault = SimulationFault.transient(device: "phone", error: "networkFailure", retryAfter: 2)
    #expect(fault.part == .network)
    #expect(try #require(FaultKind(of: .fault(fault))) == .transientError)
    #expect(FaultKind.transientError.part == .server)
  }

  @Test("the device steps a profile draws are the host's faults")
  func deviceStepsAreHostFaults() throws {
    let steps: [SimulationStep] = [
      .crash(device: "phone"), .offline(device: "phone"), .clockJump(device: "phone", seconds: 60),
      .quit(device: "phone"), .account(device: "phone", user: nil),
    ]
    for step in steps { #expect(try #require(FaultKind(of: step)).part == .host, "\(step)") }
  }
}
