public import Foundation

/// An error that says what went wrong in one sentence, its `description`, and says the same sentence as its
/// `localizedDescription`.
///
/// Every error Reconcile throws is one, so a log line or an alert reads the same whichever property it shows.
public protocol DescribedError: LocalizedError, CustomStringConvertible {}

extension DescribedError {
  /// The same sentence as `description`.
  public var errorDescription: String? { description }
}
