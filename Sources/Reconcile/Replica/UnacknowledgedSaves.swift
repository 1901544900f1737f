import Foundation

/// The last few versions of one record a device sent and never heard back about (at most eight): should one have
/// landed with its answer lost, a server value equal to it is the device's own change, not another device's.
package struct UnacknowledgedSaves: Sendable, Hashable, Codable {
  /// A version sent and not acknowledged.
  package struct Version: Sendable, Hashable, Codable {
    /// What was sent.
    package var record: Record
    /// Whether the server refused it: it did not land, unless a duplicated copy of it landed first.
    package var refused = false
  }

  /// The versions, oldest first.
  package private(set) var versions: [Version] = []

  /// None.
  package init() {}

  /// Whether no version waits for an answer.
  package var isEmpty: Bool { versions.isEmpty }

  /// Notes `record` sent: until acknowledged it is one of the last eight versions sent.
  package mutating func noteSent(_ record: Record) {
    if versions.count == 8 { versions.removeFirst() }
    versions.append(Version(record: record))
  }

  /// Notes that the server refused the save of `record`.
  package mutating func noteRefused(_ record: Record) {
    for index in versions.indices where versions[index].record == record { versions[index].refused = true }
  }

  /// The ancestor of a conflict with `server`: `known` (the last version the server handed `device`), except that a
  /// key the server holds with the value of one of these versions took it from that save (it landed, its answer was
  /// lost), so it is not another device's change. A refused version did not land, unless the server's version is
  /// `device`'s own (a duplicated copy landed first): otherwise a value equal to it is another device's, as two
  /// counters incremented to one number are. A version sent on an older change tag than `known`'s cannot land any
  /// more (the server moved past it, and a save names the tag it was made on): what it did is in `known` already.
  package func ancestor(known: Record?, server: Record, device: String) -> Record? {
    guard !versions.isEmpty else { return known }
    var ancestor = known ?? Record(recordType: server.recordType, recordID: server.recordID)
    let ownVersion = server.modifiedByDevice == device
    for version in versions where !version.refused || ownVersion {
      // A create carries no tag: it may land whenever the server holds no record of its ID.
      guard version.record.recordChangeTag == nil || version.record.recordChangeTag == known?.recordChangeTag
      else { continue }
      for key in Set(version.record.allKeys).union(server.allKeys).sorted()
      where server.hasSameValue(forKey: key, as: version.record) {
        ancestor.takeValue(of: key, from: version.record)
      }
    }
    ancestor.clearChangedKeys()
    return ancestor
  }
}
