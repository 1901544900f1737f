import Foundation
import Reconcile
import ReconcileSimulator

/// The options `simulate` and `explore` share: what world every seed runs in.
enum SimulationOptions {
  /// The configuration the options describe, with the defaults `--help` lists.
  /// - Parameters:
  ///   - options: The parsed command line.
  ///   - environment: Where the user's own clients and resolvers are registered.
  /// - Returns: The configuration.
  /// - Throws: ``CommandLineOptions/Problem`` naming a bad value.
  static func configuration(
    _ options: CommandLineOptions, environment: PlaygroundEnvironment
  ) throws(CommandLineOptions.Problem) -> SimulationConfiguration {
    var configuration = SimulationConfiguration(
      deviceCount: try options.integer("--devices", default: 3, in: 1...26),
      steps: try options.integer("--steps", default: 200, in: 0...1_000_000),
      resolver: try PlaygroundNames.resolver(
        options.values["--resolver"] ?? "field-merge", registered: environment.resolvers),
      deletePolicy: try PlaygroundNames.deletePolicy(options.values["--delete-policy"] ?? "deleteWins"),
      faults: try PlaygroundNames.faults(options.values["--faults"] ?? "flaky")
        .without(try PlaygroundNames.faultKinds(options.values["--without"] ?? "")),
      schemas: try PlaygroundNames.schemas(options.values["--schemas"] ?? "none"))
    configuration.client = try PlaygroundNames.client(
      options.values["--client"] ?? "reference", registered: environment.clients)
    if let refusal = configuration.client.refusal(ofResolver: configuration.resolver.name) {
      throw CommandLineOptions.Problem(description: refusal)
    }
    configuration.maximumClockSkew = try options.integer("--clock-skew", default: 120, in: 0...86_400)
    if let defect = options.values["--defect"] { configuration.defects = [try PlaygroundNames.defect(defect)] }
    if let text = options.values["--account-change"] {
      guard let response = AccountChangePolicy(rawValue: text) else {
        throw CommandLineOptions.Problem(description: "--account-change \(text): expected delete, keep or ask")
      }
      if let refusal = configuration.client.refusal(ofAccountChange: response) {
        throw CommandLineOptions.Problem(description: refusal)
      }
      configuration.accountChange = response
    }
    return configuration
  }

  /// The options that repeat `configuration`, every one spelt out, in a fixed order: what an exploration report
  /// records, so reports merge only when their worlds are the same.
  static func arguments(for configuration: SimulationConfiguration) -> String {
    var words = [
      "--devices \(configuration.deviceCount)", "--steps \(configuration.steps)",
      "--resolver \(configuration.resolver.name)", "--faults \(configuration.faults.name)",
      "--delete-policy \(configuration.deletePolicy)", "--schemas \(configuration.schemas.rawValue)",
      "--client \(configuration.client.name)", "--clock-skew \(configuration.maximumClockSkew)",
    ]
    if !configuration.faults.excluded.isEmpty {
      words.append("--without " + configuration.faults.excluded.map(\.rawValue).sorted().joined(separator: ","))
    }
    words += configuration.defects.map(\.rawValue).sorted().map { "--defect \($0)" }
    if configuration.accountChange != .deleteLocalData {
      words.append("--account-change \(configuration.accountChange.rawValue)")
    }
    return words.joined(separator: " ")
  }
}
