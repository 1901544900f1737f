import Foundation

/// Counts instructions with valgrind's callgrind, by running this benchmark again on one section: wall clocks on shared
/// machines vary from run to run, instruction counts do not.
enum Callgrind {
  /// Instructions per unit of work of `section`, which prints `units: N` for the N units it did. The same process doing
  /// nothing (`--only idle`) is counted too and subtracted, so start-up is not charged to the work. `nil` when
  /// valgrind is not installed or the run fails.
  static func instructionsPerUnit(section: String, environment: [String: String] = [:]) -> (
    perUnit: Double, units: Int
  )? {
    guard let work = count(section, environment: environment), let idle = count("idle"),
      let unitsText = work.output.split(separator: "\n").first(where: { $0.hasPrefix("units: ") }),
      let units = Int(unitsText.dropFirst("units: ".count)), units > 0
    else { return nil }
    return ((work.instructions - idle.instructions) / Double(units), units)
  }

  /// Instructions per unit of `section` run with `environment`, beyond the same section run with `baseline` (which
  /// does the same set-up and end without the units): the units' own cost, apart from what the section prepares.
  static func instructionsPerUnit(
    section: String, environment: [String: String], beyond baseline: [String: String]
  ) -> (perUnit: Double, units: Int)? {
    guard let work = count(section, environment: environment), let base = count(section, environment: baseline),
      let unitsText = work.output.split(separator: "\n").first(where: { $0.hasPrefix("units: ") }),
      let units = Int(unitsText.dropFirst("units: ".count)), units > 0
    else { return nil }
    return ((work.instructions - base.instructions) / Double(units), units)
  }

  /// Instructions one `body` of `section` costs: the section run with `repeatsKey` (`TEXT_MERGE_REPEATS` unless given)
  /// of 1 and of `1 + repeats`,
  /// the difference divided by `repeats`, so what the section builds before its loop is not counted. `environment`
  /// is added to the runs'. `nil` when valgrind is not installed or a run fails.
  static func instructionsPerRepeat(
    section: String, environment: [String: String], repeats: Int = 5, repeatsKey: String = "TEXT_MERGE_REPEATS"
  ) -> Double? {
    guard
      let once = count(section, environment: environment.merging([repeatsKey: "1"]) { $1 }),
      let more = count(section, environment: environment.merging([repeatsKey: "\(1 + repeats)"]) { $1 })
    else { return nil }
    return (more.instructions - once.instructions) / Double(repeats)
  }

  /// Instructions another program spends on `arguments` beyond what it spends on `baseline` (its start-up and the
  /// same work on empty input), the processes it starts included (`diff3` runs `diff` twice): how a tool such as
  /// `git merge-file` is counted beside this package's code.
  static func instructions(of program: String, _ arguments: [String], beyond baseline: [String]) -> Double? {
    guard let work = count(command: [program] + arguments, statuses: 0...127, children: true),
      let idle = count(command: [program] + baseline, statuses: 0...127, children: true)
    else { return nil }
    return work.instructions - idle.instructions
  }

  private static func count(_ section: String, environment: [String: String] = [:]) -> (
    instructions: Double, output: String
  )? {
    count(command: [CommandLine.arguments[0], "--only", section], environment: environment)
  }

  /// - Parameters:
  ///   - statuses: The exit statuses that count as a run (`git merge-file` exits with its conflict count).
  ///   - children: Whether to count the processes the command starts too, summing every process's total.
  private static func count(
    command: [String], environment: [String: String] = [:], statuses: ClosedRange<Int32> = 0...0,
    children: Bool = false
  )
    -> (instructions: Double, output: String)?
  {
    let process = Process()
    // Hashing seeded per process makes dictionary work differ from run to run; counts must not.
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      .merging(["SWIFT_DETERMINISTIC_HASHING": "1"]) { $1 }
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
      + (children ? ["--trace-children=yes"] : []) + command
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do { try process.run() } catch { return nil }
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // One total per process counted (callgrind prints it as `Collected`, and again as `I refs`): the command's, and
    // with `children` each process it started.
    let lines = log.split(separator: "\n")
    let collected = lines.filter { $0.contains("Collected") }
    let totals = (collected.isEmpty ? lines.filter { $0.contains("refs:") } : collected).compactMap {
      Double($0.split(separator: " ").last?.replacingOccurrences(of: ",", with: "") ?? "")
    }
    guard statuses.contains(process.terminationStatus), !totals.isEmpty else { return nil }
    return (children ? totals.reduce(0, +) : totals[0], printed)
  }
}
