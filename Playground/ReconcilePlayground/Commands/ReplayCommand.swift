import Foundation
import Reconcile
import ReconcileSimulator

/// `replay FILE [--json]`: runs a replay script the property runner wrote (see `SimulationScript`) and prints its
/// trace, invariants and diagnostics. Exits 1 when the script says `expect invariants` and one is broken.
enum ReplayCommand {
  static func usage(_ environment: PlaygroundEnvironment) -> String {
    CommandHelp.usage(of: "replay", as: environment.commandName)
  }

  static func run(arguments: [String], output: some TextOutput, environment: PlaygroundEnvironment) -> Int32 {
    let options: CommandLineOptions
    do {
      options = try CommandHelp.parse(arguments, as: "replay")
    } catch {
      output.writeError("error: \(error)\n" + usage(environment))
      return ExitStatus.usage
    }
    guard options.positional.count == 1, let path = options.positional.first else {
      output.writeError("error: replay takes one file\n" + usage(environment))
      return ExitStatus.usage
    }
    let text: String
    do {
      guard let decoded = String(data: try environment.readFile(path), encoding: .utf8) else {
        output.writeError("error: \(path) is not UTF-8 text\n")
        return 1
      }
      text = decoded
    } catch {
      output.writeError("error: cannot read \(path): \(error.localizedDescription)\n")
      return 1
    }
    let parsed: SimulationScript.Parsed
    do {
      parsed = try SimulationScript.parse(text, resolvers: environment.resolvers, clients: environment.clients)
    } catch {
      output.writeError("error: \(path): \(error)\n")
      return 1
    }
    var simulation = Simulation(script: parsed)
    let result = simulation.run(quiescing: parsed.quiesces)
    let report = SimulationReport(simulation: simulation, result: result, includeTrace: true)
    guard report.write(to: output, json: options.flags.contains("--json")) else { return 1 }
    return parsed.expectsInvariants && !result.passed ? 1 : 0
  }
}
