import Foundation

/// The last few versions of one record a device sent and never heard back about (at most eight): should one have
/// landed with its answer lost, a server value equal to it is the device's own change, not another device's.
package struct UnacknowledgedSaves: Sendable, Hashable, Codable {
  /// A version sent and not acknowledged.
  package struct Version: Sendable, Hashable, Codable {
    /// What was sent.
    package var record: Record
    /// How many times it was sent.
    package var attempts = 1
    /// How many of those attempts the server refused.
    package var refusals = 0
    /// Whether the server refused every attempt: it did not land, unless a duplicated copy of it landed first. One
    /// attempt unanswered (its answer lost, or never heard before a crash) may have landed, whatever came of the rest.
    package var refused: Bool { refusals >= attempts }
  }

  /// The versions, oldest first.
  package private(set) var versions: [Version] = []

  /// None.
  package init() {}

  /// Whether no version waits for an answer.
  package var isEmpty: Bool { versions.isEmpty }

  /// Notes `record` sent: until acknowledged it is one of the last eight versions sent. A version sent again is one
  /// attempt more, not another version: retries of a refused save must not push out an older one that may have landed.
  package mutating func noteSent(_ record: Record) {
    var version = Version(record: record)
    if let index = versions.firstIndex(where: { $0.record == record }) {
      version = versions.remove(at: index)
      version.attempts += 1
    }
    if versions.count == 8 { versions.removeFirst() }
    versions.append(version)
  }

  /// Notes that the server refused one attempt to save `record`.
  package mutating func noteRefused(_ record: Record) {
    for index in versions.indices where versions[index].record == record && !versions[index].refused {
      versions[index].refusals += 1
    }
  }

  /// The ancestor of a conflict with `server`: `known` (the last version the server handed `device`), except that a
  /// key the server holds with the value of one of these versions took it from that save (it landed, its answer was
  /// lost), so it is not another device's change. A version the server refused at every attempt did not land, unless
  /// the server's version is `device`'s own (a duplicated copy landed first); taking its value for the device's own
  /// anyway changes nothing where equal values agree, but where both sides of an equal value count
  /// (`equalValuesBothCount`: a counter's two increments to one number) it would lose another device's edit. A version
  /// sent on an older change tag than `known`'s cannot land any more (the server moved past it, and a save names the
  /// tag it was made on): what it did is in `known` already.
  package func ancestor(
    known: Record?, server: Record, device: String, equalValuesBothCount: (String) -> Bool = { _ in true }
  ) -> Record? {
    guard !versions.isEmpty else { return known }
    var ancestor = known ?? Record(recordType: server.recordType, recordID: server.recordID)
    let ownVersion = server.modifiedByDevice == device
    for version in versions {
      // A create carries no tag: it may land whenever the server holds no record of its ID.
      guard version.record.recordChangeTag == nil || version.record.recordChangeTag == known?.recordChangeTag
      else { continue }
      let landed = !version.refused || ownVersion
      for key in Set(version.record.allKeys).union(server.allKeys).sorted()
      where server.hasSameValue(forKey: key, as: version.record) && (landed || !equalValuesBothCount(key)) {
        ancestor.takeValue(of: key, from: version.record)
      }
    }
    ancestor.clearChangedKeys()
    return ancestor
  }
}
