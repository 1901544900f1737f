/// What the sync core asks of a resolver about equal values, answered the same through a resolver set and a schema
/// guard as by the resolver that merges: a resolver set must resolve, and be synced around, exactly as its entry.
package protocol EqualValuesRule {
  /// Whether two sides holding one value of `key` in a record of `recordType` both count (a counter's two increments
  /// to one number), where under every other rule equal values agree.
  func equalValuesBothCount(_ key: String, recordType: String) -> Bool
}

extension ConflictResolver {
  /// ``EqualValuesRule/equalValuesBothCount(_:recordType:)`` for any resolver: a resolver that does not say (one of
  /// the app's own) is taken to count both, the cautious answer, since the core cannot read its policies.
  package func equalValuesBothCount(_ key: String, recordType: String) -> Bool {
    (self as? any EqualValuesRule)?.equalValuesBothCount(key, recordType: recordType) ?? true
  }
}

extension FieldMerge: EqualValuesRule {
  package func equalValuesBothCount(_ key: String, recordType: String) -> Bool { equalValuesBothCount(key) }
}

extension ResolverSet: EqualValuesRule {
  package func equalValuesBothCount(_ key: String, recordType: String) -> Bool {
    resolver(for: recordType).equalValuesBothCount(key, recordType: recordType)
  }
}
