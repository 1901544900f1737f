public import Foundation

/// The `reconcile-playground` command line, as a library so tests can run it with injected output.
public enum PlaygroundCommand {
  /// The subcommands this release offers, with a one-line description each.
  static let subcommands: [(name: String, summary: String)] = [
    ("demo", "replay the seed scenarios (arrives in the next release; says so for now)"),
    ("simulate", "one seeded random run of the simulator: invariants, diagnostics, statistics"),
    ("replay", "run a replay script the property runner wrote (FILE.rcp)"),
    ("inspect", "print the record in a system-fields archive (Reconcile's or Apple's) or a JSON record"),
    ("help", "list the subcommands"),
  ]

  /// Runs the playground.
  /// - Parameters:
  ///   - arguments: The command-line arguments without the program name.
  ///   - output: Where to write.
  ///   - readFile: Reads a file by path; the real file system unless a test injects another.
  /// - Returns: The process exit status: 0 on success, 1 when a command fails, 64 for a usage error.
  public static func run(
    arguments: [String], output: some TextOutput,
    readFile: (String) throws -> Data = { try Data(contentsOf: URL(fileURLWithPath: $0)) }
  ) -> Int32 {
    guard let command = arguments.first else {
      output.write(usage)
      return 0
    }
    switch command {
    case "demo":
      output.write(
        """
        Reconcile playground
        The demo replays the seed scenarios (queued edits, concurrent edits, clock skew, delete versus edit,
        schema halts, batching, throttling) on the simulated server under every resolver; it arrives in the
        next release. Until then, `simulate` runs the simulator on a seed and `replay FILE` runs a script the
        property runner wrote.

        """)
      return 0
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
