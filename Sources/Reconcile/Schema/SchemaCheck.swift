/// What ``Schema/check(_:)`` found about a record the app can use.
public enum SchemaCheck: Sendable, Hashable {
  /// The record is at the app's version and holds only what the app knows (or, under
  /// ``Schema/UnknownKeyPolicy/preserve``, unknown keys the app keeps untouched).
  case compatible
  /// The record comes from a newer minor version of the same major version, accepted under
  /// ``Schema/FutureVersionPolicy/allowNewerMinor``; keys the app does not know are kept untouched.
  case newerMinor(SchemaVersion)
  /// The record comes from an older version; ``Schema/migrate(_:)`` brings it to the app's version.
  case needsMigration(from: SchemaVersion)
}
