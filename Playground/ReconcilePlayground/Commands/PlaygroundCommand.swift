import Foundation
internal import Reconcile
public import ReconcileSimulator

/// The `reconcile-playground` command line, as a library so tests can run it with injected output.
public enum PlaygroundCommand {
  /// The version this build reports.
  public static let version = "reconcile-playground \(ReconcileRelease.version) (Reconcile \(ReconcileRelease.version))"

  /// The subcommands this release offers, with a one-line description each.
  static var subcommands: [(name: String, summary: String)] { CommandHelp.all.map { ($0.name, $0.summary) } }

  /// Runs the command line with your own sync clients and resolvers, and exits with its status: the whole
  /// `main.swift` of your own `reconcile-playground`. `replay`, `run`, `simulate` and `explore` (with `--shard`,
  /// `--out`, `--json` and `merge`) then accept `--client NAME`, `--resolver NAME` and script lines naming yours.
  ///
  /// ```swift
  /// import ReconcilePlayground
  ///
  /// PlaygroundCommand.main(clients: [.notesApp], resolvers: [.notesMerge])
  /// ```
  /// - Parameters:
  ///   - clients: Your sync clients (``ClientUnderTest``); the built-in ones are always known.
  ///   - resolvers: Your resolvers (``ResolverUnderTest``); the built-in ones are always known.
  public static func main(clients: [ClientUnderTest] = [], resolvers: [ResolverUnderTest] = []) -> Never {
    var environment = PlaygroundEnvironment.process
    environment.clients = clients
    environment.resolvers = resolvers
    if let program = CommandLine.arguments.first {
      environment.commandName = URL(fileURLWithPath: program).lastPathComponent
    }
    exit(run(arguments: Array(CommandLine.arguments.dropFirst()), output: StandardOutput(), environment: environment))
  }

  /// Runs the playground.
  /// - Parameters:
  ///   - arguments: The command-line arguments without the program name.
  ///   - output: Where to write.
  ///   - environment: Files, input, terminal and colour; a quiet, non-interactive one unless given.
  /// - Returns: The process exit status: ``ExitStatus/ok``, ``ExitStatus/failed`` when a check fails, or
  ///   ``ExitStatus/usage`` for a usage error.
  package static func run(
    arguments: [String], output: some TextOutput, environment: PlaygroundEnvironment = PlaygroundEnvironment()
  ) -> Int32 {
    let readFile = environment.readFile
    guard let command = arguments.first else {
      if environment.isInteractive { return ReplCommand.run(arguments: [], output: output, environment: environment) }
      output.write(usage(environment))
      return 0
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h"), let help = CommandHelp.named(command) {
      output.write(help.text(as: environment.commandName))
      return ExitStatus.ok
    }
    switch command {
    case "--version", "version":
      output.write(version + "\n")
      return ExitStatus.ok
    case "demo":
      return DemoCommand.run(arguments: Array(arguments.dropFirst()), output: output, environment: environment)
    case "repl":
      return ReplCommand.run(arguments: Array(arguments.dropFirst()), output: output, environment: environment)
    case "run":
      return RunCommand.run(arguments: Array(arguments.dropFirst()), output: output, environment: environment)
    case "simulate":
      return SimulateCommand.run(arguments: Array(arguments.dropFirst()), output: output, environment: environment)
    case "explore":
      return ExploreCommand.run(arguments: rest, output: output, environment: environment)
    case "replay":
      return ReplayCommand.run(arguments: Array(arguments.dropFirst()), output: output, environment: environment)
    case "inspect":
      return InspectCommand.run(
        arguments: Array(arguments.dropFirst()), output: output, readFile: readFile, command: environment.commandName)
    case "help", "--help", "-h":
      if let name = rest.first {
        guard let help = CommandHelp.named(name) else {
          output.writeError("error: no subcommand '\(name)'\n" + usage(environment))
          return ExitStatus.usage
        }
        output.write(help.text(as: environment.commandName))
      } else {
        output.write(usage(environment))
      }
      return ExitStatus.ok
    default:
      var message = "error: unknown subcommand '\(command)'"
      if let suggestion = Suggestion.closest(to: command, in: subcommands.map(\.name)) {
        message += "; did you mean '\(suggestion)'?"
      }
      output.writeError(message + "\n" + usage(environment))
      return ExitStatus.usage
    }
  }

  static func usage(_ environment: PlaygroundEnvironment) -> String {
    let width = subcommands.map(\.name.count).max() ?? 0
    let lines = subcommands.map {
      "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary
    }
    return "usage: \(environment.commandName) <subcommand> [arguments]   (--help after any subcommand describes it)\n\n"
      + "subcommands:\n" + lines.joined(separator: "\n") + "\n\n--version prints the version.\n"
      + CommandHelp.exitStatuses + "\n"
  }
}
