public import Foundation

// Every public error reads the same everywhere: `localizedDescription` (what Apple's frameworks and SwiftUI alerts show)
// is the sentence `description` already gives, instead of "The operation couldn't be completed. (… error 3.)".

extension RecordValidationError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension ConflictResolutionError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension EditStampingError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension SchemaHalt: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension SchemaVersionError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension SystemFieldsArchiveError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension CloudKitArchiveError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension WireJSONError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension HybridLogicalClockError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension WebServices.ServerError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension WebServices.ConflictLookupError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension CloudKitError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension CloudKitBridgeError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension SyncEngineError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}
