public import Reconcile

/// The built-in resolvers by their playground names, each with the bookkeeping fields it needs and the no-lost-write
/// contract it promises.
public enum ResolverChoice: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// `ServerLastWriterWins`: no lost-write contract.
  case serverLastWriterWins = "server-lww"
  /// `LocalClockLastWriterWins` on the `editedAt` field: no lost-write contract.
  case localClock = "local-clock"
  /// `EditCountWins` on the `editCount` field: keeps the highest count.
  case editCount = "edit-count"
  /// `FieldMerge` with the server winning same-field conflicts: keeps every one-sided field change.
  case fieldMerge = "field-merge"
  /// `HybridLogicalClockMerge` on the `fieldStamps` field: keeps the latest stamp of every field.
  case hybridLogicalClock = "hlc"
  /// `FieldMerge` with the server winning same-field conflicts and merging policies on a note's keys (see
  /// ``mergingPolicies``): keeps every one-sided field change, and of `body`, `plays`, `tags` and `steps` every edit
  /// by the policy's contract. Seeded runs under it edit those keys in place.
  case merging

  /// The policies of ``merging``: `body` merged as text by lines keeping both versions of an overlap, `plays` as a
  /// counter, `tags` as a set where adds win, `steps` as an ordered list.
  public static let mergingPolicies: [String: FieldMerge.Policy] = [
    "body": .text(.line, overlap: .both), "plays": .counter, "tags": .set(.addWins), "steps": .orderedList,
  ]

  /// The field `local-clock` writes.
  package static let modifiedAtKey = "editedAt"
  /// The field `edit-count` writes.
  package static let editCountKey = "editCount"
  /// The field `hlc` writes.
  package static let fieldStampsKey = "fieldStamps"

  /// The playground name.
  public var description: String { rawValue }

  /// The resolver.
  public var resolver: any ConflictResolver {
    switch self {
    case .serverLastWriterWins: .serverLastWriterWins
    case .localClock: .localClock(key: Self.modifiedAtKey)
    case .editCount: .editCount(key: Self.editCountKey)
    case .fieldMerge: .fieldMerge()
    case .hybridLogicalClock: .hybridLogicalClock(stampsKey: Self.fieldStampsKey)
    case .merging: FieldMerge(.server, overrides: Self.mergingPolicies)
    }
  }

  /// The fields a device writes on each edit for this resolver.
  public var bookkeeping: EditBookkeeping {
    switch self {
    case .serverLastWriterWins, .fieldMerge, .merging: .none
    case .localClock: EditBookkeeping(modifiedAtKey: Self.modifiedAtKey)
    case .editCount: EditBookkeeping(editCountKey: Self.editCountKey)
    case .hybridLogicalClock: EditBookkeeping(fieldStampsKey: Self.fieldStampsKey)
    }
  }

  /// The lost-write invariant this resolver promises, or `nil` for the last-writer-wins resolvers, which document that
  /// they lose concurrent edits.
  public var lostWriteContract: Invariant? {
    switch self {
    case .serverLastWriterWins, .localClock: nil
    case .editCount: .highestEditCountKept
    case .fieldMerge, .merging: .oneSidedChangesKept
    case .hybridLogicalClock: .latestStampKept
    }
  }

}
