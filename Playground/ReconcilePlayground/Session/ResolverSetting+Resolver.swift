import Reconcile
import ReconcileSimulator

extension ResolverSetting {
  /// The built-in resolver: the playground's session keeps only settings that name one (it refuses others), so the
  /// fallback is never taken.
  private var builtIn: ResolverChoice { choice ?? .fieldMerge }

  /// The resolver this setting names.
  var resolver: any ConflictResolver {
    guard builtIn == .fieldMerge else { return builtIn.resolver }
    var overrides: [String: FieldMerge.Policy] = [:]
    for key in unionKeys { overrides[key] = .listUnion }
    return FieldMerge(samePolicy, overrides: overrides)
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
}
