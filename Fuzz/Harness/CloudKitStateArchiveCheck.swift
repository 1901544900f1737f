import Foundation
import Reconcile

/// Fuzzes `CloudKitArchive(data:)`, which reads whatever an app archived: record and share system fields (with
/// participants), change tokens, record and zone IDs, query cursors, whole zones, account info, and arrays of them.
/// Whatever decodes is written back with `archivedData()` and must read back equal.
enum CloudKitStateArchiveCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    let archive: CloudKitArchive
    do {
      archive = try CloudKitArchive(data: data)
    } catch {
      try FuzzFinding.requireMessage(error.description, from: "CloudKitArchive(data:)")
      return
    }
    let written: Data
    do {
      written = try archive.archivedData()
    } catch {
      throw FuzzFinding("a decoded \(archive.kind) cannot be archived again: \(error)")
    }
    do {
      let again = try CloudKitArchive(data: written)
      if again != archive { throw FuzzFinding("an archive round trip changed \(archive) into \(again)") }
    } catch let finding as FuzzFinding {
      throw finding
    } catch {
      throw FuzzFinding("a decoded \(archive.kind) does not read back: \(error)")
    }
  }
}
