/// What a participant of a shared zone may do.
package enum SharePermission: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
  /// Read the zone's records.
  case readOnly
  /// Read, save and delete the zone's records.
  case readWrite

  /// `readOnly` or `readWrite`.
  package var description: String { rawValue }
}
