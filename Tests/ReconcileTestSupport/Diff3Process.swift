import Foundation

/// GNU `diff3 -m`, run as an app would run it: the text merge's tests and benchmark compare with it.
public enum Diff3Process {
  /// Where GNU diffutils installs it.
  public static let path = "/usr/bin/diff3"

  /// `diff3 -m MINE OLDER YOURS` on three texts (written to files first).
  /// - Returns: Its output, whether it merged without a conflict, and the fastest of `rounds` runs in milliseconds.
  public static func merge(mine: String, older: String, yours: String, rounds: Int = 1) throws -> (
    output: String, clean: Bool, milliseconds: Double
  ) {
    let run = try MergeToolProcess.run(
      path, files: [("mine", Data(mine.utf8)), ("older", Data(older.utf8)), ("yours", Data(yours.utf8))],
      rounds: rounds
    ) { ["-m"] + $0 }
    return (String(decoding: run.output, as: UTF8.self), run.status == 0, run.milliseconds)
  }
}
