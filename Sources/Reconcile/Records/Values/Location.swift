public import Foundation

/// A geographic location, as CloudKit's `LOCATION` type stores it.
///
/// Only the coordinates are required; the other readings are `nil` when unknown.
public struct Location: Sendable, Hashable, CustomStringConvertible {
  /// Degrees north, −90 to 90.
  public var latitude: Double
  /// Degrees east, −180 to 180.
  public var longitude: Double
  /// The horizontal uncertainty in metres.
  public var horizontalAccuracy: Double?
  /// The vertical uncertainty in metres.
  public var verticalAccuracy: Double?
  /// Metres above sea level.
  public var altitude: Double?
  /// Metres per second.
  public var speed: Double?
  /// Degrees clockwise from true north.
  public var course: Double?
  /// When the reading was taken.
  public var timestamp: Date?

  /// Creates a location.
  /// - Parameters:
  ///   - latitude: Degrees north.
  ///   - longitude: Degrees east.
  ///   - horizontalAccuracy: Horizontal uncertainty in metres.
  ///   - verticalAccuracy: Vertical uncertainty in metres.
  ///   - altitude: Metres above sea level.
  ///   - speed: Metres per second.
  ///   - course: Degrees from true north.
  ///   - timestamp: When the reading was taken.
  public init(
    latitude: Double, longitude: Double, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
    altitude: Double? = nil, speed: Double? = nil, course: Double? = nil, timestamp: Date? = nil
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
    self.altitude = altitude
    self.speed = speed
    self.course = course
    self.timestamp = timestamp
  }

  /// Every number of the location, for finiteness checks.
  var allNumbers: [Double] {
    [latitude, longitude] + [horizontalAccuracy, verticalAccuracy, altitude, speed, course].compactMap { $0 }
  }

  /// `(latitude, longitude)`, for logs.
  public var description: String { "(\(latitude), \(longitude))" }
}
