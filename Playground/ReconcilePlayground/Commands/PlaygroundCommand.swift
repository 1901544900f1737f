import Foundation

/// The `reconcile-playground` command line, as a library so tests can run it with injected output.
public enum PlaygroundCommand {
  /// The subcommands this release offers, with a one-line description each.
  static let subcommands: [(name: String, summary: String)] = [
    ("demo", "the seed scenarios under every resolver: who won, what was lost, and why"),
    ("repl", "type commands one at a time (the default on a terminal; `help` lists them)"),
    ("run", "run a script of commands (FILE.rcp); stops at the first failed expect"),
    ("simulate", "one seeded random run of the simulator: invariants, diagnostics, statistics"),
    ("replay", "run a replay script the property runner wrote (FILE.rcp)"),
    ("inspect", "print what a CloudKit archive (record, share, token, ID) or Web Services JSON body holds"),
    ("help", "list the subcommands"),
  ]

  /// Runs the playground.
  /// - Parameters:
  ///   - arguments: The command-line arguments without the program name.
  ///   - output: Where to write.
  ///   - environment: Files, input, terminal and colour; a quiet, non-interactive one unless given.
  /// - Returns: The process exit status: 0 on success, 1 when a command fails, 64 for a usage error.
  public static func run(
    arguments: [String], output: some TextOutput, environment: PlaygroundEnvironment = PlaygroundEnvironment()
  ) -> Int32 {
    let readFile = environment.readFile
    guard let command = arguments.first else {
      if environment.isInteractive { return ReplCommand.run(arguments: [], output: output, environment: environment) }
      output.write(usage)
      return 0
    }
    switch command {
    case "demo":
      return DemoCommand.run(arguments: Array(arguments.dropFirst()), output: output, environment: environment)
    case "repl":
      return ReplCommand.run(arguments: Array(arguments.dropFirst()), output: output, environment: environment)
    case "run":
      return RunCommand.run(arguments: Array(arguments.dropFirst()), output: output, environment: environment)
    case "simulate":
      return SimulateCommand.run(arguments: Array(arguments.dropFirst()), output: output)
    case "replay":
      return ReplayCommand.run(arguments: Array(arguments.dropFirst()), output: output, readFile: readFile)
    case "inspect":
      return InspectCommand.run(arguments: Array(arguments.dropFirst()), output: output, readFile: readFile)
    case "help", "--help", "-h":
      output.write(usage)
      return 0
    default:
      var message = "error: unknown subcommand '\(command)'"
      if let suggestion = Suggestion.closest(to: command, in: subcommands.map(\.name)) {
        message += "; did you mean '\(suggestion)'?"
      }
      output.write(message + "\n" + usage)
      return 64
    }
  }

  static var usage: String {
    let width = subcommands.map(\.name.count).max() ?? 0
    let lines = subcommands.map {
      "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary
    }
    return "usage: reconcile-playground <subcommand> [arguments]\n\nsubcommands:\n" + lines.joined(separator: "\n")
      + "\n"
  }
}
