public import Foundation

/// `git merge-file`, run on three texts' bytes: the text merge's tests, corpus and benchmark hold the line merge to it.
public enum GitMergeFileProcess {
  /// Where `git` is found: the first of the usual places that has it.
  public static let path: String? = ["/usr/bin/git", "/usr/local/bin/git", "/opt/homebrew/bin/git"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// What one run printed.
  public struct Output: Sendable {
    /// The merge, conflicts written between `<<<<<<< server` and `>>>>>>> client` markers.
    public var merged: Data
    /// How many conflicts git left (its exit status).
    public var conflicts: Int
    /// The fastest of the runs, in milliseconds, process start included.
    public var milliseconds: Double
  }

  /// `git merge-file -p -L server -L ancestor -L client SERVER ANCESTOR CLIENT`.
  /// - Throws: When git is missing or fails (an exit status below 0 or above 127).
  public static func merge(ancestor: Data, client: Data, server: Data, rounds: Int = 1) throws -> Output {
    guard let path else { throw Missing() }
    let run = try MergeToolProcess.run(
      path, files: [("server", server), ("ancestor", ancestor), ("client", client)], rounds: rounds
    ) { ["merge-file", "-p", "-L", "server", "-L", "ancestor", "-L", "client"] + $0 }
    guard (0..<128).contains(run.status) else { throw Failed(status: run.status) }
    return Output(merged: run.output, conflicts: Int(run.status), milliseconds: run.milliseconds)
  }

  /// git is not installed.
  public struct Missing: Error, CustomStringConvertible {
    /// The error.
    public init() {}
    /// What to install.
    public var description: String { "git is not installed; the comparison with git merge-file needs it" }
  }

  /// git exited with an error.
  public struct Failed: Error, CustomStringConvertible {
    /// git's exit status.
    public var status: Int32
    /// The status, in words.
    public var description: String { "git merge-file exited with status \(status)" }
  }
}
