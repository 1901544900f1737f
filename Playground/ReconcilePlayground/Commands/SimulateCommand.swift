import Foundation
import Reconcile
import ReconcileSimulator

/// `simulate --seed N --devices N --steps N --resolver NAME --faults none|flaky|hostile|swarm [--delete-policy P]
/// [--schemas S] [--client reference|sync-engine] [--clock-skew N] [--defect NAME] [--trace] [--json]`: one seeded run
/// of the simulator, its invariants, diagnostics and counts. The same arguments print the same output.
enum SimulateCommand {
  static func usage(_ environment: PlaygroundEnvironment) -> String {
    CommandHelp.usage(of: "simulate", as: environment.commandName)
  }

  static func run(arguments: [String], output: some TextOutput, environment: PlaygroundEnvironment) -> Int32 {
    let configuration: SimulationConfiguration
    let seed: UInt64
    let options: CommandLineOptions
    do {
      options = try CommandHelp.parse(arguments, as: "simulate")
      if let word = options.positional.first { throw CommandLineOptions.Problem(description: "unexpected \(word)") }
      let seedText = options.values["--seed"] ?? "1"
      guard let parsed = UInt64(seedText) else {
        throw CommandLineOptions.Problem(description: "--seed \(seedText): expected a non-negative integer")
      }
      seed = parsed
      configuration = try SimulationOptions.configuration(options, environment: environment)
    } catch {
      output.writeError("error: \(error)\n" + usage(environment))
      return ExitStatus.usage
    }
    var simulation = Simulation(seed: seed, configuration: configuration)
    let result = simulation.run()
    let report = SimulationReport(
      simulation: simulation, result: result, includeTrace: options.flags.contains("--trace"))
    guard report.write(to: output, json: options.flags.contains("--json")) else { return 1 }
    if !result.passed && !options.flags.contains("--json") {
      output.write(
        "\nreplay it: save this script as failure.rcp and run `\(environment.commandName) replay failure.rcp`\n")
      output.write(result.script)
    }
    return result.passed ? 0 : 1
  }
}

/// The playground's names for resolvers, policies, fault profiles and schema scenarios, with errors that list the
/// choices and suggest the nearest.
enum PlaygroundNames {
  /// A built-in resolver, or one of `registered`.
  static func resolver(_ name: String, registered: [ResolverUnderTest] = []) throws(CommandLineOptions.Problem)
    -> ResolverUnderTest
  {
    let choices =
      registered.map { ($0.name, $0) } + ResolverChoice.allCases.map { ($0.rawValue, ResolverUnderTest($0)) }
    return try pick(name, choices, what: "resolver")
  }

  /// A built-in resolver choice, for `run --resolver`, which takes only those.
  static func builtInResolver(_ name: String) throws(CommandLineOptions.Problem) -> ResolverChoice {
    try pick(name, ResolverChoice.allCases.map { ($0.rawValue, $0) }, what: "resolver")
  }

  /// The script language's reading, so options and scripts accept the same names.
  static func deletePolicy(_ name: String) throws(CommandLineOptions.Problem) -> DeletePolicy {
    do {
      return try ScriptParser.deletePolicy(name)
    } catch {
      throw CommandLineOptions.Problem(description: error.message)
    }
  }

  static func faults(_ name: String) throws(CommandLineOptions.Problem) -> FaultProfile {
    try pick(name, FaultProfile.presets.map { ($0.name, $0) }, what: "fault profile")
  }

  /// Fault kinds by name, comma-separated (`zone-deletion,token-expiry`); a part's name (`network`, `host`,
  /// `server`) stands for every kind of that part.
  static func faultKinds(_ list: String) throws(CommandLineOptions.Problem) -> Set<FaultKind> {
    var kinds = Set<FaultKind>()
    let choices =
      FaultKind.allCases.map { ($0.rawValue, [$0]) }
      + SimulationFault.Part.allCases.map { part in (part.rawValue, FaultKind.allCases.filter { $0.part == part }) }
    for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
      kinds.formUnion(try pick(name, choices, what: "fault kind"))
    }
    return kinds
  }

  /// A built-in sync client, or one of `registered`.

  static func client(_ name: String, registered: [ClientUnderTest] = []) throws(CommandLineOptions.Problem)
    -> ClientUnderTest
  {
    try pick(name, (registered + ClientUnderTest.builtIns).map { ($0.name, $0) }, what: "client")
  }

  static func defect(_ name: String) throws(CommandLineOptions.Problem) -> ClientDefect {
    try pick(name, ClientDefect.allCases.map { ($0.rawValue, $0) }, what: "defect")
  }

  static func schemas(_ name: String) throws(CommandLineOptions.Problem) -> SchemaScenario {
    try pick(name, SchemaScenario.allCases.map { ($0.rawValue, $0) }, what: "schema scenario")
  }

  private static func pick<Value>(_ name: String, _ choices: [(String, Value)], what: String)
    throws(CommandLineOptions.Problem) -> Value
  {
    if let match = choices.first(where: { $0.0 == name }) { return match.1 }
    var message = "unknown \(what) '\(name)'; use one of \(choices.map(\.0).joined(separator: ", "))"
    if let guess = Suggestion.closest(to: name, in: choices.map(\.0)) { message += " (did you mean '\(guess)'?)" }
    throw CommandLineOptions.Problem(description: message)
  }
}
