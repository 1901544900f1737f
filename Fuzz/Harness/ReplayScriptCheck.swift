import Foundation
import ReconcileSimulator

/// Fuzzes the simulator's replay-script parser, `SimulationScript.parse`. Errors must name a line within the text;
/// a script that parses is written back with `SimulationScript.render` and must parse to the same world and steps,
/// each encrypted value read back as its stand-in of the same kind and size (a script never shows one).
enum ReplayScriptCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    let text = String(decoding: data, as: UTF8.self)
    let parsed: SimulationScript.Parsed
    do {
      parsed = try SimulationScript.parse(text)
    } catch {
      try FuzzFinding.requireMessage(error.problem, from: "SimulationScript.parse")
      let lines = ScriptLines.split(text).count
      if error.line < 0 || error.line > max(lines, 1) {
        throw FuzzFinding("the error names line \(error.line) of a \(lines)-line script")
      }
      return
    }
    let rendered = SimulationScript.render(setup: parsed.setup, steps: parsed.steps, invariants: parsed.invariants)
    let again: SimulationScript.Parsed
    do {
      again = try SimulationScript.parse(rendered)
    } catch {
      throw FuzzFinding("a parsed script, written back, does not parse: \(error)\n\(rendered)")
    }
    if again.setup != parsed.setup || again.steps != parsed.steps.map(\.withEncryptedStandIns)
      || again.invariants != parsed.invariants
    {
      throw FuzzFinding("a parsed script changed when written back:\n\(rendered)")
    }
  }
}
