extension ClientUnderTest {
  /// Describes a client under test: your delegate, run by a simulated CKSyncEngine on each device.
  /// - Parameters:
  ///   - name: Its script name.
  ///   - ownRule: The one resolver name its runs may use, when it merges by a rule of its own; `nil` unless given.
  ///   - delegate: Builds the app's delegate on one device, as its first launch does; a thrown error leaves the device
  ///     out of the run.
  public init<Delegate: SimulatedSyncEngineDelegate>(
    name: String, ownRule: String? = nil, delegate: @escaping @Sendable (ClientSetup) throws -> Delegate
  ) {
    self.init(name: name, ownRule: ownRule) { setup in
      SimulatedSyncEngine(delegate: try delegate(setup), setup: setup)
    }
  }
}
