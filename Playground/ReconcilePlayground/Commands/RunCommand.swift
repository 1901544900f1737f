import Foundation
import ReconcileSimulator

/// `run FILE [--resolver NAME] [--delete-policy P] [--quiet]`: carries out a script, printing each command and what
/// it printed; stops with status 1 at the first error or failed `expect`, naming the file and line.
enum RunCommand {
  static func usage(_ environment: PlaygroundEnvironment) -> String {
    CommandHelp.usage(of: "run", as: environment.commandName)
  }

  static func run(arguments: [String], output: some TextOutput, environment: PlaygroundEnvironment) -> Int32 {
    let options: CommandLineOptions
    let path: String
    var preamble: [String] = []
    do {
      options = try CommandHelp.parse(arguments, as: "run")
      guard options.positional.count == 1, let file = options.positional.first else {
        throw CommandLineOptions.Problem(
          description: options.positional.isEmpty ? "run needs a FILE" : "run takes one FILE")
      }
      path = file
      let resolver = try PlaygroundNames.builtInResolver(options.values["--resolver"] ?? "field-merge")
      let policy = try PlaygroundNames.deletePolicy(options.values["--delete-policy"] ?? "deleteWins")
      preamble = ["resolver \(resolver.rawValue)", "delete-policy \(policy)"]
    } catch {
      output.writeError("error: \(error)\n" + usage(environment))
      return ExitStatus.usage
    }
    let style = Style(enabled: environment.usesColour)
    let text: String
    do {
      text = try ScriptFile.read(path, with: environment)
    } catch {
      output.writeError(style.red("error: \(error)") + "\n")
      return 1
    }
    let quiet = options.flags.contains("--quiet")
    let lines = ScriptFile.lines(text)
    var script: ScriptSession
    do {
      script = try ScriptSession(preamble: preamble, clients: environment.clients, resolvers: environment.resolvers)
    } catch {
      output.writeError(style.red("error: \(error.report)") + "\n")
      return 1
    }
    // Every line is read once, before any runs: a typo on line 40 is reported before lines 1–39 change anything.
    var commands: [ScriptCommand?] = []
    for (number, line) in lines {
      do {
        commands.append(try script.parse(line))
      } catch {
        output.writeError(style.red("\(path):\(number): error: \(error.message)") + "\n")
        return 1
      }
    }
    for ((number, line), command) in zip(lines, commands) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") {
        // Comments and blank lines are echoed: they narrate the transcript.
        if !quiet { output.write(style.dim(line) + "\n") }
        continue
      }
      if !quiet { output.write(style.bold("> " + trimmed) + "\n") }
      do {
        let result = try script.execute(command, line: line)
        if !quiet || result.isData, !result.text.isEmpty { output.write(style.result(result.text) + "\n") }
      } catch {
        output.writeError(style.red("\(path):\(number): \(error.report)") + "\n")
        return 1
      }
    }
    return 0
  }
}

/// Reading script files.
enum ScriptFile {
  /// The most bytes a script may have; a script is typed by a person, so anything larger is a mistake.
  static let maximumSize = 10_000_000

  /// The file's text.
  /// - Throws: A message naming the path when it cannot be read, is too large, or is not UTF-8.
  static func read(_ path: String, with environment: PlaygroundEnvironment) throws(ScriptError) -> String {
    let data: Data
    do {
      data = try environment.readFile(path)
    } catch {
      throw ScriptError("cannot read \(path): \(error.localizedDescription)")
    }
    guard data.count <= maximumSize else {
      throw ScriptError("\(path) is \(data.count) bytes; a script may have at most \(maximumSize)")
    }
    guard let text = String(data: data, encoding: .utf8) else { throw ScriptError("\(path) is not UTF-8 text") }
    return text
  }

  /// The lines with their 1-based numbers; `\r\n` endings are accepted.
  static func lines(_ text: String) -> [(number: Int, text: String)] {
    var lines = ScriptLines.split(text).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines.enumerated().map { ($0.offset + 1, $0.element) }
  }
}
