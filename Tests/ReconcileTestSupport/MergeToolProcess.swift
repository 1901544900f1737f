public import Foundation

/// A merge tool run on three files as an app would run it (`diff3 -m`, `git merge-file`): the texts written to a
/// temporary folder, the tool started as a process, the fastest of several runs kept.
public enum MergeToolProcess {
  /// `body` given the paths of `files`, written to a temporary folder that is removed afterwards.
  public static func withFiles<Result>(_ files: [(name: String, bytes: Data)], _ body: ([String]) throws -> Result)
    throws -> Result
  {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("merge-tool-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths: [String] = []
    for file in files {
      let url = directory.appendingPathComponent(file.name)
      try file.bytes.write(to: url)
      paths.append(url.path)
    }
    return try body(paths)
  }

  /// What one run printed and how it ended.
  public struct Run: Sendable {
    /// Its standard output.
    public var output: Data
    /// Its exit status.
    public var status: Int32
    /// The fastest of the runs, in milliseconds, process start included.
    public var milliseconds: Double
  }

  /// Runs `executable` with `arguments(paths)` over `files`, `rounds` times.
  public static func run(
    _ executable: String, files: [(name: String, bytes: Data)], rounds: Int = 1, arguments: ([String]) -> [String]
  ) throws -> Run {
    try withFiles(files) { paths in
      var run = Run(output: Data(), status: 0, milliseconds: .infinity)
      for _ in 0..<max(1, rounds) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments(paths)
        let pipe = Pipe()
        process.standardOutput = pipe
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        run.output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        run.milliseconds = min(run.milliseconds, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        run.status = process.terminationStatus
      }
      return run
    }
  }
}
