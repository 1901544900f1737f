import Foundation
import ReconcileSimulator

/// `repl`: reads commands line by line, carries each out and prints what it printed; errors are printed and the
/// session goes on. `quit`, `exit` or the end of input leaves. On a terminal it prints a prompt naming the world lines
/// go to, and edits lines with history (``LineEditor``); with piped input it exits 1 if any line failed, so
/// `reconcile-playground repl < script` can be checked.
enum ReplCommand {

  /// The row `help` adds for the REPL: how to leave.
  static let helpRows = [["quit", "leave the playground"]]

  static func run(arguments: [String], output: some TextOutput, environment: PlaygroundEnvironment) -> Int32 {
    if let word = arguments.first {
      output.writeError("error: repl takes no arguments, found '\(word)'\nusage: \(environment.commandName) repl\n")
      return ExitStatus.usage
    }
    let style = Style(enabled: environment.usesColour)
    guard
      var session = try? ScriptSession(
        clients: environment.clients, resolvers: environment.resolvers, helpRows: Self.helpRows)
    else {
      return 1  // An empty preamble is never refused.
    }
    var failures = 0
    if environment.isInteractive {
      output.write(style.bold("Reconcile playground") + " — `help` lists the commands, `quit` leaves.\n")
    }
    while true {
      let line: String?
      if environment.isInteractive, let editLine = environment.editLine {
        line = editLine(session.prompt)
      } else {
        if environment.isInteractive { output.write(session.prompt) }
        line = environment.readLine()
      }
      guard let line else { break }
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed == "quit" || trimmed == "exit" { break }
      do {
        let result = try session.execute(line: line).text
        if !result.isEmpty { output.write(style.result(result) + "\n") }
      } catch {
        failures += 1
        output.write(style.red(error.report) + "\n")
      }
    }
    return environment.isInteractive || failures == 0 ? 0 : 1
  }
}
