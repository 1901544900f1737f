public import Foundation

// `localizedDescription` says what `description` says, as for the core's errors.

extension ServerError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension DeviceError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension ShardError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension SimulationScript.ParseError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}

extension ExplorationReportError: LocalizedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}
