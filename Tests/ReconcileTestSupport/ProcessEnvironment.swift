import Foundation

/// Reads the process environment (a seam so test support needs no global state of its own).
enum ProcessEnvironment {
  static func value(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }
}
