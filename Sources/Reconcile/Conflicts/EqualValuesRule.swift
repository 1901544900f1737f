/// What the sync core asks of a resolver about equal values, answered the same through a resolver set and a schema
/// guard as by the resolver that merges: a resolver set must resolve, and be synced around, exactly as its entry.
package protocol EqualValuesRule {
  /// For a record of `recordType`: whether two sides holding one value of a key both count (a counter's two
  /// increments to one number), where under every other rule equal values agree. Asked once per merge, then per key.
  func equalValuesBothCount(recordType: String) -> @Sendable (String) -> Bool
}

extension ConflictResolver {
  /// ``EqualValuesRule/equalValuesBothCount(recordType:)`` for any resolver: a resolver that does not say (one of the
  /// app's own) is taken to count both for every key, the cautious answer, since the core cannot read its policies.
  package func countsEqualValuesTwice(recordType: String) -> @Sendable (String) -> Bool {
    guard let rule = self as? any EqualValuesRule else { return { _ in true } }
    return rule.equalValuesBothCount(recordType: recordType)
  }
}

extension FieldMerge: EqualValuesRule {
  package func equalValuesBothCount(recordType: String) -> @Sendable (String) -> Bool {
    { self.equalValuesBothCount($0) }
  }
}

extension ResolverSet: EqualValuesRule {
  package func equalValuesBothCount(recordType: String) -> @Sendable (String) -> Bool {
    resolver(for: recordType).countsEqualValuesTwice(recordType: recordType)
  }
}
