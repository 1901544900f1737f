package import Foundation

extension CloudKitNumber {
  /// Classifies an `NSNumber` as CloudKit stores it: `INT64` unless it was made from a `float` or `double`.
  /// - Parameter number: A number read from a `CKRecord`.
  package init(_ number: NSNumber) {
    self = Self.classify(
      objCType: String(cString: number.objCType), integer: number.int64Value, double: number.doubleValue)
  }
}
