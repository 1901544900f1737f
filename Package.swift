// swift-tools-version:6.0
import PackageDescription

// Reconcile depends on the Swift toolchain only: Foundation, Swift Testing and XCTest.
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "Reconcile",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "Reconcile", targets: ["Reconcile"]),
    .library(name: "ReconcileSimulator", targets: ["ReconcileSimulator"]),
    .executable(name: "reconcile-playground", targets: ["reconcile-playground"]),
    // Your own reconcile-playground: a small executable that calls PlaygroundCommand.main(clients:resolvers:).
    .library(name: "ReconcilePlayground", targets: ["ReconcilePlayground"]),
  ],
  dependencies: [],
  targets: [
    .target(name: "Reconcile", swiftSettings: strictSettings),
    .target(name: "ReconcileSimulator", dependencies: ["Reconcile"], swiftSettings: strictSettings),
    .target(
      name: "ReconcilePlayground",
      dependencies: ["Reconcile", "ReconcileSimulator"],
      path: "Playground/ReconcilePlayground",
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "reconcile-playground",
      dependencies: ["ReconcilePlayground"],
      path: "Playground/reconcile-playground",
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "reconcile-benchmarks",
      dependencies: ["Reconcile", "ReconcileSimulator", "ReconcilePlayground", "ReconcileTestSupport"],
      path: "Benchmarks/ReconcileBenchmarks",
      swiftSettings: strictSettings
    ),
    // The fuzz targets' checks, shared by the libFuzzer entry (Scripts/fuzz.sh) and the corpus replay tests.
    .target(
      name: "ReconcileFuzzing",
      dependencies: ["Reconcile", "ReconcileSimulator", "ReconcilePlayground", "ReconcileTestSupport"],
      path: "Fuzz/Harness",
      swiftSettings: strictSettings
    ),
    // Test support is a plain target, never a product: the seeded random-record generator lives here.
    .target(
      name: "ReconcileTestSupport",
      dependencies: ["Reconcile"],
      path: "Tests/ReconcileTestSupport",
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "ReconcileTests",
      dependencies: ["Reconcile", "ReconcileTestSupport"],
      resources: [.copy("Fixtures"), .copy("SavedMetadata")],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "ReconcileSimulatorTests",
      dependencies: ["ReconcileSimulator", "ReconcileTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "FuzzCorpusTests",
      dependencies: ["ReconcileFuzzing", "Reconcile", "ReconcileSimulator", "ReconcileTestSupport"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "PlaygroundTests",
      // The executable too: golden tests run the built binary.
      dependencies: ["ReconcilePlayground", "Reconcile", "reconcile-playground"],
      exclude: ["Golden"],
      swiftSettings: strictSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
