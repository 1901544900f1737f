extension ClientUnderTest {
  /// The built-in clients.
  package static var builtIns: [ClientUnderTest] { [.reference, .syncEngine, .syncEngineSample] }
}
