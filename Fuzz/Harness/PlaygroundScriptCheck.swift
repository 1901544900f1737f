import Foundation
import ReconcileSimulator

/// Fuzzes the script language's `ScriptParser.parse` on each line of the input. Every line parses, is blank, or gives a
/// `ScriptError` with a message; a parsed line parses the same way twice (the parser keeps no state).
enum PlaygroundScriptCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    let text = String(decoding: data, as: UTF8.self)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = String(line)
      let first: ScriptCommand?
      do {
        first = try ScriptParser.parse(line)
      } catch {
        try FuzzFinding.requireMessage(error.message, from: "ScriptParser.parse")
        continue
      }
      if (try? ScriptParser.parse(line)) != first { throw FuzzFinding("\"\(line)\" parsed two different ways") }
    }
  }
}
