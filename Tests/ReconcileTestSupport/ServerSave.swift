public import Foundation
public import Reconcile

extension Record {
  /// This record as a server returns it after saving: the given change tag and modification date (and a creation date
  /// if it had none), no changed keys.
  /// - Parameters:
  ///   - tag: The new change tag.
  ///   - date: The server's clock at the save.
  ///   - device: The device that saved it.
  public func savedByServer(tag: String, at date: Date, device: String? = nil) -> Record {
    var saved = self
    saved.recordChangeTag = tag
    if saved.creationDate == nil { saved.creationDate = date }
    saved.modificationDate = date
    saved.modifiedByDevice = device
    saved.clearChangedKeys()
    return saved
  }

  /// What the server holds after it accepts `client` onto `self` the way CloudKit merges: the client's changed keys
  /// (values and removals) replace the server's, every other key stays.
  /// - Parameters:
  ///   - client: The saved record; its `changedKeys` are what it sends.
  ///   - tag: The new change tag.
  ///   - date: The server's clock at the save.
  public func applying(_ client: Record, tag: String, at date: Date) -> Record {
    var next = self
    for key in client.changedKeys {
      if let value = client.encryptedValuesByKey[key] {
        next.encryptedValues[key] = value
      } else {
        next[key] = client[key]
      }
    }
    next.parent = client.parent
    return next.savedByServer(tag: tag, at: date, device: client.modifiedByDevice)
  }
}
