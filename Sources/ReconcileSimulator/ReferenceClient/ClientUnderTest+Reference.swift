extension ClientUnderTest {
  /// Reconcile's reference client, ``SimulatedDevice``.
  public static let reference = ClientUnderTest(name: "reference") { setup in
    try SimulatedDevice(setup: setup)
  }
}
