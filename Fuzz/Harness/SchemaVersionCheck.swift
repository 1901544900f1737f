import Foundation
import Reconcile

/// Fuzzes `SchemaVersion(_:)`. The accepted form is canonical, so a version that parses must print as exactly the
/// text it came from.
enum SchemaVersionCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    let text = String(decoding: data, as: UTF8.self)
    let version: SchemaVersion
    do {
      version = try SchemaVersion(text)
    } catch {
      try FuzzFinding.requireMessage(error.description, from: "SchemaVersion(_:)")
      return
    }
    if version.description != text { throw FuzzFinding("\"\(text)\" parsed as \(version), which prints differently") }
  }
}
