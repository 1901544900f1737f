extension ClientUnderTest {
  /// Reconcile's reference client: it sends CloudKit's operations itself and keeps its sync rules in `ZoneReplica`.
  public static let reference = ClientUnderTest(name: "reference", canAskOnAccountChange: false) { setup in
    try SimulatedDevice(setup: setup)
  }
}
