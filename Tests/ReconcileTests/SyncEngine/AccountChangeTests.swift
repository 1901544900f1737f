import Reconcile
import Testing

@Suite("Sync engine: account changes")
struct AccountChangeTests {
  @Test(
    "the change between two account states names the accounts, and none between the same state",
    arguments: [
      (nil, nil, nil),
      ("_a", "_a", nil),
      (nil, "_a", SyncEngine.AccountChange.signIn(currentUser: "_a")),
      ("_a", nil, .signOut(previousUser: "_a")),
      ("_a", "_b", .switchAccounts(previousUser: "_a", currentUser: "_b")),
    ] as [(String?, String?, SyncEngine.AccountChange?)])
  func changeBetweenStates(_ previous: String?, _ current: String?, _ expected: SyncEngine.AccountChange?) {
    let change = SyncEngine.AccountChange(from: previous, to: current)
    #expect(change == expected)
    if let change {
      #expect(change.previousUser == previous)
      #expect(change.currentUser == current)
    }
  }

  @Test("a change prints the accounts it is between")
  func description() {
    #expect(
      SyncEngine.AccountChange.switchAccounts(previousUser: "_a", currentUser: "_b").description
        == "switchAccounts(_a → _b)")
    #expect(SyncEngine.AccountChange.signOut(previousUser: "_a").description == "signOut(_a)")
  }
}
