import Foundation

/// Reads the real CloudKit bytes bundled with the tests (copied from `shared/fixtures`).
enum Fixtures {
  struct Missing: Error, CustomStringConvertible {
    let name: String
    var description: String { "fixture \(name) is not in the test bundle" }
  }

  static func data(_ name: String) throws -> Data {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
      throw Missing(name: name)
    }
    return try Data(contentsOf: url)
  }
}
