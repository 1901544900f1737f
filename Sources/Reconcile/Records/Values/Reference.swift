/// A field that points at another record in the same zone.
///
/// ```swift
/// record["list"] = .reference(Reference(recordID: listID, action: .deleteSelf))
/// ```
public struct Reference: Sendable, Hashable, CustomStringConvertible {
  /// What the server does to the referring record when the target is deleted.
  public enum Action: String, Sendable, Hashable, CaseIterable {
    /// Nothing: the reference dangles. (`NONE` on the wire.)
    case none = "NONE"
    /// Deleting the target deletes the referring record too. (`DELETE_SELF` on the wire.)
    case deleteSelf = "DELETE_SELF"
    /// Web Services only: the server checks that the target exists when saving. (`VALIDATE` on the wire.)
    case validate = "VALIDATE"
  }

  /// The record this reference points at.
  public var recordID: RecordID
  /// What happens to the referring record when the target is deleted.
  public var action: Action

  /// Creates a reference.
  /// - Parameters:
  ///   - recordID: The target record, in the same zone as the referring record.
  ///   - action: The delete action; ``Action/none`` unless given.
  public init(recordID: RecordID, action: Action = .none) {
    self.recordID = recordID
    self.action = action
  }

  /// `→ recordName (ACTION)`, for logs.
  public var description: String { "→\(recordID.recordName) (\(action.rawValue))" }
}

extension Reference.Action {
  /// The action's byte in Reconcile's binary formats (system-fields archive, encrypted-value envelope): 0 none,
  /// 1 deleteSelf, 2 validate.
  var binaryCode: UInt8 {
    switch self {
    case .none: return 0
    case .deleteSelf: return 1
    case .validate: return 2
    }
  }

  /// The action a binary-format byte stands for, or `nil` for a byte no format defines.
  init?(binaryCode: UInt8) {
    switch binaryCode {
    case 0: self = .none
    case 1: self = .deleteSelf
    case 2: self = .validate
    default: return nil
    }
  }
}
