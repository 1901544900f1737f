import Foundation
import Reconcile
import ReconcileSimulator

/// `demo [--json] [--scenario N] [--script N]`: runs the seed scenarios on the simulated server under every built-in
/// resolver and prints, per scenario, a table of who won, what each device holds, what was lost and whether the
/// devices converged, with a line saying why.
enum DemoCommand {
  static func usage(_ environment: PlaygroundEnvironment) -> String {
    CommandHelp.usage(of: "demo", as: environment.commandName)
  }

  /// One scenario's results, for `--json`.
  struct Table: Encodable {
    var title: String
    /// What happens in the scenario, from its script's comment.
    var summary: String
    /// Why each resolver's row came out as it did: the decisions its run's trace reports.
    var why: [String]
    var script: String
    var rows: [DemoScenario.Row]
  }

  static func run(arguments: [String], output: some TextOutput, environment: PlaygroundEnvironment) -> Int32 {
    let scenarios: [DemoScenario]
    let options: CommandLineOptions
    let count = DemoScenario.all.count
    do {
      options = try CommandHelp.parse(arguments, as: "demo")
      if let word = options.positional.first { throw CommandLineOptions.Problem(description: "unexpected \(word)") }
      if options.values["--script"] != nil {
        let number = try options.integer("--script", default: 1, in: 1...count)
        output.write(DemoScenario.all[number - 1].script)
        return 0
      }
      let number = try options.integer("--scenario", default: 0, in: 0...count)
      scenarios = number == 0 ? DemoScenario.all : [DemoScenario.all[number - 1]]
    } catch {
      output.writeError("error: \(error)\n" + usage(environment))
      return ExitStatus.usage
    }
    let style = Style(enabled: environment.usesColour)
    var tables: [Table] = []
    for scenario in scenarios {
      var rows: [DemoScenario.Row] = []
      for resolver in scenario.resolvers {
        for policy in scenario.policies {
          do {
            rows.append(try scenario.run(resolver, policy))
          } catch {
            output.writeError(style.red("error: \(error.message)") + "\n")
            return 1
          }
        }
      }
      let why = rows.flatMap { row in
        let name = row.resolver + (scenario.policies.count > 1 ? ", \(row.deletePolicy)" : "")
        return row.decisions.map { "\(name) — \($0)" }
      }
      tables.append(
        Table(title: scenario.title, summary: scenario.summary, why: why, script: scenario.file, rows: rows))
    }
    if options.flags.contains("--json") {
      do {
        output.write(try JSONText.render(tables))
        return 0
      } catch {
        output.writeError("error: could not write JSON: \(error)\n")
        return 1
      }
    }
    output.write(
      style.bold("Reconcile demo") + ": the seed scenarios on the simulated server, once per resolver.\n"
        + "Scripts: Playground/Scenarios/ (run one with `reconcile-playground run FILE`).\n")
    for (scenario, table) in zip(scenarios, tables) {
      output.write("\n" + style.bold(table.title) + "\n")
      let headers =
        ["resolver"] + (scenario.policies.count > 1 ? ["delete policy"] : []) + scenario.columns.map(\.header)
      let rows = table.rows.map { row in
        [row.resolver] + (scenario.policies.count > 1 ? [row.deletePolicy] : [])
          + scenario.columns.map { row.cells[$0.header] ?? "" }
      }
      output.write(TextTable.render([headers] + rows))
      output.write(TextTable.wrap(table.summary, indent: 0))
      if table.why.isEmpty {
        output.write("why: no run merged or settled a deletion: the table is the whole story\n")
      } else {
        output.write("why, from each run's trace:\n")
        for line in table.why { output.write(TextTable.wrap("  " + line, indent: 4)) }
      }
    }
    return 0
  }
}
