/// Which of a container's three databases a request addresses.
public enum DatabaseScope: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
  /// One database for every user of the app: readable without an account, writable with one; default zone only.
  case `public`
  /// The signed-in user's own database: custom zones, change feeds, encrypted fields.
  case `private`
  /// Zones other users shared with the signed-in user.
  case shared

  /// `public`, `private` or `shared`.
  public var description: String { rawValue }
}
