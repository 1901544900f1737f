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
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff3-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths: [String] = []
    for (name, text) in [("mine", mine), ("older", older), ("yours", yours)] {
      let url = directory.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      paths.append(url.path)
    }
    var best = Double.infinity
    var output = ""
    var clean = false
    for _ in 0..<max(1, rounds) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = ["-m"] + paths
      let pipe = Pipe()
      process.standardOutput = pipe
      let start = DispatchTime.now().uptimeNanoseconds
      try process.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      output = String(decoding: data, as: UTF8.self)
      clean = process.terminationStatus == 0
    }
    return (output, clean, best)
  }
}
