import ReconcileSimulator

/// What `--help` prints for each subcommand: a summary, the usage line and every option.
struct CommandHelp: Sendable {
  /// The subcommand.
  var name: String
  /// One line on what it does.
  var summary: String
  /// The arguments, after the command's name and `NAME`.
  var arguments: String
  /// Each option and what it does.
  var options: [(option: String, meaning: String)] = []

  /// `usage: COMMAND NAME ARGUMENTS`, under the name the executable was run as (an app's own command line has its own).
  func usage(as command: String) -> String {
    "usage: \(command) \(name)\(arguments.isEmpty ? "" : " " + arguments)\n"
  }

  /// The summary, usage, options and exit statuses, under the executable's name.
  func text(as command: String) -> String {
    var lines = ["\(command) \(name): \(summary)", "", usage(as: command).trimmingCharacters(in: .newlines)]
    if !options.isEmpty {
      let width = options.map(\.option.count).max() ?? 0
      lines += ["", "options:"]
      lines += options.map { "  " + $0.option.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.meaning }
    }
    lines += ["", Self.exitStatuses]
    return lines.joined(separator: "\n") + "\n"
  }

  static let exitStatuses = "exit status: 0 ok, 1 a check failed, 2 usage error (errors go to standard error)"

  static let simulationOptions: [(option: String, meaning: String)] = [
    ("--devices N", "devices, 1 to 26 (3)"),
    ("--steps N", "random steps per run (200)"),
    ("--resolver NAME", "server-lww, local-clock, edit-count, field-merge, hlc or one registered (field-merge)"),
    ("--faults PROFILE", "none, flaky, hostile or swarm (flaky)"),
    (
      "--without K,K",
      "fault kinds never to inject, or a part's every kind: "
        + SimulationFault.Part.allCases.map { part in
          part.rawValue + " (" + FaultKind.allCases.filter { $0.part == part }.map(\.rawValue).joined(separator: ", ")
            + ")"
        }.joined(separator: "; ")
    ),
    ("--delete-policy P", "deleteWins or editWins (deleteWins)"),
    ("--schemas S", "none, minor or major: app versions on the devices (none)"),
    ("--client NAME", "reference, sync-engine, sync-engine-sample or one your command line registers (reference)"),
    ("--clock-skew SECONDS", "the largest device clock offset (120)"),
    ("--defect NAME", "a classic sync bug every device makes (see the zoo in the docs)"),
    ("--account-change P", "delete, keep or ask: what the app does with its records on an account change (delete)"),
  ]

  static let all: [CommandHelp] = [
    CommandHelp(
      name: "demo", summary: "the seed scenarios under every resolver: who won, what was lost, and why",
      arguments: "[--scenario N] [--script N] [--json]",
      options: [
        ("--scenario N", "one scenario only"), ("--script N", "print scenario N's script and stop"),
        ("--json", "the tables as JSON"),
      ]),
    CommandHelp(
      name: "repl", summary: "type commands one at a time (the default on a terminal; `help` lists them)",
      arguments: ""),
    CommandHelp(
      name: "run", summary: "run a script of commands (FILE.rcp); stops at the first failed expect",
      arguments: "FILE.rcp [--resolver NAME] [--delete-policy deleteWins|editWins] [--quiet]",
      options: [
        ("--resolver NAME", "the resolver to start with (field-merge)"),
        ("--delete-policy P", "the delete policy to start with (deleteWins)"),
        ("--quiet", "print only failures"),
      ]),
    CommandHelp(
      name: "simulate", summary: "one seeded random run of the simulator: invariants, diagnostics, statistics",
      arguments: "[--seed N] [simulation options] [--trace] [--json]",
      options: [("--seed N", "the seed (1)")] + simulationOptions + [
        ("--trace", "print every step and server change"), ("--json", "the report as JSON"),
      ]),
    CommandHelp(
      name: "explore",
      summary: "run many seeds, shrink each failure to a script `replay` and `run` accept, report coverage",
      arguments: "[--seeds A..B] [--shard I/N] [simulation options] [--until-failures N] [--time-limit 10m] "
        + "[--out DIR] [--json FILE] [--jobs N] [--quiet] | explore merge A.json B.json … [--json FILE] [--partial]",
      options: [
        ("--seeds A..B", "the seeds, A included, B excluded; N alone means 0..N (0..1000)"),
        ("--shard I/N", "run only the seeds whose remainder modulo N is I, for one job of a CI matrix"),
      ] + simulationOptions + [
        ("--until-failures N", "stop after N failures, each shrunk (1; 0 runs every seed)"),
        ("--time-limit T", "stop starting seeds after T (30s, 10m, 2h); the report says how far it got"),
        ("--out DIR", "where counterexample scripts go (.): one FILE.rcp per failure"),
        ("--json FILE", "also write the report as JSON, for `explore merge`"),
        ("--jobs N", "seeds run at once (every core)"),
        ("--quiet", "no progress line"),
        ("merge … --partial", "accept reports that miss some shards (otherwise merge exits 1)"),
      ]),
    CommandHelp(
      name: "replay", summary: "run a replay script the property runner wrote (FILE.rcp)",
      arguments: "FILE.rcp [--json]",
      options: [("--json", "the report as JSON")]),
    CommandHelp(
      name: "inspect",
      summary: "print what a CloudKit archive (record, share, token, ID) or Web Services JSON body holds",
      arguments: "FILE [--json]", options: [("--json", "the canonical body as JSON")]),
    CommandHelp(name: "help", summary: "list the subcommands, or describe one", arguments: "[SUBCOMMAND]"),
  ]

  /// The usage line of subcommand `name`.
  static func usage(of name: String, as command: String) -> String {
    named(name)?.usage(as: command) ?? "usage: \(command) \(name)\n"
  }

  /// The help of `name`, if it is a subcommand.
  static func named(_ name: String) -> CommandHelp? { all.first { $0.name == name } }

  /// Parses `arguments` with exactly the options subcommand `name`'s help lists — an option followed by a word
  /// (`--seeds A..B`) takes a value, one alone is a switch — so a command cannot take an option `--help` does not show.
  static func parse(_ arguments: [String], as name: String) throws(CommandLineOptions.Problem) -> CommandLineOptions {
    var valued: Set<String> = []
    var switches: Set<String> = []
    for entry in named(name)?.options ?? [] {
      let words = entry.option.split(separator: " ")
      guard let first = words.first, first.hasPrefix("--") else { continue }
      if words.count > 1 { valued.insert(String(first)) } else { switches.insert(String(first)) }
    }
    return try CommandLineOptions(arguments, valued: valued, switches: switches)
  }
}
