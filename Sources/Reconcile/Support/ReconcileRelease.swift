/// The release this source is: the one place the version is written. The playground's `--version` prints it, and a
/// test holds it to the newest release the CHANGELOG names.
package enum ReconcileRelease {
  /// The newest release's version.
  package static let version = "0.33.0"
}
