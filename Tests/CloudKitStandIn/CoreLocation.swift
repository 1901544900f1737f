// A stand-in for Core Location, compiled only by Scripts/check-cloudkit-bridge.sh so the CloudKit bridge's thin layer
// type-checks on Linux. Each declaration copies the signature on Apple's reference page named beside it; bodies are
// placeholders, never run. Only what the bridge uses is declared.
public import Foundation

/// developer.apple.com/documentation/corelocation/cllocationdegrees
public typealias CLLocationDegrees = Double
/// …/cllocationdistance
public typealias CLLocationDistance = Double
/// …/cllocationaccuracy
public typealias CLLocationAccuracy = Double
/// …/cllocationdirection
public typealias CLLocationDirection = Double
/// …/cllocationspeed
public typealias CLLocationSpeed = Double

/// …/cllocationcoordinate2d: `var latitude: CLLocationDegrees`, `var longitude: CLLocationDegrees`,
/// `init(latitude:longitude:)`.
public struct CLLocationCoordinate2D {
  /// …/cllocationcoordinate2d/latitude
  public var latitude: CLLocationDegrees
  /// …/cllocationcoordinate2d/longitude
  public var longitude: CLLocationDegrees
  /// …/cllocationcoordinate2d/init()
  public init() { (latitude, longitude) = (0, 0) }
  /// …/cllocationcoordinate2d/init(latitude:longitude:)
  public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    (self.latitude, self.longitude) = (latitude, longitude)
  }
}

/// …/cllocation: `class CLLocation`.
open class CLLocation: NSObject, @unchecked Sendable {
  /// …/cllocation/coordinate: `var coordinate: CLLocationCoordinate2D { get }`
  open private(set) var coordinate = CLLocationCoordinate2D()
  /// …/cllocation/altitude: `var altitude: CLLocationDistance { get }`
  open private(set) var altitude: CLLocationDistance = 0
  /// …/cllocation/horizontalaccuracy: `var horizontalAccuracy: CLLocationAccuracy { get }`
  open private(set) var horizontalAccuracy: CLLocationAccuracy = 0
  /// …/cllocation/verticalaccuracy: `var verticalAccuracy: CLLocationAccuracy { get }`
  open private(set) var verticalAccuracy: CLLocationAccuracy = 0
  /// …/cllocation/course: `var course: CLLocationDirection { get }`
  open private(set) var course: CLLocationDirection = 0
  /// …/cllocation/speed: `var speed: CLLocationSpeed { get }`
  open private(set) var speed: CLLocationSpeed = 0
  /// …/cllocation/timestamp: `var timestamp: Date { get }`
  open private(set) var timestamp = Date()

  /// …/cllocation/init(coordinate:altitude:horizontalaccuracy:verticalaccuracy:course:speed:timestamp:)
  public init(
    coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
    verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed,
    timestamp: Date
  ) {}
}
