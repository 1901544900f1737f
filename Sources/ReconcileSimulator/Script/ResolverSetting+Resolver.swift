import Reconcile

extension ResolverSetting {
  /// The built-in resolver: only settings that name one reach here (a session looks others up among your own), so
  /// the fallback is never taken.
  private var builtIn: ResolverChoice { choice ?? .fieldMerge }

  /// The resolver this setting names.
  var resolver: any ConflictResolver {
    guard builtIn == .fieldMerge else { return builtIn.resolver }
    return FieldMerge(samePolicy, overrides: overridePolicies)
  }

  /// The policies of the keys `--union` and the merge options name.
  private var overridePolicies: [String: FieldMerge.Policy] {
    var overrides: [String: FieldMerge.Policy] = [:]
    for key in unionKeys { overrides[key] = .listUnion }
    for (key, merge) in merges {
      switch merge {
      case .text: overrides[key] = .text(textGranularity, overlap: textOverlap.overlap)
      case .counter: overrides[key] = .counter
      case .set: overrides[key] = .set(.addWins)
      case .orderedList: overrides[key] = .orderedList
      case .keepBoth: overrides[key] = .keepBoth(into: key + "Conflict")
      }
    }
    return overrides
  }

  /// The fields each edit writes so the resolver can decide: the choice's own, plus the stamp a `field-merge`
  /// same-field policy reads.
  var bookkeeping: EditBookkeeping {
    guard builtIn == .fieldMerge else { return builtIn.bookkeeping }
    switch prefer {
    case .server, .client: return .none
    case .localClock: return EditBookkeeping(modifiedAtKey: ResolverChoice.modifiedAtKey)
    case .editCount: return EditBookkeeping(editCountKey: ResolverChoice.editCountKey)
    }
  }

  /// `field-merge --prefer client`, or the bare name when there are no options.
  var summary: String {
    guard builtIn == .fieldMerge else { return name }
    var text = "field-merge (same field: \(prefer.rawValue)"
    if !unionKeys.isEmpty { text += "; union: \(unionKeys.joined(separator: ", "))" }
    for (key, merge) in merges.sorted(by: { $0.key < $1.key }) { text += "; \(key): \(merge.rawValue)" }
    if textGranularity != .line { text += "; text by \(textGranularity.rawValue)" }
    if textOverlap != .both { text += "; text overlaps: \(textOverlap.rawValue)" }
    return text + ")"
  }

  private var samePolicy: FieldMerge.Policy {
    switch prefer {
    case .server: .server
    case .client: .client
    case .localClock: .localClock(key: ResolverChoice.modifiedAtKey)
    case .editCount: .editCount(key: ResolverChoice.editCountKey)
    }
  }

  /// The resolver under test this setting builds: a built-in with its options, named as the `resolver` line writes
  /// it (`field-merge --prefer client --union tags`), so a session's world names it the way the user did. Its
  /// contract is field-merge's (``Invariant/oneSidedChangesKept``) whatever the same-field policy, with each merged
  /// key's policy contract (`KeyContract.merged(by:)`): a union key keeps every element written; a key merged by
  /// `--text`, `--counter`, `--set` or `--ordered-list` ends with a value no device wrote, and is judged on each
  /// write's edit; a `--keep-both` key keeps one of the writes, as any field-merge key.
  var resolverUnderTest: ResolverUnderTest {
    guard builtIn == .fieldMerge,
      prefer != .server || !unionKeys.isEmpty || !merges.isEmpty || textGranularity != .line || textOverlap != .both
    else {
      return ResolverUnderTest(builtIn)
    }
    var name = builtIn.rawValue
    if prefer != .server { name += " --prefer \(prefer.rawValue)" }
    if !unionKeys.isEmpty { name += " --union " + unionKeys.joined(separator: ",") }
    for merge in KeyMerge.allCases {
      let keys = merges.filter { $0.value == merge }.map(\.key).sorted()
      if !keys.isEmpty { name += " --\(merge.rawValue) " + keys.joined(separator: ",") }
    }
    if textGranularity != .line { name += " --text-granularity \(textGranularity.rawValue)" }
    if textOverlap != .both { name += " --text-overlap \(textOverlap.rawValue)" }
    return ResolverUnderTest(
      name: name, fieldMerge: FieldMerge(samePolicy, overrides: overridePolicies), bookkeeping: bookkeeping)
  }
}
