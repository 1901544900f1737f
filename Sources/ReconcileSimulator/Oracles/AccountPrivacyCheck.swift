import Reconcile

/// ``Invariant/accountsKeptApart``, judged on the wire and on what devices show: no value a user wrote while signed in
/// to one iCloud account reaches another account's private database, nor is shown on a device signed in to another
/// account.
///
/// Values are the strings users wrote (alone, or in lists); seeded runs write each once, so a value names the write.
/// A value written while signed out belongs to no account: an app may upload it to the account signed in to next.
struct AccountPrivacyCheck: Sendable {
  /// Per string a user wrote, the accounts it was written under (`""`: signed out).
  private var writtenUnder: [String: Set<String>] = [:]
  private(set) var violations: [InvariantViolation] = []
  /// Values written under an account checked where they were found, once the first device changed accounts.
  private(set) var checks = 0
  /// Whether any device changed accounts: without that, nothing can cross.
  private(set) var accountsChanged = false

  /// What users wrote before any device changed accounts, indexed only once one does: a run without account changes
  /// never pays for the index.
  private var unindexed: [(values: [FieldValue?], account: String?)] = []

  /// A device changed accounts.
  mutating func accountChanged() {
    accountsChanged = true
    for (values, account) in unindexed { index(values, account: account) }
    unindexed = []
  }

  /// A user on a device signed in to `account` (`nil`: signed out) wrote `values`.
  mutating func userWrote(_ values: [FieldValue?], account: String?) {
    if accountsChanged { index(values, account: account) } else { unindexed.append((values, account)) }
  }

  private mutating func index(_ values: [FieldValue?], account: String?) {
    for value in values {
      for string in Self.strings(in: value) { writtenUnder[string, default: []].insert(account ?? "") }
    }
  }

  /// A record was saved into `account`'s database (on the wire), or is shown on `device` signed in to `account`.
  mutating func check(_ record: Record, account: String?, where place: @autoclosure () -> String) {
    guard accountsChanged, !writtenUnder.isEmpty else { return }
    for key in record.allKeys {
      for string in Self.strings(in: Observer.value(of: key, in: record)) {
        // A value written while signed out may go to any account; one written under an account is checked.
        guard let accounts = writtenUnder[string], !accounts.contains("") else { continue }
        checks += 1
        guard !accounts.contains(account ?? "") else { continue }
        violations.append(
          InvariantViolation(
            .accountsKeptApart,
            "\(string.debugDescription) (\(key) of \(record.recordID.recordName)), written under "
              + "\(accounts.sorted().joined(separator: ", ")), \(place()) of \(account ?? "no account")"))
      }
    }
  }

  /// What the devices show at the end, checked against the accounts they are signed in to — or, for a device signed
  /// out that keeps its records for their account's return (`keptFor`), against that account: the violations found
  /// and the values checked (the wire's are in ``violations`` already).
  func shown(_ devices: [EndState.Device], keptFor: (String) -> String?) -> (
    violations: [InvariantViolation], checks: Int
  ) {
    var end = self
    end.violations = []
    end.checks = 0
    for device in devices {
      let kept = device.account == nil ? keptFor(device.name) : nil
      // Each place reads on into "of ACCOUNT" (or "of no account").
      let place =
        kept != nil
        ? "kept on \(device.name), signed out, as the data"
        : device.account == nil
          ? "shown on \(device.name), signed out, as the data" : "shown on \(device.name), signed in to the account"
      for record in device.records { end.check(record, account: device.account ?? kept, where: place) }
    }
    return (end.violations, end.checks)
  }

  private static func strings(in value: FieldValue?) -> [String] {
    switch value {
    case .string(let string)?: [string]
    case .list(let items)?: items.flatMap { strings(in: $0) }
    default: []
    }
  }
}
