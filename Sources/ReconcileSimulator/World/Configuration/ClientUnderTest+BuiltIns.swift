extension ClientUnderTest {
  /// The built-in clients.
  public static var builtIns: [ClientUnderTest] { [.reference, .syncEngine, .syncEngineSample] }
}
