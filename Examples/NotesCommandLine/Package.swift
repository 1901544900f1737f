// swift-tools-version:6.0
// An app's own package beside Reconcile: its sync client and resolver, and its own reconcile-playground.
import PackageDescription

let package = Package(
  name: "NotesCommandLine",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [.package(name: "Reconcile", path: "../..")],
  targets: [
    .target(name: "NotesSync", dependencies: [.product(name: "ReconcileSimulator", package: "Reconcile")]),
    .executableTarget(
      name: "notes-playground",
      dependencies: ["NotesSync", .product(name: "ReconcilePlayground", package: "Reconcile")]),
  ],
  swiftLanguageModes: [.v6]
)
