/// One kind of fault the scheduler injects, by the name the command line's `--without` takes. A run that leaves some
/// out (``FaultProfile/without(_:)``) draws the others as before.
///
/// Leave out what your app cannot handle yet, or what a real deployment never meets, so that faults it cannot handle
/// do not hide the bugs it can: `FaultProfile.flaky.without([.zoneDeletion])`, or
/// `explore --faults hostile --without zone-deletion,token-expiry`.
public enum FaultKind: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
  /// A request never reaches the server (``FaultProfile/network``).
  case lostRequest = "lost-request"
  /// The server applies a request and its answer is lost (``FaultProfile/network``).
  case lostResponse = "lost-response"
  /// A request reaches the server twice (``FaultProfile/network``).
  case duplicate
  /// A request arrives late, sometimes after the device retried it (``FaultProfile/network``).
  case delay
  /// A transient error with a retry-after, for a whole request or one item (``FaultProfile/transientErrors``).
  case transientError = "transient-error"
  /// The app crashes and relaunches from what it persisted (``FaultProfile/deviceFaults``).
  case crash
  /// The app crashes between two persistence writes while handling an answer (``FaultProfile/deviceFaults``).
  case tornCrash = "torn-crash"
  /// The device goes offline, or back online (``FaultProfile/deviceFaults``).
  case offline
  /// The device's clock jumps (``FaultProfile/deviceFaults``).
  case clockJump = "clock-jump"
  /// A device's stored copy of a record is damaged (``FaultProfile/storageCorruption``).
  case storageCorruption = "storage-corruption"
  /// The server refuses every request for a while (``FaultProfile/serverFaults``).
  case throttle
  /// The zone's change history is compacted: old zone tokens expire (``FaultProfile/serverFaults``).
  case tokenExpiry = "token-expiry"
  /// The database's zone feed is compacted: old database tokens expire (``FaultProfile/serverFaults``).
  case databaseTokenExpiry = "database-token-expiry"
  /// The user's iCloud storage is full for a while (``FaultProfile/serverFaults``).
  case quotaFull = "quota-full"
  /// Another client deletes the zone (``FaultProfile/serverFaults``).
  case zoneDeletion = "zone-deletion"
  /// The user purges the app's data in Settings (``FaultProfile/serverFaults``).
  case zonePurge = "zone-purge"
  /// The user resets their encrypted data, which deletes the zone (``FaultProfile/serverFaults``).
  case encryptedDataReset = "encrypted-data-reset"
  /// The user signs in to, out of, or switches the device's iCloud account (``FaultProfile/accountChanges``), or the
  /// app quits and launches again, so that changes made while it was not running reach it as one.
  case accountChange = "account-change"

  /// The name `--without` takes.
  public var description: String { rawValue }

  /// The part of the world a fault of this kind breaks: the network, the host around a client (its process, clock,
  /// storage, network link and account), or the server. `--without network|host|server` leaves out every kind of one
  /// part. A transient error is the server's: its `networkFailure` case alone is the network's (``SimulationFault/part``).
  public var part: SimulationFault.Part {
    switch self {
    case .lostRequest, .lostResponse, .duplicate, .delay: .network
    case .crash, .tornCrash, .offline, .clockJump, .storageCorruption, .accountChange: .host
    case .transientError, .throttle, .tokenExpiry, .databaseTokenExpiry, .quotaFull, .zoneDeletion, .zonePurge,
      .encryptedDataReset:
      .server
    }
  }

  /// The kind of fault a scheduled step injects, or `nil` for a step that is not a fault.
  package init?(of step: SimulationStep) {
    switch step {
    case .crash: self = .crash
    case .offline, .online: self = .offline
    case .clockJump: self = .clockJump
    case .account, .quit, .launch: self = .accountChange
    case .fault(let fault):
      switch fault {
      case .loseRequest: self = .lostRequest
      case .loseResponse: self = .lostResponse
      case .duplicate: self = .duplicate
      case .delay: self = .delay
      case .transient, .itemTransient: self = .transientError
      case .tornCrash: self = .tornCrash
      case .corruptStorage: self = .storageCorruption
      case .throttle: self = .throttle
      case .expireTokens: self = .tokenExpiry
      case .expireDatabaseTokens: self = .databaseTokenExpiry
      case .quotaFull: self = .quotaFull
      case .deleteZone: self = .zoneDeletion
      case .purgeZone: self = .zonePurge
      case .resetEncryptedData: self = .encryptedDataReset
      // Only scripts inject these; each is counted with the kind it is a case of.
      case .serverError: self = .transientError
      case .disconnectAfterSave: self = .lostResponse
      }
    default: return nil
    }
  }
}
