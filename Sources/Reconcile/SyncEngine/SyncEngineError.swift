import Foundation

/// What goes wrong between a sync engine and a ``SyncEngineDelegate``.
public enum SyncEngineError: Error, Sendable, Hashable, DescribedError {
  /// The engine's part of a ``SyncEngine/StateSerialization`` holds another engine's state, or bytes that do not decode as the engine's.
  case engineStateMismatch(expected: String, found: String)
  /// A record, ID or error from CloudKit could not be converted, so the delegate was not handed it; CloudKit keeps
  /// it (nothing is removed on the server or from the engine's pending changes).
  case unconvertible(what: String, reason: CloudKitBridgeError)

  /// A sentence naming what was expected and what was found.
  public var description: String {
    switch self {
    case .engineStateMismatch(let expected, let found):
      "the saved sync engine state is not this engine's: expected \(expected), found \(found)"
    case .unconvertible(let what, let reason):
      "\(what) from CloudKit could not be converted, so the delegate was not handed it: \(reason)"
    }
  }
}
